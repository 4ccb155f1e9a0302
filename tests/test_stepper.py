"""The replay viewer's state, driven without any screen."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from notation.errors import ErrorKind, MisuseError
from notation.games import get_game
from notation.reader import read_file, read_string
from notation.record import Record
from notation.stepper import Stepper, StepperError

RECORDS = Path(__file__).resolve().parent.parent / "records"

# A Tinkertown record with a variation inside a variation.
NESTED = """[Game "tinkertown"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7 {nested}) 2... c6,h3)
2. c5,f2 e2,g5 *
"""


def record_at(path: Path, number: int) -> Record:
    return next(r for r in read_file(path) if r.index == number)


def fresh(game_name: str, moves: Iterable[str]) -> str:
    """The position string after ``moves`` from the start, replayed from scratch."""
    game = get_game(game_name)
    position = game.new_position()
    for text in moves:
        position.push(game.parse(text))
    return position.position_string()


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_forward_back_and_both_ends(game: str) -> None:
    record = record_at(RECORDS / game / "examples.ugn", 1)
    stepper = Stepper(record)
    start = stepper.cursor.position.position_string()
    assert stepper.cursor.at_start and stepper.cursor.last_node is None and not stepper.back()
    stepper.to_end()
    assert (
        stepper.cursor.at_end and
        stepper.cursor.turn == stepper.verdict.turns == len(record.moves)
    )
    assert not stepper.forward() and stepper.cursor.defect is None
    assert stepper.back() and stepper.cursor.turn == len(record.moves) - 1
    assert stepper.forward() and stepper.cursor.last_node is record.moves[-1]
    stepper.to_start()
    assert stepper.cursor.turn == 0 and stepper.cursor.position.position_string() == start


def test_goto_turn_matches_a_fresh_replay() -> None:
    record = record_at(RECORDS / "cave" / "examples.ugn", 1)
    stepper = Stepper(record)
    texts = [node.text for node in record.moves]
    for turn in (7, 30, 2, 0, len(texts)):
        assert stepper.goto_turn(turn)
        assert stepper.cursor.position.position_string() == fresh("cave", texts[:turn])
    assert not stepper.goto_turn(len(texts) + 5)
    assert stepper.cursor.turn == len(texts)


def test_nested_variations_enter_and_leave() -> None:
    stepper = Stepper(read_string(NESTED)[0])
    assert stepper.goto_turn(2) and stepper.where() == "main line"
    assert [v.nodes[0].text for v in stepper.variations_here()] == ["c3,g6"]
    assert not stepper.enter_variation(2)

    assert stepper.enter_variation(1)
    assert stepper.cursor.depth == 1 and stepper.cursor.turn == 2
    assert stepper.where() == "variation 1 at turn 2"
    assert stepper.cursor.position.position_string() == fresh("tinkertown", ["d3", "c3,g6"])

    assert stepper.forward() and stepper.cursor.last_node is not None
    assert stepper.cursor.last_node.text == "g5,b6"
    assert stepper.enter_variation(1)
    assert stepper.cursor.depth == 2
    assert stepper.where() == "variation 1 at turn 3, in variation 1 at turn 2"
    assert stepper.cursor.position.position_string() == (
        fresh("tinkertown", ["d3", "c3,g6", "g5,b7"])
    )
    assert stepper.line_turns()[0][0] == 3

    assert stepper.leave_variation() and stepper.cursor.depth == 1
    assert stepper.cursor.position.position_string() == fresh(
        "tinkertown", ["d3", "c3,g6", "g5,b6"]
    )
    assert stepper.leave_variation() and stepper.cursor.depth == 0
    assert stepper.cursor.position.position_string() == fresh("tinkertown", ["d3", "d2,b5"])
    assert not stepper.leave_variation()
    stepper.to_end()
    assert stepper.cursor.position.position_string() == fresh(
        "tinkertown", ["d3", "d2,b5", "c5,f2", "e2,g5"]
    )


def test_forward_and_back_return_the_node_they_play_or_take_back() -> None:
    (record,) = read_string(NESTED)
    stepper = Stepper(record)
    played = []
    while node := stepper.forward():
        played.append(node)
        assert stepper.cursor.last_node is node
    assert played == record.moves and stepper.cursor.at_end
    assert stepper.forward() is None and stepper.cursor.defect is None
    assert stepper.back() is record.moves[-1] and stepper.cursor.turn == len(record.moves) - 1
    stepper.to_start()
    assert stepper.back() is None


def test_goto_node_reaches_a_move_anywhere_in_the_tree() -> None:
    (record,) = read_string(NESTED)
    stepper = Stepper(record)
    outer = record.moves[1].variations[0]
    inner = outer.nodes[1].variations[0]
    assert stepper.goto_node(inner.nodes[0])
    assert stepper.cursor.last_node is inner.nodes[0] and stepper.cursor.depth == 2
    assert stepper.where() == "variation 1 at turn 3, in variation 1 at turn 2"
    assert stepper.cursor.position.position_string() == (
        fresh("tinkertown", ["d3", "c3,g6", "g5,b7"])
    )
    # From inside a variation to the main line, and to a later move of a variation.
    assert stepper.goto_node(record.moves[3])
    assert (
        stepper.cursor.depth == 0 and
        stepper.cursor.turn == 4 and
        stepper.cursor.last_node is record.moves[3]
    )
    assert stepper.goto_node(outer.nodes[2])
    assert stepper.where() == "variation 1 at turn 2"
    assert stepper.cursor.position.position_string() == fresh(
        "tinkertown", ["d3", "c3,g6", "g5,b6", "c6,h3"]
    )
    assert (
        stepper.goto_node(record.moves[0]) and
        stepper.cursor.turn == 1 and
        stepper.cursor.depth == 0
    )
    with pytest.raises(MisuseError, match="not a move of this record"):
        stepper.goto_node(read_string(NESTED)[0].moves[0])  # an equal node, not this one


@pytest.mark.parametrize("address", [True, 3, None, (), (1, 1), (-1,), ("1",), "1"])
def test_goto_refuses_what_is_no_address_and_stays(address: object) -> None:
    stepper = Stepper(read_string(NESTED)[0])
    assert stepper.goto((2,))
    with pytest.raises(MisuseError, match="an address is"):
        stepper.goto(address)  # type: ignore[arg-type]
    assert stepper.cursor.address == (2,)


def test_goto_node_stops_before_a_broken_move_on_the_way() -> None:
    record = record_at(RECORDS / "tinkertown" / "broken.ugn", 7)  # turn 35 (e5) is illegal
    stepper = Stepper(record)
    assert not stepper.goto_node(record.moves[-1])
    assert (
        stepper.cursor.turn == 34 and
        stepper.cursor.defect is not None and
        stepper.cursor.defect.turn == 35
    )
    assert stepper.goto_node(record.moves[33]) and stepper.cursor.defect is None
    (nested,) = read_string('[Game "tinkertown"]\n\n1. d3 d2,b5 (1... z9 2. c5) 2. c5,f2 *\n')
    stepper = Stepper(nested)
    assert not stepper.goto_node(nested.moves[1].variations[0].nodes[1])
    assert (
        stepper.cursor.depth == 1 and
        stepper.cursor.turn == 1 and
        stepper.cursor.defect is not None
    )


def test_a_broken_record_stops_at_the_bad_move() -> None:
    record = record_at(RECORDS / "tinkertown" / "broken.ugn", 7)  # turn 35 (e5) is illegal
    stepper = Stepper(record)
    assert not stepper.verdict.ok
    stepper.to_end()
    assert stepper.cursor.turn == 34 and not stepper.cursor.at_end
    error = stepper.cursor.defect
    assert error is not None
    assert (error.kind, error.turn, error.move) == (ErrorKind.ILLEGAL, 35, "e5")
    assert error.message == "e5 is the chapel, not a grave"
    assert not stepper.forward() and stepper.cursor.turn == 34  # stays, still broken
    assert not stepper.goto_turn(40) and stepper.cursor.defect is not None
    assert stepper.back() and stepper.cursor.defect is None


def test_a_syntax_error_stops_the_replay_too() -> None:
    stepper = Stepper(record_at(RECORDS / "tinkertown" / "broken.ugn", 1))
    stepper.to_end()
    assert stepper.cursor.defect is not None and stepper.cursor.defect.kind == ErrorKind.SYNTAX
    assert (stepper.cursor.turn, stepper.cursor.defect.move) == (33, "c9-d1")


def test_a_record_that_cannot_start_raises() -> None:
    with pytest.raises(StepperError, match="2, 3 or 4 players"):
        Stepper(record_at(RECORDS / "zombie-kidz" / "broken.ugn", 1))
    with pytest.raises(StepperError, match="no Game tag"):
        Stepper(read_string("1. d3 *\n")[0])
