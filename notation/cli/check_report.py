"""The body of ``notation check``, without click: a line per verdict, a summary, and a
progress bar for long checks on a terminal.  Both the click command
(:mod:`notation.commands.check`) and the fast path of :func:`notation.cli.main` (a
plain ``notation check FILE...``, before click is imported) call :func:`run_check`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import closing
from typing import TYPE_CHECKING, Final

from notation.errors import Defect, ErrorKind, display_path
from notation.files.console import PROGRESS_MIN_BYTES, warn_not_utf8

if TYPE_CHECKING:
    from notation.collections.batch import TextSource
    from notation.commands.common import Progress
    from notation.replay import Verdict

__all__ = ["SYMPTOM_NOTE", "may_be_a_symptom", "run_check"]


def run_check(
    inputs: Sequence[str | None],
    *,
    game: str | None = None,
    fmt: str = "text",
    verbose: bool = False,
    strict: bool = False,
    jobs: int | None = None,
    all_errors: bool = False,
) -> int:
    """Check every record of ``inputs`` (file names, ``None`` for standard input) as
    ``notation check`` does, write its output, and return its exit code: 0 if every
    record is valid, 1 if any is not.  ``game`` is the game of records without a Game
    tag (a name ``canonical_name`` gave), ``fmt`` "text" or "json", ``jobs`` None for
    the default; ``all_errors`` (``--all``): every defect of a broken record, one line
    each in text, an ``errors`` list in JSON.  An ``OSError`` and ``KeyboardInterrupt``
    are left to the caller.
    """
    from notation.collections.batch import TextSource, check_paths, input_size, tally_paths

    checked: list[str | TextSource] = []
    for name in inputs:
        if name is None:
            from notation.files.console import stdin_lines

            checked.append(TextSource("<stdin>", stdin_lines()))
        else:
            checked.append(name)
    progress = _progress(input_size(checked))

    def not_utf8(name: str) -> None:
        if progress is not None:
            progress.clear()
        warn_not_utf8(name)

    # Without -v, text lists only the broken records: the valid ones are only counted.
    check = tally_paths if fmt == "text" and not verbose else check_paths
    verdicts = check(
        checked,
        jobs=jobs,
        default_game=game,
        strict=strict,
        on_not_utf8=not_utf8,
        on_progress=None if progress is None else progress.advance,
        all_errors=all_errors,
    )
    out = sys.stdout
    total = broken = 0
    symptoms = False  # a record broken where an earlier slip may be the cause
    try:
        with closing(verdicts):  # stopped by Ctrl-C, a closed pipe...: end the workers now
            for verdict in verdicts:
                if isinstance(verdict, int):  # valid records, counted
                    total += verdict
                    continue
                total += 1
                if verdict.error is not None:
                    broken += 1
                    symptoms = symptoms or may_be_a_symptom(verdict.error)
                elif fmt != "json" and not verbose:
                    continue
                if progress is not None:
                    progress.clear()
                out.write(_line(verdict, fmt))
                if progress is not None:
                    out.flush()
    finally:
        if progress is not None:
            progress.stop()
    if fmt == "text":
        files_word = "file" if len(inputs) == 1 else "files"
        if total == 0:
            out.write(f"no records found in {len(inputs)} {files_word}\n")
        else:
            out.write(
                f"{total} record{'s' if total != 1 else ''} in {len(inputs)} {files_word}: "
                f"{total - broken} valid, {broken} broken\n"
            )
        if symptoms and not all_errors:
            out.write(SYMPTOM_NOTE + "\n")
    return 1 if broken else 0


#: What a plain check adds below its summary where a record broke at a move the rules
#: refuse, or at a result they contradict: that may be the symptom of a slip.
SYMPTOM_NOTE: Final = (
    "a move the rules refuse may be an earlier slip's symptom: "
    "notation check --all looks for the slip"
)


def may_be_a_symptom(error: Defect) -> bool:
    """Whether ``error`` may come from an earlier move copied wrong that the rules
    accepted: a move they refuse, or a result they contradict."""
    return error.kind is ErrorKind.ILLEGAL or error.code == "result-contradicts-rules"


def _progress(size: int) -> Progress | None:
    """The progress bar for ``size`` bytes of input (see ``Progress.for_input``); below
    :data:`~notation.files.console.PROGRESS_MIN_BYTES` there is none, and rich is not loaded."""
    if size < PROGRESS_MIN_BYTES:
        return None
    from notation.commands.common import Progress

    return Progress.for_input(size)


def _line(verdict: Verdict, fmt: str) -> str:
    if fmt == "json":
        import json

        return json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n"
    if verdict.errors:  # --all: a line per defect
        return "".join(f"{error}\n" for error in verdict.errors)
    if verdict.error is not None:
        return f"{verdict.error}\n"
    return (
        f"{display_path(str(verdict.source))}: record {verdict.record}: valid {verdict.game} game, "
        f"{verdict.turns} turns, {verdict.result}\n"
    )
