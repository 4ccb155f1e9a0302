"""The fast description functions agree with straightforward reference versions.

``convert --to json`` and ``annotate`` ask a game's description of every position
(docs/performance.md, "convert and annotate"), so those functions were made cheap:
Tinkertown's ``last_move_facts`` and ``annotations`` read the history entry directly
and take their pairs from caches, Zombie Kidz's annotations come from a cache by the
board, Cave's board view takes the cells of occupied
squares from a cache by their contents, and the JSON writer puts each record's line
together from cached texts of moves and facts.  Here each is compared with a plain
version kept in this file (the code as it was before), over random positions of
random games reached by random pushes *and pops* (the caches must not outlive the
moves they describe), and random records with comments, glyphs and suffixes.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.formats import convert, jsontext
from notation.formats.convert import record_to_json
from notation.games import get_game
from notation.games.cave import describe as cave_describe
from notation.games.cave.moves import Attack, Enter
from notation.games.tinkertown import describe as tt_describe
from notation.games.tinkertown import rules as tt_rules
from notation.games.tinkertown.board import (
    COLOURS,
    GRAVES,
    MOVEMENT,
    PATHS,
    SIDE_NAMES,
    SQUARE_NAMES,
)
from notation.games.tinkertown.moves import Move, Resurrection
from notation.games.zombie_kidz import describe as zk_describe
from notation.games.zombie_kidz.board import ZONE_NAMES
from notation.reader import read_string
from notation.record import Comment
from notation.replay import check_record
from notation.writer import write_record
from tests.test_canonical_last import CanonicalSpellings

# -- reference versions -----------------------------------------------------------


def _reference_landing(position: Any) -> tuple[int, str, int]:
    move, changes, _tomb, _movement, _white, _red = position._history[-1]
    if isinstance(move, Move):
        (_origin, group), (square, before) = changes
        path = PATHS[move.origin * 64 + move.target]
        assert path is not None
        return square, before + group[-len(path) :], len(path)
    ((square, before),) = changes
    return square, before + COLOURS[1 - position._to_move], 1


def _reference_last_move_facts(position: Any) -> dict[str, Any]:
    if not position._history:
        return {}
    move, _changes, tomb, movement, _white, _red = position._history[-1]
    side = SIDE_NAMES[1 - position._to_move]
    facts: dict[str, Any] = {}
    above = False
    if not movement:
        if isinstance(move, Resurrection):
            facts.update(action="resurrection", side=side, zombies=2)
        else:
            facts.update(action="placement", side=side, zombies=1)
        facts["captured"] = False
    else:
        square, landed, count = _reference_landing(position)
        action = "move" if isinstance(move, Move) else "entry"
        facts.update(action=action, side=side, zombies=count)
        facts["captured"] = tomb >= 0
        if tomb >= 0:
            facts["removed"] = {"white": landed.count("w"), "red": landed.count("r")}
        else:
            above = tt_rules.captures(position._stacks[square], position._capacity[square])
    facts["tombstone"] = SQUARE_NAMES[tomb] if tomb >= 0 else None
    facts["above_capacity"] = above
    facts["stage_over"] = not movement and position._movement
    facts["winner"] = SIDE_NAMES[position._winner] if position._winner >= 0 else None
    return facts


def _reference_annotations(position: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if position._history:
        _move, _changes, tomb, movement, _white, _red = position._history[-1]
        if tomb >= 0:
            landed = _reference_landing(position)[1]
            out.append(
                ("capture", f"{SQUARE_NAMES[tomb]} {landed.count('w')}w {landed.count('r')}r")
            )
        if not movement and position._movement:
            out.append(("stage", MOVEMENT))
    if position._movement:
        # Looked for on the whole board, not through the position's own cache.
        over = [
            sq for sq in GRAVES if tt_rules.captures(position._stacks[sq], position._capacity[sq])
        ]
        if over:
            out.append(("over", " ".join(SQUARE_NAMES[sq] for sq in over)))
        white, red = position._controlled
        out.append(("control", f"W{white} R{red}"))
    return out


def _reference_zombie_kidz_annotations(position: Any) -> list[tuple[str, str]]:
    zones = [f"{ZONE_NAMES[z]}:{n}" for z, n in enumerate(position._zombies) if n]
    notes = [("zombies", " ".join(zones) or "-"), ("reserve", str(position.reserve))]
    if position._locked:
        notes.append(("locks", " ".join(position.locked_gates)))
    return notes


def _reference_cave_annotations(position: Any) -> list[tuple[str, str]]:
    """Cave's annotations as they were written first: the letters of every square
    holding a piece never shown, each side's found again for each square."""
    if not position._history:
        return []
    move = position._history[-1][0]
    notes: list[tuple[str, str]] = []
    if isinstance(move, Attack):
        revealed = cave_describe._revealed(position)
        if revealed:
            notes.append(("reveal", " ".join(f"{sq}:{letter}" for sq, letter in revealed)))
        board, identity = position._board, position._identity
        hidden = [
            (sq, position._hidden_letters(cave_describe.PIECE_SIDE[board[sq][0]]))
            for sq in range(len(board))
            if any(identity[p] < 0 for p in board[sq])
        ]
        narrowed = [
            f"{cave_describe.SQUARES[sq]}:{''.join(letters)}"
            for sq, letters in hidden
            if len(letters) < len(cave_describe.LETTERS)
        ]
        if narrowed:
            notes.append(("possible", " ".join(narrowed)))
    elif isinstance(move, Enter):
        red, black = position.reserves
        notes.append(("reserve", f"R{red} B{black}"))
    return notes


def _random_walk(game_name: str, seed: int, steps: int, tags: dict[str, str] | None = None) -> None:
    """Random pushes and pops (a pop one time in five) on one position, checked after
    each step: the same position object, so that caches across pushes are tested."""
    rng = random.Random(seed)
    position = get_game(game_name).new_position(tags)
    _check_position(game_name, position)
    for _ in range(steps):
        moves = position.legal_moves()
        if position.turn and (not moves or rng.random() < 0.2):
            position.pop()
        elif moves:
            position.push(rng.choice(moves))
        else:
            break
        _check_position(game_name, position)


def _check_position(game_name: str, position: Any) -> None:
    if game_name == "tinkertown":
        assert tt_describe.last_move_facts(position) == _reference_last_move_facts(position)
        # Key order is part of the JSON text.
        assert list(tt_describe.last_move_facts(position)) == list(
            _reference_last_move_facts(position)
        )
        assert tt_describe.annotations(position) == _reference_annotations(position)
    elif game_name == "zombie-kidz":
        assert zk_describe.annotations(position) == _reference_zombie_kidz_annotations(position)
    elif game_name == "cave":
        assert cave_describe.annotations(position) == _reference_cave_annotations(position)
        view = cave_describe.board_view(position)
        odds = cave_describe._odds_texts(position)
        for sq, stack in enumerate(position._board):
            cell = view.cells[cave_describe.SQUARES[sq]]
            if not stack:
                assert cell == cave_describe._EMPTY_CELLS[sq]
                continue
            hidden = sum(1 for p in stack if position._identity[p] < 0)
            side = cave_describe.PIECE_SIDE[stack[0]]
            reference = cave_describe._make_unit_cell(position, sq, stack, hidden, odds[side])
            assert cell == reference


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_tinkertown_facts_and_annotations(seed: int) -> None:
    _random_walk("tinkertown", seed, 400)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_zombie_kidz_annotations(seed: int, players: int) -> None:
    _random_walk("zombie-kidz", seed, 300, {"Players": str(players)})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cave_board_view_cells_and_annotations(seed: int) -> None:
    _random_walk("cave", seed, 200)


# -- the JSON line --------------------------------------------------------------------


def _random_record(game_name: str, rng: random.Random) -> str:
    position = get_game(game_name).new_position()
    texts: list[str] = []
    for _ in range(rng.randrange(0, 120)):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        position.push(move)
        texts.append(str(position.last_move_canonical()))
    outcome = position.outcome() or "*"
    return f'[Game "{game_name}"]\n[Result "{outcome}"]\n\n' + " ".join(texts) + f" {outcome}\n"


def _decorate(record: Any, rng: random.Random) -> None:
    """Comments, glyphs and suffixes here and there."""
    for node in record.moves:
        roll = rng.random()
        if roll < 0.1:
            node.comments_after.append(Comment("a note \u00e9 \"quoted\"", braced=True))
        elif roll < 0.15:
            node.comments_before.append(Comment("before"))
        elif roll < 0.2:
            node.suffix = "!?"
        elif roll < 0.25:
            node.nags.append(rng.randrange(1, 20))
    if rng.random() < 0.3:
        record.comments.append(Comment("game comment"))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    game_name=st.sampled_from(["tinkertown", "cave", "zombie-kidz"]),
)
def test_json_line_is_the_encoded_object(seed: int, game_name: str) -> None:
    rng = random.Random(seed)
    text = _random_record(game_name, rng)
    if rng.random() < 0.5:
        record = read_string(text)[0]
        _decorate(record, rng)
        text = write_record(record)
    record = read_string(text)[0]
    game = get_game(game_name)
    collector = CanonicalSpellings(game, True)
    verdict = check_record(record, None, collector)
    assert verdict.ok
    view = replace(record, tags=convert.ordered_tags(record, game))
    obj = record_to_json(view, game, collector.data, texts=collector.texts)
    obj["ok"] = True
    obj["error"] = None
    line = convert.convert_record(record, "json").text
    assert jsontext.loads(line) == obj
    assert jsontext.dumps(obj) + "\n" == line
    # Twice: the second time from the caches.
    assert convert.convert_record(record, "json").text == line


# -- annotate: old commands are stripped wherever they are -------------------------


def test_annotate_strips_old_commands_in_every_place() -> None:
    """``annotate`` skips its strip pass when nothing but its own comments is in the
    record: an old command anywhere (a move's comment, the record's, a variation's)
    must still be replaced, so annotating twice gives the same text."""
    from notation.formats.annotate import annotate_record

    rng = random.Random(7)
    text = _random_record("tinkertown", rng)
    once = annotate_record(read_string(text)[0]).text
    assert annotate_record(read_string(once)[0]).text == once
    head, _, movetext = text.partition("\n\n")
    for variant in (
        f"{head}\n\n{{[%control W9 R9]}} {movetext}",  # before the first move
        f"{head}\n\n{movetext.rstrip()[:-len(movetext.split()[-1])]}"
        f"{{[%control W9 R9]}} {movetext.split()[-1]}\n",  # before the result
    ):
        result = annotate_record(read_string(variant)[0]).text
        assert "W9 R9" not in result
