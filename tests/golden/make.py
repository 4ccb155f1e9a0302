"""Make the golden files of tests/test_golden.py: the outputs of the code before the
one reading loop (issue 28), on the corpora of the equivalence tests that held its
parallel paths equal.  Run once, from that code's checkout, with its interpreter:

    cd OLD_CHECKOUT && python PATH/tests/golden/make.py PATH/tests/golden

It writes corpora/ (record text, and JSON Lines of records built in code) and out/
(what each command makes of each corpus, gzipped; an output the same as without a
default game, or without ``--repair``, is not kept twice).  The files are kept in the
repository: the new code is compared with them byte for byte.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
from pathlib import Path

from notation.checking.canonical_form import check_record_strict
from notation.formats import jsontext
from notation.formats.annotate import AnnotateOptions, annotate_record
from notation.formats.convert import convert_record, record_to_json
from notation.games import get_game
from notation.reader import read_records
from notation.record import Record
from notation.replay import check_record
from notation.writer import write_record

GAMES = ("tinkertown", "cave", "zombie-kidz")


def corpora() -> dict[str, str]:
    """The corpora, made by the old code's test helpers."""
    from tests.test_streamcheck import _plain_text, decorated_text, test_edges

    edges = next(mark.args[1] for mark in test_edges.pytestmark if mark.name == "parametrize")
    texts: dict[str, str] = {}
    for game in GAMES:
        texts[f"plain-{game}"] = _plain_text(game, 10, 7)
        decorated_games = decorated_text(game, 12, 11, random.Random(3))
        texts[f"decorated-{game}"] = decorated_games
        texts[f"misnumbered-{game}"] = decorated_games.replace(" 3. ", " 4. ", 5)
    texts["edges"] = "\n".join(edges)
    root = Path("records")
    for path in sorted(root.glob("*/*.ugn")):
        texts[f"records-{path.parent.name}-{path.stem}"] = path.read_text(
            encoding="utf-8", errors="surrogateescape"
        )
    return texts


def outputs(text: str, default: str | None) -> dict[str, str]:
    """What the library makes of the records of ``text``, by kind of output (the verdicts
    as JSON lines, each conversion's texts ending in a NUL)."""

    def records() -> list[Record]:
        return list(read_records(io.StringIO(text, newline=""), "f.txt", keep_raw=True))

    out = {
        "check": "".join(
            json.dumps(check_record(r, default).to_dict()) + "\n" for r in records()
        ),
        "strict": "".join(
            json.dumps(check_record_strict(r, default).to_dict()) + "\n" for r in records()
        ),
    }
    for to in ("text", "plain", "json"):
        out[to] = "".join(convert_record(r, to, default).text + "\x00" for r in records())
        out[to + "-repair"] = "".join(
            convert_record(r, to, default, repair=True).text + "\x00" for r in records()
        )
    out["annotate"] = "".join(annotate_record(r, None, default).text + "\x00" for r in records())
    options = AnnotateOptions(diagrams=3)
    out["annotate-d3"] = "".join(
        annotate_record(r, options, default).text + "\x00" for r in records()
    )
    return out


def main(target: Path) -> None:
    (target / "corpora").mkdir(parents=True, exist_ok=True)
    (target / "out").mkdir(parents=True, exist_ok=True)
    for name, text in corpora().items():
        (target / "corpora" / f"{name}.txt").write_text(
            text, encoding="utf-8", errors="surrogateescape", newline=""
        )
        plain = outputs(text, None)
        for default, made in ((None, plain), ("cave", outputs(text, "cave"))):
            for kind, output in made.items():
                if default is not None and output == plain[kind]:
                    continue  # the same as without a default game: not kept twice
                if kind.endswith("-repair") and output == made[kind.removesuffix("-repair")]:
                    continue  # the same as without --repair
                suffix = "" if default is None else f"-{default}"
                _save(target / "out" / f"{name}{suffix}.{kind}.gz", output)
    # Records built in code (the writer's quick paths were held to these), as JSON
    # Lines, and how the writer writes them at three widths.
    from tests.test_convert_speed_equivalence import decorated

    for game in GAMES:
        played = get_game(game)
        lines, written = [], []
        for record, size in decorated(game, 7, 40) + decorated(game, 8, 40, rich=False):
            lines.append(jsontext.dumps(record_to_json(record, played)) + "\n")
            for width in (79, 20, 3):
                written.append(write_record(record, size, width, 1) + "\x00")
        (target / "corpora" / f"built-{game}.jsonl").write_text("".join(lines), encoding="utf-8")
        _save(target / "out" / f"built-{game}.widths.gz", "".join(written))


def _save(path: Path, text: str) -> None:
    """``text`` gzipped at ``path``, with no time stamp (the same bytes every run)."""
    data = text.encode("utf-8", errors="surrogateescape")
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
