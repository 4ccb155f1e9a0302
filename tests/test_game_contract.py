"""The contract every game keeps, checked over every registered game and a fourth one.

The fourth game, Grave Nim (``tests/fourth_game``), is kept out of the package: the
tests publish it under the ``notation.games`` entry points, as another distribution
would, and it passes the same checks and every command with no change to shared code.

For positions reached by random playouts (the game's own ``random_playout``):

- legal moves generated = moves accepted: every legal move round-trips through
  ``str``/``parse`` and pushes; a move of other positions that is not legal here is
  refused with ``IllegalMoveError``, the position unchanged (or, a lenient spelling,
  accepted as a move that ``canonical`` turns into a listed one, and that
  ``push_text`` plays as that one), and ``check`` and ``is_legal`` agree: a move is
  its spelling, and ``is_legal(m)`` is ``canonical(m) in legal_moves()``;
- push/pop restores the position string, the turn and the legal moves;
- position strings round-trip, with the same legal moves and outcome;
- board views are complete: a cell for every square of the grid, a colour for every
  role drawn, marks and paths on the board, JSON-ready;
- every generated game checks, and reads back from its text;
- errors are the library's own: misuse raises ``MisuseError``, bad text
  ``MoveSyntaxError`` or ``TagValueError``, never ``TypeError``, ``KeyError``...
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fourth_game import GAME as GRAVE_NIM
from fourth_game.published import published
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.cli import cli
from notation.collections.generate import generate_records
from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games import Game, all_games, get_game
from notation.games.base import Position
from notation.games.view import PILE, SPREAD, BoardView
from notation.reader import read_string
from notation.render.html import record_data
from notation.render.svg import board_svg
from notation.replay import check_record
from notation.writer import write_record

GAMES: list[Game[Any]] = [*all_games(), GRAVE_NIM]
IDS = [game.name for game in GAMES]
#: Playouts per game (the positions of each are checked), and how long they may be.
PLAYOUTS = 4
MAX_TURNS = 120
COLOUR = re.compile("#[0-9a-fA-F]{6}")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True, scope="module")
def fourth_game_registered() -> Iterator[None]:
    """Grave Nim registered for the tests of this module, through the registry's own
    discovery (the entry points it reads), and forgotten afterwards."""
    with published():
        yield


def test_the_fourth_game_is_registered_only_here() -> None:
    assert get_game("grave-nim") is GRAVE_NIM and get_game("GraveNim") is GRAVE_NIM
    assert GRAVE_NIM in all_games()
    assert GRAVE_NIM not in GAMES[:-1]  # not a game of the package


# -- positions reached by random playouts -------------------------------------------


def setup(game: Game[Any], seed: int) -> dict[str, str]:
    """Setup tags for a playout: each number of players the game is played by, in turn."""
    fewest, most = game.player_range()
    return dict(game.setup_tags(fewest + seed % (most - fewest + 1) if most else None))


@cache
def playout(game: Game[Any], seed: int) -> tuple[dict[str, str], tuple[Any, ...]]:
    """The setup and the moves of one random game (the game's own playout)."""
    tags = setup(game, seed)
    moves = game.random_playout(game.new_position(tags), random.Random(seed), MAX_TURNS)
    return tags, tuple(moves)


def positions(game: Game[Any], seed: int) -> Iterator[Position[Any]]:
    """Each position of a playout, the same object moved on after each is checked."""
    tags, moves = playout(game, seed)
    position = game.new_position(tags)
    yield position
    for move in moves:
        position.push(move)
        yield position


@cache
def move_pool(game: Game[Any]) -> tuple[Any, ...]:
    """Well-formed moves of the game: those legal somewhere in its playouts."""
    seen: dict[str, Any] = {}
    for seed in range(PLAYOUTS):
        for position in positions(game, seed):
            for move in position.legal_moves():
                seen.setdefault(str(move), move)
    return tuple(seen[text] for text in sorted(seen))


def state(position: Position[Any]) -> tuple[str, int, str | None, list[str]]:
    return (
        position.position_string(),
        position.turn,
        position.outcome(),
        sorted(map(str, position.legal_moves())),
    )


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_legal_moves_generated_are_the_moves_accepted(game: Game[Any]) -> None:
    pool = move_pool(game)
    sampler = random.Random(game.name)
    for seed in range(PLAYOUTS):
        for position in positions(game, seed):
            before = state(position)
            legal = position.legal_moves()
            if position.outcome() is not None:
                assert legal == []
            texts = {str(move) for move in legal}
            assert len(texts) == len(legal), "a legal move listed twice"
            for move in legal:
                assert game.parse(str(move)) == move
                assert position.canonical(move) == move
                assert position.check(move) is None and position.is_legal(move)
                position.push(move)
                assert position.turn == before[1] + 1
                assert position.pop() == move
                assert position.position_string() == before[0]
            assert state(position) == before
            others = [move for move in pool if str(move) not in texts]
            for move in sampler.sample(others, min(len(others), 12)):
                reason = position.check(move)
                try:
                    position.push(move)
                except IllegalMoveError as exc:
                    assert reason == str(exc)
                    assert not position.is_legal(move)
                    assert state(position) == before
                    continue
                # Accepted: a lenient spelling (a mark left out) of a legal move.  The one
                # equality (docs/library.md, "Positions"): a move is its spelling, the list
                # holds canonical spellings, and is_legal(m) is canonical(m) in legal_moves().
                assert reason is None
                assert str(position.pop()) == str(move)
                assert position.is_legal(move)
                canonical = position.canonical(move)
                assert canonical in legal and canonical != move, f"{move} accepted, not listed"
                assert move not in legal
                assert position.push_text(str(move)) == canonical  # play by text: canonical
                assert position.pop() == canonical
                assert state(position) == before


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_push_and_pop_restore_the_position(game: Game[Any]) -> None:
    for seed in range(PLAYOUTS):
        tags, moves = playout(game, seed)
        position = game.new_position(tags)
        start = state(position)
        seen = [start]
        for move in moves:
            position.push(move)
            seen.append(state(position))
        copy = position.copy()
        for expected in reversed(seen[:-1]):
            position.pop()
            assert state(position) == expected
        with pytest.raises(MisuseError):
            position.pop()
        assert state(copy) == seen[-1]  # the copy is independent of its original
        for move in reversed(moves):
            assert copy.pop() == move


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_position_strings_round_trip(game: Game[Any]) -> None:
    for seed in range(PLAYOUTS):
        tags = setup(game, seed)
        for position in positions(game, seed):
            text = position.position_string()
            assert isinstance(text, str) and "\n" not in text
            for again in (
                game.position_from_string(text, tags),
                game.new_position({**tags, "Position": text}),
            ):
                assert state(again) == state(position)
                assert again.mover == position.mover


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_positions_describe_themselves_as_the_protocol_says(game: Game[Any]) -> None:
    for position in positions(game, 0):
        annotations = position.annotations()
        for key, value in annotations:
            assert key in game.annotation_keys
            assert not set(value) & set("]{}")
        json.dumps(position.last_move_facts())
        for move in position.legal_moves()[:20]:
            json.dumps(game.move_to_dict(move))
        assert position.diagram().strip()
        assert position.mover
        # The caption of the last move, said for less than a whole board view.
        assert position.caption() == position.board_view().caption


# -- board views ----------------------------------------------------------------------


def assert_complete(view: BoardView) -> None:
    """Everything the renderers need is in the view, and nothing off the board."""
    assert view.files and view.ranks
    assert len(set(view.files)) == len(view.files) and len(set(view.ranks)) == len(view.ranks)
    grid = {file + rank for file in view.files for rank in view.ranks}
    assert len(grid) == len(view.files) * len(view.ranks), "two squares share a name"
    assert set(view.cells) == grid, "a square of the grid without a cell, or one off it"
    roles: set[str] = set()
    for name, cell in view.cells.items():
        assert cell.square == name
        if cell.role != "off":
            roles.add(cell.role)
            roles.update(token.role for token in cell.tokens)
    missing = roles - set(view.palette)
    assert not missing, f"roles drawn without a colour: {sorted(missing)}"
    for role, colour in view.palette.items():
        assert COLOUR.fullmatch(colour), f"{role}: {colour!r} is not #rrggbb"
    assert set(view.marks) <= grid
    assert {square for link in view.links for square in link} <= grid
    assert all(key and isinstance(value, str) for key, value in view.facts)
    assert view.token_layout in (PILE, SPREAD)
    assert json.loads(json.dumps(view.to_dict())) == view.to_dict()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_board_views_are_complete(game: Game[Any]) -> None:
    for seed in range(PLAYOUTS):
        for number, position in enumerate(positions(game, seed)):
            view = position.board_view()
            assert_complete(view)
            if number % 10 == 0:
                root = ET.fromstring(board_svg(view))
                drawn = root.findall(f".//{SVG}rect[@class='cell']")
                assert len(drawn) == sum(c.role != "off" for c in view.cells.values())


def test_the_renderers_take_the_token_layout_from_the_view() -> None:
    # Three cells in a row: a board that small used to be drawn as zones of figures.
    position = GRAVE_NIM.new_position()
    view = position.board_view()
    assert view.token_layout == PILE
    root = ET.fromstring(board_svg(view))
    tokens = root.findall(f".//{SVG}g[@class='token']")
    assert len(tokens) == 12
    assert all(t.find(f"{SVG}rect") is not None and t.find(f"{SVG}circle") is None for t in tokens)
    record = read_string('[Game "grave-nim"]\n\nb2 *\n')[0]
    data = record_data(record).data
    assert "token_layout" not in data["frames"][0]  # the default: the viewer piles


# -- generated games --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_generated_game_checks(game: Game[Any]) -> None:
    fewest, most = game.player_range()
    for players in sorted({fewest, most}):
        for record, _ in generate_records(game.name, 3, seed=players, players=players or None):
            verdict = check_record(record)
            assert verdict.ok, verdict.error
            assert record.result == verdict.outcome or record.result == "*"
            (again,) = read_string(write_record(record))
            assert check_record(again).ok


# -- errors are the library's own -------------------------------------------------------

#: Objects that are no move of any game.
NOT_MOVES: list[object] = [None, "b2", 0, 1.5, object(), ()]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_what_is_not_a_move_is_misuse_and_changes_nothing(game: Game[Any]) -> None:
    others = [move_pool(other)[0] for other in GAMES if other is not game]
    for position in (game.new_position(setup(game, 0)), *list(positions(game, 1))[1:4]):
        before = state(position)
        for thing in [*NOT_MOVES, *others]:
            for call in (position.push, position.check, position.is_legal, position.canonical):
                with pytest.raises(MisuseError):
                    call(thing)
                assert state(position) == before
            with pytest.raises(MisuseError):
                game.move_to_dict(thing)
    with pytest.raises(MisuseError):
        game.new_position(setup(game, 0)).pop()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_parse_refuses_what_is_not_text_as_misuse(game: Game[Any]) -> None:
    for thing in (None, 5, b"b2"):
        with pytest.raises(MisuseError):
            game.parse(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_position_from_string_refuses_what_is_not_text_as_misuse(game: Game[Any]) -> None:
    for thing in (None, 5):
        with pytest.raises(MisuseError):
            game.position_from_string(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=24) | st.sampled_from(["", " ", "--", "a1", "B2", "b2x", "K:b2"]))
def test_any_text_is_a_move_or_a_syntax_error(game: Game[Any], text: str) -> None:
    try:
        move = game.parse(text)
    except MoveSyntaxError:
        return
    assert game.parse(str(move)) == move  # what it wrote reads back as the same move


def _position_texts(game: Game[Any]) -> st.SearchStrategy[str]:
    """Position strings of the game, mutated, and any text."""
    tags, moves = playout(game, 0)
    position = game.new_position(tags)
    texts = [position.position_string()]
    for move in moves[:30]:
        position.push(move)
        texts.append(position.position_string())
    real = st.sampled_from(texts)
    mutated = st.builds(
        lambda text, at, piece: text[:at] + piece + text[at + 1:],
        real, st.integers(0, 60), st.text(max_size=3),
    )
    return real | mutated | st.text(max_size=40)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_any_text_is_a_position_or_a_tag_value_error(game: Game[Any]) -> None:
    @settings(max_examples=60, deadline=None)
    @given(text=_position_texts(game))
    def check(text: str) -> None:
        try:
            position = game.position_from_string(text)
        except TagValueError as exc:
            assert exc.tag == "Position"
            return
        text = position.position_string()  # it may read a non-canonical spelling
        assert state(game.position_from_string(text)) == state(position)

    check()


# -- every command ----------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_command_works_for_the_game(game: Game[Any], tmp_path: Path) -> None:
    records = tmp_path / "games.txt"
    code, _ = run(
        "generate", "--game", game.name, "--games", "2", "--seed", "3", "--max-turns", "40",
        "-o", str(records),
    )
    assert code == 0
    text = records.read_text(encoding="utf-8")
    assert text.count(f'[Game "{game.name}"]') == 2
    name = str(records)

    assert run("check", "--jobs", "1", name)[0] == 0
    assert run("check", "--jobs", "1", "--strict", "--format", "json", name)[0] == 0
    code, shown = run("show", name, "--record", "2")
    assert code == 0 and shown.strip()
    assert run("show", name, "--turn", "1", "--ascii")[0] == 0
    # Not on a terminal, replay prints what show prints.
    assert run("replay", name, "--record", "2") == (0, shown)

    code, svg = run("diagram", name, "--turn", "3")
    assert code == 0
    root = ET.fromstring(svg)
    assert root.findall(f".//{SVG}rect[@class='cell']")
    page = tmp_path / "page.html"
    assert run("html", name, "-o", str(page))[0] == 0
    assert f'"game":"{game.name}"' in page.read_text(encoding="utf-8")

    code, canonical = run("convert", "--to", "text", name)
    assert code == 0 and canonical.count("[Game ") == 2
    assert run("convert", "--to", "text", "-", stdin=canonical) == (0, canonical)
    code, lines = run("convert", "--to", "json", name)
    assert code == 0 and len(lines.splitlines()) == 2
    assert run("convert", "--to", "text", "-", stdin=lines) == (0, canonical)
    code, plain = run("convert", "--to", "plain", name)
    assert code == 0
    assert all(check_record(record).ok for record in read_string(plain))

    code, annotated = run("annotate", name)
    assert code == 0
    assert [check_record(record).ok for record in read_string(annotated)] == [True, True]
    if game.annotation_keys:
        assert "[%" in annotated
    assert run("check", "--jobs", "1", "-", stdin=annotated)[0] == 0


def test_the_fourth_game_is_listed_and_named_by_its_alias(tmp_path: Path) -> None:
    code, listing = run("games")
    assert code == 0 and "grave-nim" in listing
    untagged = tmp_path / "untagged.txt"
    untagged.write_text("1. b2 a3 2. C5 b1 *\n", encoding="utf-8")
    assert run("check", "--jobs", "1", "--game", "GraveNim", str(untagged))[0] == 0
    code, out = run("check", "--jobs", "1", "--strict", "--game", "grave-nim", str(untagged))
    assert code == 1 and "write c5: letters in the wrong case (C5)" in out
    untagged.write_text("1. b5 *\n", encoding="utf-8")
    code, out = run("check", "--jobs", "1", "--game", "gravenim", str(untagged))
    assert code == 1 and "grave b holds 4 zombies" in out
