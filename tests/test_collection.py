"""Collections: select, dedup, split (library and command), kept records byte for byte."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.collections.operations import (
    Facts,
    HasMove,
    IsBroken,
    IsValid,
    NumberIn,
    ReachesPosition,
    ResultIs,
    Selection,
    TagEquals,
    TagIn,
    TagMatches,
    TurnsIn,
    dedup,
    dedup_key,
    parse_range,
    select,
    split_key,
)
from notation.errors import MisuseError
from notation.reader import read_file, read_records

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

GAMES = """[Game "cave"]
[Event "Club 2024"]
[Date "2024.03.??"]
[Red "Ann"]
[Black "Bob"]
[Round "3"]

1. b1 b5 2. b1-b2 b5-b4 *

[Game "cave"]
[Event "Club 2023"]
[Date "2023.11.02"]
[Red "Bob"]
[Black "Cy"]
[Round "12"]

1. b1 b5 {same main line as the first, other tags} 2. b1-b2 (2. b1-c1) b5-b4 *

[Game "cave"]
[Red "Ann"]
[Black "Cy"]

1. a1 b5 2. a1-a2 *

[Game "cave"]
[Red "Dee"]

1. b1 b5 2... b1-b2 *
"""


def records() -> list:  # type: ignore[type-arg]
    return list(read_records(io.StringIO(GAMES, newline=""), "games.txt", keep_raw=True))


def chosen(*criteria: object, any_of: bool = False, invert: bool = False) -> list[int]:
    selection = Selection(tuple(criteria), any_of=any_of, invert=invert)  # type: ignore[arg-type]
    return [r.index for r in select(records(), selection)]


# -- criteria ------------------------------------------------------------------------------


def test_tags_equal_match_and_lie_in_ranges() -> None:
    assert chosen(TagEquals("Red", "Ann")) == [1, 3]
    assert chosen(TagMatches("Event", re.compile(r"20\d3$"))) == [2]
    assert chosen(TagIn("Round", "4", "20")) == [2]  # numbers, not text: "12" > "4"
    assert chosen(TagIn("Round", "3", None)) == [1, 2]
    # a date with unknown parts is the whole period
    assert chosen(TagIn("Date", "2024.01.01", "2024.12.31")) == [1]
    assert chosen(TagIn("Date", None, "2024.03.15")) == [2]  # March 2024 may end later
    assert chosen(TagIn("Date", "2023.11.01", "2024.03.31")) == [1, 2]


def test_result_turns_numbers() -> None:
    assert chosen(ResultIs(frozenset({"*"}))) == [1, 2, 3, 4]
    assert chosen(ResultIs(frozenset({"1-0"}))) == []
    assert chosen(TurnsIn(4, None)) == [1, 2]
    assert chosen(TurnsIn(None, 3)) == [3, 4]
    assert chosen(NumberIn(2, 3)) == [2, 3]


def test_valid_and_broken_by_kind_and_code() -> None:
    assert chosen(IsValid()) == [1, 2, 3]
    assert chosen(IsBroken()) == [4]
    assert chosen(IsBroken(kinds=frozenset({"syntax"}))) == [4]
    assert chosen(IsBroken(codes=frozenset({"number-wrong"}))) == [4]
    assert chosen(IsBroken(kinds=frozenset({"illegal"}))) == []


def test_moves_in_the_main_line_or_anywhere() -> None:
    assert chosen(HasMove("a1")) == [3]
    assert chosen(HasMove("b1-c1")) == []
    assert chosen(HasMove("b1-c1", anywhere=True)) == [2]
    assert chosen(HasMove("not a move")) == []


def test_positions_reached() -> None:
    (first, *_) = records()
    position = first.start_position()
    for node in first.moves[:2]:
        position.push_text(node.text)
    reached = position.position_string()
    # the fourth breaks at its third move, after passing through it
    assert chosen(ReachesPosition(reached)) == [1, 2, 4]
    start = first.start_position().position_string()
    assert chosen(ReachesPosition(start)) == [1, 2, 3, 4]  # the start counts
    assert chosen(ReachesPosition("no such position")) == []


def test_combining_any_and_invert() -> None:
    ann, valid = TagEquals("Red", "Ann"), IsValid()
    assert chosen(ann, valid) == [1, 3]
    assert chosen(TagEquals("Red", "Dee"), valid, any_of=True) == [1, 2, 3, 4]
    assert chosen(ann, invert=True) == [2, 4]
    assert chosen() == [1, 2, 3, 4]


def test_one_replay_serves_every_question() -> None:
    (record, *_) = records()
    facts = Facts(record, 1)
    assert facts.verdict.ok
    assert facts.main_moves == ["b1", "b5", "b1-b2", "b5-b4"]
    assert facts.all_moves == {"b1", "b5", "b1-b2", "b5-b4"}


def test_ranges_parse() -> None:
    assert parse_range("3..9") == ("3", "9")
    assert parse_range("3..") == ("3", None)
    assert parse_range("..9") == (None, "9")
    assert parse_range("7") == ("7", "7")
    for bad in ("..", "", "1..2..3"):
        with pytest.raises(ValueError):
            parse_range(bad)


# -- duplicates and splitting ------------------------------------------------------------------


def test_the_same_game_is_the_same_whatever_its_tags_comments_and_variations() -> None:
    first, second, third, _ = records()
    assert dedup_key(first) == dedup_key(second)
    assert dedup_key(first) != dedup_key(third)
    dropped: list[tuple[int, int]] = []
    kept = dedup(records(), on_duplicate=lambda r, first: dropped.append((r.index, first)))
    assert [r.index for r in kept] == [1, 3, 4]
    assert dropped == [(2, 1)]


def test_two_copies_of_a_broken_record_are_duplicates() -> None:
    broken = records()[3]
    assert dedup_key(broken) == dedup_key(records()[3])
    assert [r.index for r in dedup([broken, records()[3]])] == [4]


def test_split_keys() -> None:
    record = records()[0]
    assert [split_key(record, n, 2, None) for n in (1, 2, 3)] == ["1", "1", "2"]
    assert split_key(record, 1, None, "Red") == "Ann"
    assert split_key(record, 1, None, "Nothing") == "unknown"
    record.set_tag("Event", "../../etc/passwd")
    assert split_key(record, 1, None, "Event") == "etc_passwd"
    with pytest.raises(MisuseError):
        split_key(record, 1, None, None)


# -- the commands ---------------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout_bytes.decode(), result.stderr_bytes.decode()


@pytest.fixture
def games_file(tmp_path: Path) -> Path:
    # \r\n line ends and a Latin letter: kept records must come out byte for byte
    path = tmp_path / "games.txt"
    path.write_bytes(GAMES.replace("Ann", "Anné").encode().replace(b"\n", b"\r\n"))
    return path


def test_select_writes_kept_records_byte_for_byte(games_file: Path) -> None:
    code, out, err = run("select", str(games_file), "--tag-match", "Red=^Ann")
    assert code == 0, err
    raw = [r.raw for r in read_file(games_file, keep_raw=True)]
    assert raw[0] is not None and raw[2] is not None
    # the blank line between records has the records' own line end
    assert out.encode() == (raw[0] + "\r\n" + raw[2]).encode()
    assert "kept 2 of 4 records" in err


def test_select_and_its_inverse_share_out_every_record(games_file: Path) -> None:
    _, kept, _ = run("select", str(games_file), "--valid", "-q")
    _, rest, _ = run("select", str(games_file), "--valid", "--invert", "-q")
    for record in read_file(games_file, keep_raw=True):
        assert record.raw is not None
        assert (record.raw in kept) != (record.raw in rest)


def test_select_converts_and_counts(games_file: Path) -> None:
    code, out, _ = run("select", str(games_file), "--move", "b1-c1", "--anywhere", "--to", "json")
    assert code == 0
    (line,) = out.splitlines()
    assert ["Red", "Bob"] in json.loads(line)["tags"]
    code, out, _ = run("select", str(games_file), "--error", "number-wrong", "--count")
    assert (code, out) == (0, "1\n")


def test_select_reads_json_and_writes_its_lines_as_they_were(games_file: Path) -> None:
    _, jsonl, _ = run("convert", str(games_file), "--to", "json")
    code, out, _ = run("select", "-", "--tag", "Red=Bob", stdin=jsonl)
    assert code == 0
    assert out == jsonl.splitlines(keepends=True)[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tag", "Red"], "NAME=VALUE"),
        (["--tag-match", "Red=("], "not a regular expression"),
        (["--turns", "a..b"], "not a range"),
        (["--valid", "--broken"], "do not go together"),
    ],
)
def test_select_usage_errors_say_what_is_wrong(
    games_file: Path, args: list[str], message: str
) -> None:
    code, _, err = run("select", str(games_file), *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_dedup_keeps_the_first_and_can_write_the_others(games_file: Path, tmp_path: Path) -> None:
    dups = tmp_path / "dups.txt"
    code, out, err = run("dedup", str(games_file), str(games_file), "-d", str(dups))
    assert code == 0
    raw = [r.raw for r in read_file(games_file, keep_raw=True)]
    assert all(r is not None for r in raw)
    assert [r for r in raw if r is not None and r in out] == [raw[0], raw[2], raw[3]]
    dropped = dups.read_bytes().decode()
    assert dropped.count("[Game") == 5  # the second game, then every record again
    assert "dropped 5 duplicates" in err


def test_split_every_n_and_by_tag_loses_and_changes_nothing(
    games_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, _, err = run("split", str(games_file), "--every", "3", "-d", str(out))
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["games-001.txt", "games-002.txt"]
    raw = [r.raw for r in read_file(games_file, keep_raw=True)]
    parts = [read_file(p, keep_raw=True) for p in sorted(out.iterdir())]
    assert [r.raw for part in parts for r in part] == raw
    code, _, _ = run("split", str(games_file), "-t", "Red", "-d", str(out), "-p", "{tag}.txt")
    assert code == 0
    assert {p.name for p in out.iterdir()} >= {"Anné.txt", "Bob.txt", "Dee.txt"}
    assert [r.raw for r in read_file(out / "Anné.txt", keep_raw=True)] == [raw[0], raw[2]]


def test_split_refuses_to_replace_files_and_leaves_nothing_half_written(
    games_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games-002.txt").write_text("mine\n")
    code, _, err = run("split", str(games_file), "--every", "2", "-d", str(out))
    assert code == 2 and "exists" in err
    assert sorted(p.name for p in out.iterdir()) == ["games-002.txt"]  # no temporary left
    assert (out / "games-002.txt").read_text() == "mine\n"
    code, _, _ = run("split", str(games_file), "--every", "2", "-d", str(out), "--force")
    assert code == 0 and "[Game" in (out / "games-002.txt").read_text()


@pytest.mark.parametrize(
    "args", [[], ["--every", "2", "--by-tag", "Red"], ["--every", "2", "-p", "x.txt"],
             ["--every", "2", "-p", "{nope}.txt"], ["--every", "2", "-p", "{n:zz}.txt"]]
)
def test_split_usage_errors(games_file: Path, args: list[str]) -> None:
    code, _, err = run("split", str(games_file), *args)
    assert code == 2 and "Traceback" not in err


def test_a_long_selection_shows_its_progress_on_a_terminal(
    games_file: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Standard error a terminal, the records going to a file: a bar on standard error,
    which never reaches the output."""
    import notation.commands._collection as collection
    import notation.commands.common as common

    monkeypatch.setattr(common, "PROGRESS_MIN_BYTES", 0)
    monkeypatch.setattr(common, "is_terminal", lambda stream: True)  # standard error
    monkeypatch.setattr(collection, "is_terminal", lambda stream: False)  # standard output
    out = tmp_path / "kept.txt"
    code, _, err = run("select", str(games_file), "--valid", "-o", str(out))
    assert code == 0 and "selecting" in err
    assert "selecting" not in out.read_text()
    monkeypatch.setattr(collection, "is_terminal", lambda stream: True)  # output shown
    code, _, err = run("select", str(games_file), "--valid")
    assert code == 0 and "selecting" not in err


def test_split_names_files_after_the_input_without_its_suffixes(tmp_path: Path) -> None:
    import gzip

    packed = tmp_path / "club.ugn.gz"
    packed.write_bytes(gzip.compress(GAMES.encode()))
    code, _, _ = run("split", str(packed), "--every", "2", "-d", str(tmp_path / "out"))
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["club-001.txt", "club-002.txt"]


def test_seen_remembers_many_games_as_machine_integers() -> None:
    """The table grows as games come (Python ints would cost 100 bytes a game)."""
    from notation.collections.operations import Seen

    seen = Seen()
    keys = [(i * 2654435761) % (1 << 62) + 1 for i in range(20_000)]
    assert all(seen._first(key, place) is None for place, key in enumerate(keys, 1))
    assert len(seen) == 20_000 and seen._size >= 20_000 * 4 // 3
    assert [seen._first(key, 0) for key in keys[:5]] == [1, 2, 3, 4, 5]
    assert seen._hashes.itemsize == 8 and seen._places.itemsize == 4
