"""A referee: bots play a game against each other, and the game becomes a record.

:func:`play` (``notation.play``) runs one game: it rolls the dice
(:meth:`Position.chance_outcomes`), deals what a game hides (:meth:`Game.deal`), shows
each bot only what its player may know (:meth:`Deal.view_for`), writes what a fight
reveals (:meth:`Deal.settle`), and returns the game as a :class:`Record`.

A bot is a function ``bot(view, legal_moves, rng) -> move`` or an object with a
method ``choose(view, legal_moves, rng) -> move`` (:class:`Bot`):

* ``view`` is the position as the bot's player may know it before its turn, an
  independent copy the bot may push and pop on;
* ``legal_moves`` are the moves it may choose from: in a game with chance, those the
  roll allows (each Zombie Kidz turn carries its die letter); in Cave, every action
  with each combination of class letters that fits what has been revealed, since
  nobody knows a hidden piece's letter (the referee writes the true ones);
* ``rng`` is the bot's own ``random.Random``, seeded from the referee's, so that a
  bot can neither predict the dice nor disturb them;
* the move returned is one of ``legal_moves``, another spelling of one (``"K:b1"``
  for ``K:b2-b1``), or its text, which the game reads.

:data:`Player` is the type of either (``notation.Player``).  It takes any game's
moves, so that a bot annotated as its author likes (``legal_moves: list[CaveMove]``)
type-checks; the referee checks the moves as the game runs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

from notation.errors import (
    IllegalMoveError,
    MisuseError,
    misuse_unless,
    require_rng,
    require_sequence,
)
from notation.games import get_game
from notation.games.base import Deal, Game, Position
from notation.record import MoveNode, Record, Tag
from notation.replay import start_position

__all__ = [
    "DEFAULT_MAX_TURNS",
    "MOVE_LIMIT_REACHED",
    "Bot",
    "BotFunction",
    "Player",
    "play",
    "random_bot",
]

#: Turns after which :func:`play` stops a game the rules have not ended (result ``*``).
DEFAULT_MAX_TURNS = 1000

#: A game's move type (as in :mod:`notation.games.base`).
M = TypeVar("M", bound=Hashable)


class Bot(Protocol):
    """A bot as an object: anything with this :meth:`choose` method plays (the move type
    is left open: a ``choose`` of ``CaveMove`` s is a ``Bot``)."""

    def choose(self, view: Position[Any], legal_moves: list[Any], rng: random.Random) -> object:
        """The move to play, one of ``legal_moves`` (or its text), seeing ``view``."""
        ...


#: A bot as a function: ``bot(view, legal_moves, rng) -> move``, like :meth:`Bot.choose`
#: (``legal_moves`` is a list; a function that takes any ``Sequence`` fits).
BotFunction: TypeAlias = Callable[[Position[Any], list[Any], random.Random], object]
#: What :func:`play` takes as a player: a :class:`Bot` or a :data:`BotFunction`.
Player: TypeAlias = Bot | BotFunction

#: The ``Termination`` tag of a game that :func:`play` stopped at its move limit.
MOVE_LIMIT_REACHED = "unfinished: move limit of {turns} turns reached"


def random_bot(view: Position[M], legal_moves: Sequence[M], rng: random.Random) -> M:
    """A bot that plays one of its legal moves at random (with its own ``rng``);
    ``MisuseError`` unless ``legal_moves`` is a sequence with a move in it and ``rng``
    a ``random.Random``.

    >>> import random
    >>> from notation.games import get_game
    >>> start = get_game("cave").new_position()
    >>> random_bot(start, list(start.legal_moves()), random.Random(3))
    Enter('b1')
    """
    misuse_unless(
        isinstance(legal_moves, Sequence)
        and not isinstance(legal_moves, (str, bytes))
        and len(legal_moves) > 0,
        "legal_moves",
        "a sequence of one move or more",
        legal_moves,
    )
    require_rng(rng)
    return rng.choice(legal_moves)


def play(
    game: Game[Any] | str,
    players: Sequence[Player],
    rng: random.Random | None = None,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    tags: Mapping[str, str] | Sequence[tuple[str, str]] = (),
) -> Record:
    """Play one game of ``game`` (a :class:`Game` or its name) between ``players``, in
    turn order, and return it as a record.

    ``rng`` rolls the dice, deals the hidden information and seeds each bot's own
    generator, so one seed replays the same game.  The record's tags are ``Game``, the
    players' names (a bot's ``name``, else its function or class name), the game's
    setup, then ``tags`` (which may replace any of them; a ``Position`` tag sets the
    start), and ``Result``: the rules' result, or ``*`` after ``max_turns`` turns, and
    then a ``Termination`` tag (:data:`MOVE_LIMIT_REACHED`, unless ``tags`` gave one).
    Moves are written in their canonical text.

    ``TagValueError`` for a number of players or a tag the game cannot accept;
    ``MisuseError`` for an argument of the wrong type, or when a bot returns a move
    that is not one of its legal moves.

    Two random bots play six turns of Cave; the seed replays the same game, and the
    tags say who played and why it stopped:

    >>> import random
    >>> record = play("cave", [random_bot, random_bot], random.Random(1), max_turns=6)
    >>> [node.text for node in record.moves]
    ['a1', 'b5', 'd1', 'a5', 'c1', 'b5-b4']
    >>> record.tag("Red"), record.result, record.tag("Termination")
    ('random_bot', '*', 'unfinished: move limit of 6 turns reached')
    """
    if not isinstance(game, Game):
        game = get_game(game)  # a name, or MisuseError for what is neither
    if type(max_turns) is not int or max_turns < 0:
        raise MisuseError(f"max_turns is a whole number >= 0, not {max_turns!r}")
    require_sequence(players, "players", "bots")
    misuse_unless(
        rng is None or isinstance(rng, random.Random), "rng", "a random.Random or None", rng
    )
    players = list(players)
    for bot in players:
        if not callable(bot) and not callable(getattr(bot, "choose", None)):
            raise MisuseError(
                f"{bot!r} is no bot: a bot is a function (view, legal_moves, rng) -> move "
                "or has a method choose(view, legal_moves, rng)"
            )
    record_tags = _tags(game, players, tags)
    position = start_position(game, {tag.name: tag.value for tag in record_tags})
    rng = rng if rng is not None else random.Random()
    # Separate generators: a bot cannot read the dice to come from its own, and the
    # dice do not depend on how many numbers a bot draws.
    chance = random.Random(rng.getrandbits(64))
    bot_rngs = [random.Random(rng.getrandbits(64)) for _ in players]
    deal: Deal[Any] = game.deal(chance, position) or Deal()
    nodes: list[MoveNode] = []
    while position.outcome() is None and len(nodes) < max_turns:
        index = position.turn % position.round_size
        view = deal.view_for(position, index + 1)
        chances = position.chance_outcomes()
        if chances is None:
            legal = view.legal_moves()
        else:
            outcomes = [outcome for outcome, _ in chances]
            weights = [float(probability) for _, probability in chances]
            legal = view.legal_moves_after(chance.choices(outcomes, weights)[0])
        if not legal:  # pragma: no cover - every game here always has a move
            break
        bot = players[index]
        # An object with choose() is asked through it, even if it is callable too.
        choose = bot.choose if hasattr(bot, "choose") else bot
        assert callable(choose)
        choice = choose(view, list(legal), bot_rngs[index])
        move = deal.settle(position, _accepted(game, position, legal, choice, bot, index))
        position.push(move)
        nodes.append(MoveNode(str(move)))
    result = position.outcome() or "*"
    ended = [*record_tags, Tag("Result", result)]
    stopped = position.outcome() is None and len(nodes) >= max_turns
    if stopped and not any(tag.name == "Termination" for tag in record_tags):
        # After Result: the canonical order (docs/formats.md) keeps other tags as they
        # come, so the record converts to the same text.
        ended.append(Tag("Termination", MOVE_LIMIT_REACHED.format(turns=max_turns)))
    return Record(tags=ended, moves=nodes, result=result)


def _tags(
    game: Game[Any],
    players: Sequence[object],
    extra: Mapping[str, str] | Sequence[tuple[str, str]],
) -> list[Tag]:
    """The record's tags before ``Result``: game, players, setup, then ``extra``."""
    pairs = list(extra.items()) if isinstance(extra, Mapping) else list(extra)
    found: dict[str, str] = {"Game": game.name}
    names = game.player_tags[: len(players)]
    if len(names) < len(players):
        game.check_players(len(players))  # too many players: the game's own message
    for tag, bot in zip(names, players, strict=True):
        found[tag] = _bot_name(bot)
    for name, value in game.setup_tags(len(players)):
        found[name] = value
    for name, value in pairs:
        if name == "Result":
            raise MisuseError("the Result tag is the referee's: play() writes it")
        found[name] = value
    return [Tag(name, value) for name, value in found.items()]


def _bot_name(bot: object) -> str:
    """A bot's name for the record: its ``name``, else its function's or class's name."""
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    return str(getattr(bot, "__name__", None) or type(bot).__name__)


def _accepted(
    game: Game[M],
    position: Position[M],
    legal: Sequence[M],
    choice: object,
    bot: object,
    index: int,
) -> M:
    """The legal move ``choice`` stands for: itself, its canonical spelling, or the
    move its text names; ``MisuseError`` naming the bot for anything else."""
    who = f"player {index + 1} ({_bot_name(bot)})"
    move: Any = choice
    if isinstance(choice, str):
        try:
            move = game.parse(choice)
        except Exception as exc:  # any NotationException: say which bot wrote it
            raise MisuseError(f"{who} chose {choice!r}, which is no move: {exc}") from None
    if move in legal:
        return move  # type: ignore[no-any-return]
    try:
        # Another spelling of a legal move (a short form, a missing mark).
        canonical = position.canonical(move)
    except (IllegalMoveError, MisuseError):
        canonical = None
    if canonical is not None and canonical in legal:
        return canonical
    raise MisuseError(
        f"{who} chose {choice!r}, which is not one of the {len(legal)} legal moves "
        f"it was given (e.g. {legal[0]})"
    )
