"""The reading protocol stays small, and one of each thing stays one.

- the record visitor has at most 10 public hooks, the replay visitor adds at most 5,
  and neither has a capability flag (a property) for the reader or the replay to ask;
- no check mode is a kind of replay: the modes are judges given to the one replay;
- one class detects where records start, and one class is called ``Chunk``;
- the names of the fast path the protocol lost are gone from the package.

Read from the source (:mod:`ast`) where a class could hide in any module; the hooks are
counted on the classes themselves.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from notation.replay import Replay
from notation.visitor import RecordVisitor, ReplayVisitor

PACKAGE = Path(__file__).resolve().parent.parent / "notation"
#: The members of the protocol before it was made small (issue 38).
GONE = re.compile(
    r"\b(takes_plain_moves|needs_nodes|held_node|visit_plain_move|after_plain_move"
    r"|visit_moves|needs_before_move)\b"
)


def _public(cls: type) -> set[str]:
    return {name for name in vars(cls) if not name.startswith("_")}


def _classes() -> list[tuple[str, ast.ClassDef]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [(str(path.relative_to(PACKAGE)), node) for node in ast.walk(tree)
                  if isinstance(node, ast.ClassDef)]
    return found


def test_the_record_visitor_has_at_most_ten_hooks_and_no_flags() -> None:
    hooks = _public(RecordVisitor)
    assert len(hooks) <= 10, sorted(hooks)
    assert {"begin_record", "visit_tag", "end_tags", "visit_move", "visit_comment",
            "begin_variation", "end_variation", "visit_result", "end_record"} <= hooks
    added = _public(ReplayVisitor)
    assert len(added) <= 5, sorted(added)
    for cls in (RecordVisitor, ReplayVisitor):
        flags = [name for name, value in vars(cls).items() if isinstance(value, property)]
        assert flags == [], (cls.__name__, flags)


def test_no_check_mode_is_a_kind_of_replay() -> None:
    def subclasses(cls: type) -> set[type]:
        found = set(cls.__subclasses__())
        for sub in list(found):
            found |= subclasses(sub)
        return found


    assert {cls.__qualname__ for cls in subclasses(Replay)} == set()
    bases = {
        where for where, node in _classes()
        for base in node.bases if isinstance(base, ast.Name) and base.id == "Replay"
    }
    assert bases == set()


def test_one_record_start_detector_and_one_chunk() -> None:
    names = [(where, node.name) for where, node in _classes()]
    assert [where for where, name in names if name == "Chunk"] == ["editing/buffer.py"]
    starts = [name for _, name in names if re.search(r"Starts?$", name)]
    assert starts == ["SureStarts"], starts
    for module in (
        "collections/batch.py", "collections/scanning.py", "editing/recordfile.py",
        "editing/buffer.py",
    ):
        text = (PACKAGE / module).read_text(encoding="utf-8")
        assert "record_starts" in text or "SureStarts" in text, module


def test_the_old_fast_path_is_gone() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        found = GONE.findall(path.read_text(encoding="utf-8"))
        assert found == [], (path.name, found)
