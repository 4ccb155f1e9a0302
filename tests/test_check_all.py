"""``notation check --all``: every defect of a record, the move likely meant, the turn
that last changed a square, and the hints for records written by hand."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.checking import slips
from notation.checking.every_defect import (
    all_errors,
    distance,
    likely_moves,
    neighbours,
    ranked_moves,
)
from notation.cli import cli
from notation.games import get_game
from notation.reader import read_records
from notation.replay import check_record

#: A generated game with two slips in its main line (turns 24 and 30) and a variation
#: that names a square off the board (turn 26).
TYPOS = """\
[Game "tinkertown"]
[Result "*"]

1. f3 e3,h6 2. g6,e8 e7,h4 3. h3,b7 c7,d6 4. e6,a4 b4,f5 5. f6,b2 c2,e1
6. e2,g2 f2,a6 7. b6,c5 b5 8. f6-g6 b5-a5 9. g4 f5 10. g5 f3 11. f2 c6
12. g4-g5 f5-7f 13. f6 b4-b3 (13... b4-b9) 14. g3 f7-f5 15. d7 e1-f1x 16. f5 b3-c3
17. a4-a5 c6 18. e2-d2 h6-g6 19. h6 c2-c1 20. e7 d6-c6 *
"""

#: Placement (b) next to an occupied grave that turn 4 filled.
NEIGHBOUR = '[Game "tinkertown"]\n\n1. d3 d2,b5 2. c5,f2 e2,g5 3. f5,b3 c3,g6 *\n'


def check(tmp_path: Path, text: str, *options: str, name: str = "game.txt") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", *options, str(path)])
    return result.exit_code, result.output.replace(str(tmp_path) + "/", "")


def json_lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines()]


def test_two_slips_in_the_main_line_and_a_variation_in_one_run(tmp_path: Path) -> None:
    code, out = check(tmp_path, TYPOS, "--all")
    assert code == 1
    assert out.splitlines() == [
        "game.txt:6:11: record 1, turn 24 (f5-7f): 'f5-7f' is not a Tinkertown move: "
        "expected a square (d3, h3x), two placements (d2,b5) or a move (h5-h3, h5xh3, "
        "h5-h3x); did you mean f5-f7?",
        "game.txt:6:37: record 1, turn 26 (b4-b9): b9 is not a square (files a-h, ranks "
        "1-8); did you mean b4-b3 or b4-b5? (no telling which) (assuming f5-f7 at turn 24)",
        "game.txt:6:64: record 1, turn 30 (e1-f1x): no capture on f1 (1 zombie, one "
        "colour, capacity 2): remove the x; did you mean e1-f1? (assuming f5-f7 at turn 24)",
        "1 record in 1 file: 0 valid, 1 broken",
    ]


def test_without_all_only_the_first_defect_and_no_guess(tmp_path: Path) -> None:
    code, out = check(tmp_path, TYPOS)
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2 and "did you mean" not in lines[0]
    assert lines[0].startswith("game.txt:6:11: record 1, turn 24 (f5-7f): ")


def test_json_shape(tmp_path: Path) -> None:
    text = TYPOS + '\n[Game "cave"]\n\n1. b1 b5 *\n'
    code, out = check(tmp_path, text, "--all", "--format", "json")
    assert code == 1
    broken, valid = json_lines(out)
    errors = broken["errors"]
    assert isinstance(errors, list) and len(errors) == 3
    assert broken["error"] == errors[0]
    assert [(e["turn"], e["code"]) for e in errors] == [
        (24, "tinkertown-move-malformed"), (26, "tinkertown-not-a-square"),
        (30, "tinkertown-no-capture"),
    ]
    assert "assumed" not in errors[0]
    for later in errors[1:]:
        assert later["assumed"] == [{"turn": 24, "written": "f5-7f", "assumed": "f5-f7"}]
    assert list(broken) == [
        "file", "record", "game", "ok", "result", "turns", "error", "errors", "outcome"
    ]
    assert valid["ok"] is True and valid["errors"] == [] and valid["error"] is None
    # Without --all the objects are as they were: no errors list.
    _, plain = check(tmp_path, text, "--format", "json")
    assert all("errors" not in obj for obj in json_lines(plain))


def test_the_turn_that_last_changed_the_square(tmp_path: Path) -> None:
    said = "g6 has an occupied neighbour (g5); g5 was last changed at turn 4: 2... e2,g5"
    for options in ((), ("--all",)):
        code, out = check(tmp_path, NEIGHBOUR, *options)
        assert code == 1
        assert out.splitlines()[0] == f"game.txt:3:37: record 1, turn 6 (c3,g6): {said}"
        _, as_json = check(tmp_path, NEIGHBOUR, *options, "--format", "json")
        error = json_lines(as_json)[0]["error"]
        assert isinstance(error, dict)
        assert error["last_changed"] == {"square": "g5", "turn": 4, "move": "e2,g5"}
        assert error["message"] == said


def test_a_defect_that_depends_on_no_square_names_no_turn(tmp_path: Path) -> None:
    text = '[Game "tinkertown"]\n\n1. d3,b5 *\n'  # two placements on the first turn
    _, out = check(tmp_path, text, "--format", "json")
    error = json_lines(out)[0]["error"]
    assert isinstance(error, dict)
    assert "last_changed" not in error and "last changed" not in str(error["message"])


def test_a_roll_of_zombie_kidz_is_named(tmp_path: Path) -> None:
    # c2 holds 2 zombies; the roll G puts the third there, and then no pawn may enter.
    before = '[Game "zombie-kidz"]\n[Position "000/032/010 c3,c1 a1 2/8 2 2 15"]\n\n8... '
    _, out = check(tmp_path, before + "G:c2 *\n")
    assert out.splitlines()[0].endswith(
        "c2 holds 3 zombies; no pawn may enter; c2 gets a zombie from this turn's roll (G)"
    )
    # A defect that depends on where the pawn stands names no roll.
    _, out = check(tmp_path, before + "R:a1-b1 *\n")
    assert "roll" not in out.splitlines()[0]


def test_space_after_the_comma(tmp_path: Path) -> None:
    text = '[Game "tinkertown"]\n\n1. d3 d2,b5 2. c5, f2 e2,g5 *\n'
    code, out = check(tmp_path, text)
    assert code == 1
    line = out.splitlines()[0]
    assert line.startswith("game.txt:3:16: record 1, turn 3 (c5,): ")
    assert line.endswith(
        "(a space after the comma cuts the turn in two: write c5,f2 without spaces)"
    )
    # --all reads it as c5,f2 and goes on: f2 is no move of its own, the rest is valid.
    code, out = check(tmp_path, text, "--all")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].endswith("did you mean c5,f2?")


def test_missing_result_hint(tmp_path: Path) -> None:
    code, out = check(tmp_path, '[Game "cave"]\n\n1. b1 b5\n')
    assert code == 1
    assert out.splitlines()[0] == (
        "game.txt:3:9: record 1: the record has no result token (1-0, 0-1, 1/2-1/2 or *); "
        "add * (or the result) after the last move"
    )


def test_missing_result_hint_names_the_result_tags_value(tmp_path: Path) -> None:
    """With a Result tag, the hint names its result (adding * would contradict the tag),
    and the record with that result added checks clean."""
    text = '[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5\n'
    for options in ((), ("--all",), ("--all", "--strict")):
        code, out = check(tmp_path, text, *options)
        assert code == 1
        assert out.splitlines()[0] == (
            "game.txt:4:9: record 1: the record has no result token (1-0, 0-1, 1/2-1/2 or "
            "*); add 1-0 after the last move (the Result tag's)"
        ), options
    code, out = check(tmp_path, text.replace("b5\n", "b5 1-0\n"), "--all", "--strict")
    assert code == 0, out


def test_container_errors_and_a_rules_defect_after_them(tmp_path: Path) -> None:
    text = '[Game "cave"]\n\n1. b1 ) b5 2. b1-b2 } a5 3. c1 a5-a4 4. c2 *\n'
    code, out = check(tmp_path, text, "--all", "--format", "json")
    assert code == 1
    errors = json_lines(out)[0]["errors"]
    assert isinstance(errors, list)
    assert [(e["code"], e["column"]) for e in errors] == [
        ("variation-unopened", 7),
        ("comment-unopened", 21),
        ("cave-not-home-row", 41),
    ]
    # Without --all: the first only, as before.
    _, plain = check(tmp_path, text, "--format", "json")
    assert json_lines(plain)[0]["error"]["code"] == "variation-unopened"  # type: ignore[index]


def test_a_line_with_no_likely_move_stops_and_the_next_line_goes_on(tmp_path: Path) -> None:
    # zz is nothing like a move; the variation of b5 is still checked.
    text = '[Game "cave"]\n\n1. b1 b5 (1... b2) 2. zz c5 3. a5 *\n'
    _, out = check(tmp_path, text, "--all")
    lines = out.splitlines()
    assert len(lines) == 3
    assert "turn 2 (b2): b2 is not on Black's home row" in lines[0]
    assert "turn 3 (zz)" in lines[1]
    assert lines[1].endswith("the rest of this line is not checked")


def test_strict_and_all(tmp_path: Path) -> None:
    # Two captures without their mark, in the canonical form a defect each.
    text = TYPOS.replace("e1-f1x", "e1-f1")
    _, strict = check(tmp_path, text, "--all", "--strict", "--format", "json")
    errors = json_lines(strict)[0]["errors"]
    assert isinstance(errors, list)
    codes = [e["code"] for e in errors]
    assert "tinkertown-move-malformed" in codes and "tinkertown-not-a-square" in codes


def test_standard_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--all", "-"], input=TYPOS)
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.output.splitlines()[:3]] == [
        "<stdin>:6:11", "<stdin>:6:37", "<stdin>:6:64"
    ]


def test_folders(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.txt").write_text(TYPOS, encoding="utf-8")
    (tmp_path / "games" / "b.txt").write_text(NEIGHBOUR, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--all", str(tmp_path / "games")])
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 3 + 1 + 1


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_jobs_give_the_same_output(tmp_path: Path, fmt: str) -> None:
    # Over 1 MB, so that workers check it in parts; broken records here and there.
    valid = TYPOS.replace("f5-7f", "f5-f7").replace("(13... b4-b9) ", "").replace(
        "e1-f1x", "e1-f1"
    )
    records = [TYPOS if i % 997 == 5 else valid for i in range(3800)]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(records), encoding="utf-8")
    assert path.stat().st_size > 1_100_000
    outputs = []
    for jobs in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "notation", "check", "--all", "--format", fmt,
             "--jobs", jobs, str(path)],
            capture_output=True, text=True, check=False, cwd=tmp_path,
        )
        assert done.returncode == 1, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    if fmt == "text":
        assert outputs[0].count("did you mean f5-f7?") == 4
        assert "record 3800" not in outputs[0]
        assert "record 1003, turn 24" in outputs[0] and "record 2997, turn 30" in outputs[0]


def test_likely_moves_ranks_marks_before_slips() -> None:
    game = get_game("tinkertown")
    position = game.new_position()
    for text in ("d3", "d2,b5", "c5,f2"):
        position.push(game.parse(text))
    assert likely_moves(game, position, "e2g5") == ["e2,g5"]  # a comma dropped
    assert likely_moves(game, position, "d3,g5") == ["f3,g5"]  # d3 is occupied
    assert likely_moves(game, position, "e2,g5x") == ["e2,g5"]  # a mark, not a slip
    assert likely_moves(game, position, "zzzz") == []


def test_distance() -> None:
    assert distance("f5-7f", "f5-f7") == 1  # a swap
    assert distance("b3", "b3x") == 1
    assert distance("g30", "g3") == 1
    assert distance("abc", "abc") == 0
    assert distance("ab", "ba") == 1
    assert distance("kitten", "sitting") == 3



def test_records_without_tags_are_read_again_whole(tmp_path: Path) -> None:
    # --all reads a broken record again from its text (Record.raw), which the reader
    # keeps for a check's node-less visit too: every line of moves, tags or none (the
    # first record's second line, the third's third, are read the reader's fast way).
    valid = (
        "1. c7 c6,h4 2. g4,g6 g5,b4 3. a4,e8 d8,e1 4. e2,b2 c2,g2 5. g3,f7 f8,d3\n"
        "6. d2,e6 e7,a6 7. b6 g4 8. c7-b7 b2 9. e6 d3-d2 10. c7 h4-g4 11. e2-e1 f8\n"
        "12. b7-c7 b2x 13. f7-e7 g5-h5 14. g2 h5-h4 15. g3-g4 c6-c7 *\n"
    )
    moves = TYPOS.split("\n\n", 1)[1]
    split = moves.replace(" 3. h3,b7", "\n3. h3,b7", 1)
    _, tagged = check(tmp_path, TYPOS, "--all", name="tagged.txt")
    expected = tagged.splitlines()[:3]
    text = moves + "\n" + valid + "\n" + split
    code, out = check(tmp_path, text, "--all", "--game", "tinkertown")
    assert code == 1
    lines = out.splitlines()
    assert lines[-1] == "3 records in 1 file: 1 valid, 2 broken"
    # The same defects as with the tags, the lines moved (and the records numbered) on.
    for at, record, line_number in ((0, 1, 3), (3, 3, 13)):
        assert lines[at:at + 3] == [
            re.sub(r"^tagged\.txt:6:", f"game.txt:{line_number}:", line).replace(
                "record 1", f"record {record}"
            )
            for line in expected
        ]


# -- two slips a few turns apart --------------------------------------------------------

RECORDS = Path(__file__).resolve().parent.parent / "records"

#: Per game, the first example record's turn 7 and the four turns after it, each with a
#: slip of one square (the move meant, the move written).
SLIPS = {
    "tinkertown": [("d7,c2", "d1,c2"), ("b2,a6", "a2,a6"), ("b6,f6", "c6,f6"),
                   ("e6,a3", "a6,a3"), ("b3,g7", "c3,g7")],
    "cave": [("d1", "d2"), ("c5", "c1"), ("d1-d2", "a1-d2"), ("c5-c4", "a5-c4"),
             ("d2-d1", "a2-d1")],
    "zombie-kidz": [("W:b1-c1x", "W:a1-c1x"), ("R:b1-c1L", "R:a1-c1L"),
                    ("G:c1-c2x", "G:a1-c2x"), ("Y:c1-c2", "Y:a1-c2"),
                    ("W:c2-c3x", "W:a2-c3x")],
}


def slipped(game: str, slips: dict[int, str]) -> str:
    """The first example record of ``game`` with the moves of ``slips`` (by turn)
    written otherwise."""
    from notation.reader import read_file
    from notation.writer import write_record

    record = next(iter(read_file(RECORDS / game / "examples.ugn")))
    for turn, written in slips.items():
        record.moves[turn - 1].text = written
    return write_record(record)


def defects(tmp_path: Path, text: str) -> list[str]:
    """What ``check --all`` says of each defect of ``text``: from the turn on."""
    code, out = check(tmp_path, text, "--all")
    assert code == 1
    return [line.split(", ", 1)[1] for line in out.splitlines()[:-1]]


@pytest.mark.parametrize("game", sorted(SLIPS))
@pytest.mark.parametrize("gap", [1, 2, 3, 4])
def test_two_slips_a_few_turns_apart_are_both_found(tmp_path: Path, game: str, gap: int) -> None:
    (meant, written), (meant_later, written_later) = SLIPS[game][0], SLIPS[game][gap]
    later = 7 + gap
    # Each alone is found, the move meant named...
    (alone,) = defects(tmp_path, slipped(game, {7: written}))
    assert alone.startswith(f"turn 7 ({written}): ") and alone.endswith(f"; did you mean {meant}?")
    (alone,) = defects(tmp_path, slipped(game, {later: written_later}))
    assert alone.startswith(f"turn {later} ({written_later}): ")
    assert alone.endswith(f"; did you mean {meant_later}?")
    # ...and so are both together: the second within the moves that confirm the first.
    first, second = defects(tmp_path, slipped(game, {7: written, later: written_later}))
    assert first.startswith(f"turn 7 ({written}): ") and first.endswith(f"; did you mean {meant}?")
    assert second.startswith(f"turn {later} ({written_later}): ")
    assert second.endswith(f"; did you mean {meant_later}? (assuming {meant} at turn 7)")


def test_no_second_slip_is_made_up_where_the_move_meant_fits_alone(tmp_path: Path) -> None:
    # d1,c1 for d7,c2 is two slips: the move one slip away, d7,c1, would fit the next
    # moves if c2,a6 at turn 8 were a slip too, but d7,c2 fits them as written.  No
    # guess, rather than a wrong one and a second typo that is not there.
    (only,) = defects(tmp_path, slipped("tinkertown", {7: "d1,c1"}))
    assert only.startswith("turn 7 (d1,c1): ")
    assert only.endswith("; the rest of this line is not checked")
    assert "did you mean" not in only


def test_a_token_far_longer_than_any_move_is_not_searched_for_a_slip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No move is a slip or two from a token of thousands of characters: it is reported
    too long, and no "did you mean" is looked for (that search costs the token's length
    for every legal move)."""
    token = "d" * 20_000
    compared: list[int] = []

    def measured(a: str, b: str) -> int:
        compared.append(max(len(a), len(b)))
        return distance(a, b)

    monkeypatch.setattr(slips, "distance", measured)
    text = f'[Game "tinkertown"]\n\n1. d3 {token} *\n'
    (record,) = read_records(text.splitlines(keepends=True), keep_raw=True)
    game = get_game("tinkertown")
    assert ranked_moves(game, game.new_position(), token) == []
    verdict = all_errors(record, check_record(record), None)
    assert [d.code for d in verdict.errors] == ["move-too-long"]
    assert "did you mean" not in verdict.errors[0].message
    assert not any(length >= len(token) for length in compared)


def test_the_neighbours_of_a_text_are_those_one_slip_away() -> None:
    # What ranked_moves looks legal moves up in, held to the full distance.
    rng = random.Random(7)
    letters = "abx-1,"
    for _ in range(3000):
        a = "".join(rng.choice(letters) for _ in range(rng.randrange(6)))
        near = neighbours(a, letters)
        for _ in range(10):
            b = "".join(rng.choice(letters) for _ in range(rng.randrange(6)))
            assert (b in near) == (distance(a, b) <= 1), (a, b)
