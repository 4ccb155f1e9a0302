"""A game's descriptions load once, whole, when two threads ask for them together.

``notation replay`` reads records in one thread while the screen draws in another;
both may ask a position for its board first.  A module being imported is in
``sys.modules`` before its body has run, so a look-up there alone could hand the
second thread a module without its functions yet.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from notation.games import base

BODY = """\
import threading
started: threading.Event = __import__("{test}").STARTED
go: threading.Event = __import__("{test}").GO
started.set()
go.wait()


def board_view(position):
    return "whole"
"""

STARTED = threading.Event()
GO = threading.Event()


def test_a_second_thread_waits_for_the_module_to_load_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "slow_describe_for_test"
    (tmp_path / f"{name}.py").write_text(BODY.format(test=__name__), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    STARTED.clear()
    GO.clear()
    results: dict[str, Any] = {}
    asking = threading.Event()

    def ask(who: str) -> None:
        if who == "second":
            asking.set()
        try:
            results[who] = base._describer(name).board_view(None)
        except Exception as error:
            results[who] = error

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert STARTED.wait(60)  # the first thread is inside the module's body
    second = threading.Thread(target=ask, args=("second",))
    second.start()
    assert asking.wait(60)  # the second thread is asking while the body is still running
    GO.set()
    first.join(60)
    second.join(60)
    monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delitem(base._DESCRIBERS, name, raising=False)
    assert results == {"first": "whole", "second": "whole"}
