"""The protocol every game implements.

A game is one module in :mod:`notation.games` that defines ``GAME``, an instance
of a :class:`Game` subclass.  The shared layers (record reader, replay, writers,
CLI) talk to games only through this protocol, so adding a game touches no
shared code.

Two objects per game:

* :class:`Game` is stateless: it names the game, reads move tokens into typed,
  immutable move objects, and makes positions.
* :class:`Position` is a game in progress.  Like ``chess.Board`` it is mutable,
  with :meth:`Position.push` / :meth:`Position.pop`, because replaying thousands
  of records must not copy a board per turn.  :meth:`Position.copy` is explicit.

A move object knows how to write itself: ``str(move)`` is its canonical text,
and ``game.parse(str(move)) == move`` for every move a game produces.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from notation.errors import (
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    TagValueError,
    misuse_unless,
    require_number,
    require_rng,
    require_text,
)

if TYPE_CHECKING:  # only named in annotations: imported by the games that use them
    import random
    from fractions import Fraction

    from notation.games.view import Analysis, Assessment, BoardView

M = TypeVar("M", bound=Hashable)

#: Result tokens, as in PGN.  What each means is the game's business
#: (:attr:`Game.result_names`).
WIN_FIRST = "1-0"
WIN_SECOND = "0-1"
DRAW = "1/2-1/2"
UNFINISHED = "*"

# Parsed move tokens are memoised per game; the bound protects against adversarial
# input with millions of distinct tokens.
_PARSE_CACHE_LIMIT = 200_000


def index_arg(value: object, index_of: Mapping[str, int], count: int, refusal: str) -> int:
    """A square (or zone) given by a program as an index ``0 <= value < count`` or a name
    (any case) that ``index_of`` knows: its index.  Every accessor of every game reads
    its square arguments with this, so that an int always means a square; anything
    else is the library's :class:`MisuseError`, ``"{value!r} " + refusal``."""
    # bool is an int to Python, but True is no square anyone means.
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < count:
            return value
    elif isinstance(value, str):
        index = index_of.get(value.strip().lower())
        if index is not None:
            return index
    raise MisuseError(f"{value!r} {refusal}")


def foreign_move(move: object, game: str, kinds: str) -> MisuseError:
    """The error for an object handed to a game's position as a move that is none of the
    game's moves (``kinds``: the move classes, in words)."""
    return MisuseError(
        f"{move!r} is not a {game} move ({kinds}; GAME.parse() reads one from its text)"
    )


def square_field_check(count: int, examples: str) -> Callable[[object, str, object], None]:
    """The check a game's move classes run on a hand-built move's square fields:
    ``check(move, field, value)`` refuses a ``value`` that is no square index ``0 <= value
    < count`` (:class:`MisuseError`; ``examples`` give a few squares' indexes).

    Run once when a move is made, never when it is pushed: parsed moves are
    memoised and legal_moves() hands out prebuilt ones, so push stays unchecked.
    """

    def check(move: object, field: str, value: object) -> None:
        if type(value) is not int or not 0 <= value < count:
            raise MisuseError(
                f"{type(move).__name__}.{field} is {value!r}: a square is an int 0-{count - 1} "
                f"({examples}); GAME.parse() reads a move from its text"
            )

    return check


def move_repr(move: object) -> str:
    """A move's ``repr``, ``Enter('b1')``: its class and its notation, as ``parse`` reads
    it.  The move classes of every game take it as their ``__repr__``."""
    return f"{type(move).__name__}({str(move)!r})"


class Position(ABC, Generic[M]):
    """A game in progress."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """How many turns have been played (0 at the start)."""

    @property
    def round_size(self) -> int:
        """Turns in one round, i.e. one move number (2 for two-player games)."""
        return 2

    @property
    @abstractmethod
    def mover(self) -> str:
        """The side or player to move, as words for messages ("White", "player 2")."""

    @abstractmethod
    def push(self, move: M) -> None:
        """Play ``move``; raise :class:`IllegalMoveError` (position unchanged) if illegal.

        Moves after the rules ended the game are illegal too.  An object that is not
        a move of this game (another game's move, a string, ``None``) raises
        :class:`~notation.errors.MisuseError`, the position unchanged; so does every
        method here that takes a move (:meth:`check`, :meth:`is_legal`,
        :meth:`canonical`).
        """

    @abstractmethod
    def pop(self) -> M:
        """Take back the last move pushed and return it.

        :class:`~notation.errors.MisuseError` if no move was pushed (a position read
        from a string has turns behind it, but no move to take back).
        """

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move here, each once, as the canonical move object.

        A move's identity is its spelling (moves compare as their text): the list
        holds each legal move in its canonical spelling, and :meth:`is_legal` also
        accepts the other spellings of a listed move that records may use (a capture
        without its mark, a short form), which :meth:`canonical` turns into the
        listed one.  So ``is_legal(m)`` is ``canonical(m) in legal_moves()``, and
        ``m in legal_moves()`` is ``is_legal(m) and canonical(m) == m``.
        Empty once :meth:`outcome` is not ``None``.
        """

    @abstractmethod
    def outcome(self) -> str | None:
        """The result token if the rules have ended the game, else ``None``."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy (history included, so it can be popped)."""

    @abstractmethod
    def diagram(self) -> str:
        """A plain-text picture of the position, for terminals and messages."""

    # -- describing positions and moves (convert, annotate, show, diagrams) -------
    @abstractmethod
    def position_string(self) -> str:
        """This position as one line, what FEN is to chess.

        ``game.position_from_string(s).position_string() == s``; a record starts
        from one with a ``Position`` tag.  It holds the turn number, so turns and
        move numbers go on counting from it.
        """

    def canonical(self, move: M) -> M:
        """The canonical spelling of ``move``, a legal move here.

        The form :meth:`legal_moves` uses: marks filled in exactly where they
        apply, long forms.  Games whose spelling never depends on the position
        keep the default (which still refuses what is not a move of this game).
        """
        self.check(move)
        return move

    def last_move_canonical(self) -> M:
        """The canonical spelling of the last move pushed: what :meth:`canonical` gave
        for it in the position before it.

        The default pops, asks :meth:`canonical` and pushes again; a game whose history
        already knows the answer overrides it.  :class:`~notation.errors.MisuseError`
        if no move was pushed, as :meth:`pop`.
        """
        move = self.pop()
        try:
            return self.canonical(move)
        finally:
            self.push(move)

    @abstractmethod
    def last_move_facts(self) -> dict[str, Any]:
        """What the last pushed move did, as JSON-ready data (``{}`` before any move).

        E.g. how many zombies a move took and whether it captured, who won a fight,
        where a zombie was placed and what was eliminated.
        """

    @abstractmethod
    def annotations(self) -> list[tuple[str, str]]:
        """Machine-readable facts of this position, as ``(key, value)`` pairs.

        Written into records as ``[%key value]`` after each move; values contain
        no ``]``, ``{`` or ``}``.  Deterministic, and short: what changed or matters.
        """

    @abstractmethod
    def board_view(self) -> BoardView:
        """This position as data for the renderers (terminal, SVG, HTML)."""

    def caption(self) -> str:
        """The last move pushed and what it did, in words (``""`` before any move):
        ``"2. f1,b4: White placed zombies on f1 and b4"``.  The default is the
        caption of :meth:`board_view`; a game that can say it for less overrides it."""
        return self.board_view().caption

    def check(self, move: M) -> str | None:
        """Why ``move`` is illegal here, or ``None`` if it is legal.

        A :class:`~notation.errors.MisuseError` from :meth:`push` (not a move of this
        game) is raised, not returned: it is no reason the rules give.
        """
        try:
            self.push(move)
        except IllegalMoveError as exc:
            return str(exc)
        self.pop()
        return None

    def is_legal(self, move: M) -> bool:
        """Whether ``move`` may be played here, i.e. :meth:`push` accepts it; :meth:`check`
        says why not.

        True for a legal move in any spelling the notation allows, listed or not:
        ``position.canonical(move)`` is then the move :meth:`legal_moves` lists.
        """
        return self.check(move) is None

    # -- a position as Python sees it: its game, printing, equality, play by text ---
    #: The :attr:`Game.name` of the game these positions belong to, so that :attr:`game`
    #: is one registry look-up.  ``None``: the game is found by its position class.
    game_name: ClassVar[str | None] = None

    @property
    def game(self) -> Game[M]:
        """The registered :class:`Game` this position belongs to (``position.game.parse``).

        A game that does not set :attr:`game_name` (one published by another
        distribution) is found as the registered game whose ``new_position()`` is of
        this position's class; :class:`~notation.errors.MisuseError` if none is.
        """
        return game_finder(self)

    def __repr__(self) -> str:
        """``<TinkertownPosition 'position string'>``: the class names the game, and
        ``game.position_from_string`` reads the string back."""
        return f"<{type(self).__name__} {self.position_string()!r}>"

    def __str__(self) -> str:
        """The text diagram, :meth:`diagram`, so that ``print(position)`` draws the board."""
        return self.diagram()

    def __eq__(self, other: object) -> bool:
        """Positions of the same game are equal when their position strings are: the
        same board, side to move and turn number, whatever moves led there (the
        history that :meth:`pop` takes back is not compared)."""
        if not isinstance(other, Position):
            return NotImplemented
        return type(self) is type(other) and self.position_string() == other.position_string()

    def __hash__(self) -> int:
        """The hash of :meth:`position_string`, consistent with ``==``.

        A position is mutable: its hash changes with every :meth:`push` and :meth:`pop`,
        so a position changed while a set member or a dict key is lost there.  Store
        ``position.copy()`` or ``position_string()`` instead.
        """
        return hash(self.position_string())

    def __copy__(self) -> Self:
        """:meth:`copy`, so that ``copy.copy(position)`` is independent as well."""
        return self.copy()

    def _repr_svg_(self) -> str:
        """The board as SVG (:func:`notation.render.svg.board_svg`), which Jupyter and
        other notebooks draw in place of the repr."""
        # Imported here: rendering is not needed to play, and stays unloaded until asked.
        from notation.render.svg import board_svg

        return board_svg(self.board_view())

    def push_text(self, text: str) -> M:
        """Read ``text`` as one move of this game, check it, play it, and return it.

        The move played and returned is the canonical one, the object
        :meth:`legal_moves` lists (``c2-c1`` that captures is played as ``c2xc1``),
        so that :meth:`pop` returns it and a record written from the moves is in
        canonical notation.  :class:`~notation.errors.MoveSyntaxError` if ``text`` is
        no move of the game, :class:`~notation.errors.IllegalMoveError` if the rules
        forbid it here (the position unchanged either way), and
        :class:`~notation.errors.MisuseError` if ``text`` is not a str.
        """
        move = self.game.parse(require_text(text, "a move's text").strip())
        # canonical() of an illegal move is the move itself, or IllegalMoveError:
        # either way push() gives the rules' reason, and changes nothing.
        canonical = self.canonical(move)
        self.push(canonical)
        return canonical

    def is_game_over(self) -> bool:
        """Whether the rules have ended the game (:meth:`outcome` is not ``None``)."""
        return self.outcome() is not None

    def result(self) -> str:
        """The result token: :meth:`outcome` once the rules ended the game, else ``*``
        (what a record of the game so far ends with)."""
        outcome = self.outcome()
        return UNFINISHED if outcome is None else outcome

    # -- chance and hidden information (notation.play, docs/library.md) ------------
    def chance_outcomes(self) -> list[tuple[str, Fraction]] | None:
        """The chance step before the next turn, as ``(outcome, probability)`` pairs that
        sum to 1, or ``None`` when the next turn has none (or the game is over).

        Zombie Kidz rolls its die: ``[("R", 1/6), ..., ("W", 1/6)]``.  The outcome
        is the text :meth:`legal_moves_after` takes.  Games without chance keep the
        default, ``None``: :meth:`legal_moves` is then the whole choice.
        """
        return None

    def legal_moves_after(self, outcome: str) -> list[M]:
        """The legal moves once the chance step came out as ``outcome`` (one of
        :meth:`chance_outcomes`), each as the canonical move object.

        Every one is also in :meth:`legal_moves`, which joins them over all outcomes.
        ``MisuseError`` for an outcome the game does not have, and always in a game
        without chance (the default).
        """
        raise MisuseError(
            f"{outcome!r} is no chance outcome: this game has no chance step "
            "(chance_outcomes() is None); legal_moves() is the whole choice"
        )

    def view_for(self, player: int) -> Position[M]:
        """This position as player ``player`` (1 for the first in turn order) may know it:
        an independent copy, which a bot may push and pop on freely.

        The default, for games whose positions hold no secret, is :meth:`copy`.  A
        game whose hidden information lives outside the position (Cave's identities,
        dealt by :meth:`Game.deal`) shows the secrets through :meth:`Deal.view_for`;
        a position itself never holds more than the record has shown.
        """
        return self.copy()


class _Describe(Protocol):
    """A game's ``describe`` module, as :class:`DescribedPosition` calls it."""

    def diagram(self, position: Any, /) -> str: ...
    def last_move_facts(self, position: Any, /) -> dict[str, Any]: ...
    def annotations(self, position: Any, /) -> list[tuple[str, str]]: ...
    def board_view(self, position: Any, /) -> BoardView: ...
    def caption(self, position: Any, /) -> str: ...


#: The ``describe`` modules imported whole, by name (see :func:`_describer`).
_DESCRIBERS: dict[str, _Describe] = {}


def _describer(name: str) -> _Describe:
    """The module ``name``, imported on first use: a dict look-up after that (the
    descriptions are asked for per move, and a check needs none of them).

    The cache is our own, not ``sys.modules``: a module being imported is there before
    its body has run, and a second thread (``notation replay`` reads in one and draws
    in another) would get it half made.  ``import_module`` waits for the import another
    thread has begun; what it returns is whole, and only that is cached.
    """
    found = _DESCRIBERS.get(name)
    if found is None:
        found = _DESCRIBERS[name] = cast("_Describe", importlib.import_module(name))
    return found


class DescribedPosition(Position[M]):
    """A position whose :meth:`diagram`, :meth:`last_move_facts`, :meth:`annotations`,
    :meth:`board_view` and :meth:`caption` are the functions of those names in a module
    of its game, named by the class's ``_describe`` and imported when first asked for."""

    __slots__ = ()
    _describe: ClassVar[str]

    def diagram(self) -> str:
        return _describer(self._describe).diagram(self)

    def last_move_facts(self) -> dict[str, Any]:
        return _describer(self._describe).last_move_facts(self)

    def annotations(self) -> list[tuple[str, str]]:
        return _describer(self._describe).annotations(self)

    def board_view(self) -> BoardView:
        return _describer(self._describe).board_view(self)

    def caption(self) -> str:
        return _describer(self._describe).caption(self)


class Game(ABC, Generic[M]):
    """A game: its name, its move notation and its starting position."""

    #: The registry key and the value of the ``Game`` tag.
    name: ClassVar[str]
    #: Other spellings accepted for the ``Game`` tag and ``--game``.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: The name people know it by.
    title: ClassVar[str]
    #: The tag names that hold the players' names, in turn order.
    player_tags: ClassVar[tuple[str, ...]] = ()
    #: What each result token this game has means.  ``*`` is always allowed;
    #: a token missing here (``1/2-1/2`` in a game without draws) is an error.
    result_names: ClassVar[Mapping[str, str]]

    #: The longest move token :meth:`parse` reads; far above any game's longest move.
    max_move_length: ClassVar[int] = 100

    #: The codes of this game's own errors, each with what it means: the second argument
    #: of the :class:`MoveSyntaxError` and :class:`IllegalMoveError` it raises
    #: (``"tinkertown-occupied"``).  Each starts with the game's :attr:`name` and a
    #: hyphen, so that no two games share one.  A game that names no case of its own
    #: keeps none: its errors carry the defaults ``"move-syntax"`` and ``"move-illegal"``.
    #: :func:`notation.errors.all_codes` joins every game's to the shared ones.
    error_codes: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init__(self) -> None:
        self._parse_cache: dict[str, M] = {}
        #: :meth:`parsed` without its check of the argument, for a loop that reads many
        #: tokens and hands it a str only: the move a token was read as, or None.
        self.parsed_unchecked: Callable[[str], M | None] = self._parse_cache.get

    # -- notation -----------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read one move token (no suffix such as ``!``); raise ``MoveSyntaxError``."""

    def parsed(self, text: str) -> M | None:
        """The move ``text`` was already read as by :meth:`parse`, or None: its memo
        alone.  ``MisuseError`` for a ``text`` that is not a str."""
        try:
            move = self._parse_cache.get(text)
        except TypeError:  # unhashable: no str
            move = None
        if move is None:  # the check only where the memo misses
            require_text(text, "a move token")
        return move

    def parse(self, text: str) -> M:
        """:meth:`parse_move`, memoised; a token longer than any move is refused unread."""
        cache = self._parse_cache
        try:
            move = cache.get(text)
        except TypeError:  # unhashable, so no str: refused just below
            move = None
        if move is None:
            require_text(text, "a move token")
            if len(text) > self.max_move_length:
                # Not worth a parse, a message quoting megabytes, or a place in the cache.
                raise MoveSyntaxError(
                    f"a token of {len(text)} characters is not a {self.title} move "
                    f"(a move has at most {self.max_move_length}; is a space missing?)",
                    "move-too-long",
                )
            move = self.parse_move(text)
            if len(cache) >= _PARSE_CACHE_LIMIT:
                cache.clear()
            cache[text] = move
        return move

    # -- positions ----------------------------------------------------------
    @abstractmethod
    def new_position(self, tags: Mapping[str, str] | None = None) -> Position[M]:
        """The starting position for a record with these tags.

        A ``Position`` tag is honoured: the position is the one it describes, as
        :meth:`position_from_string` reads it with these tags (what a replay starts
        from).  Raise :class:`TagValueError` for a tag value the game cannot accept.
        """

    @abstractmethod
    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> Position[M]:
        """The position a :meth:`Position.position_string` describes.

        Raise ``TagValueError("Position", reason)`` for a string that is malformed or
        describes an impossible position (the reason says which part is wrong).
        """

    @abstractmethod
    def move_to_dict(self, move: M) -> dict[str, Any]:
        """A typed move as JSON-ready data: ``{"type": "move", "from": "h5", ...}``."""

    def spelling_reasons(self, written: M, canonical: M) -> list[str]:
        """Why ``written`` is not spelled as ``canonical``, the same move in its canonical
        spelling, for ``check --strict``: each reason a phrase naming what the canonical
        form adds ("this move captures (missing capture mark)").  A game without
        optional marks or short forms has none to give (the default); letter case is
        the strict check's own business."""
        return []

    #: Every key :meth:`Position.annotations` may use, so that annotating again can
    #: replace the commands of an earlier run even where this run has none of a key.
    annotation_keys: ClassVar[frozenset[str]] = frozenset()
    #: Whether :meth:`assess_move` has anything to say for this game.
    can_assess: ClassVar[bool] = False

    def assess_move(self, position: Position[M], move: M) -> Assessment | None:
        """An opinion on ``move`` in ``position`` (before it is played), if any.

        ``??`` a blunder, ``?`` a mistake, ``!`` the only good move (each game's docs say
        by what measure), with ``values`` for the move's comment.  The position must be
        left as it was.
        """
        return None

    #: Whether :meth:`analyse` has anything to say for this game.
    can_analyse: ClassVar[bool] = False

    def analyse(
        self, position: Position[M], *, depth: int | None = None, seconds: float | None = None
    ) -> Analysis:
        """The engine's view of ``position``: its value for the mover and the best line.

        ``depth`` and ``seconds`` bound a search (each game's docs say its defaults);
        an exact solver may ignore them.  The position must be left as it was.
        ``MisuseError`` for a game without an engine (:attr:`can_analyse` false).
        """
        raise MisuseError(f"{self.title} has no analysis engine")

    def allows_result(self, result: str) -> bool:
        """Whether a record of this game may end with ``result``: ``*`` or a name of
        :attr:`result_names`.  ``MisuseError`` for a ``result`` that is not a str."""
        misuse_unless(isinstance(result, str), "result", "a str", result)
        return result == UNFINISHED or result in self.result_names

    # -- generating games ---------------------------------------------------
    def player_range(self) -> tuple[int, int]:
        """The fewest and the most players the game is played by (one per player tag
        unless the game says otherwise)."""
        return len(self.player_tags), len(self.player_tags)

    def variant(self, tags: Mapping[str, str]) -> str:
        """The setup a record with these tags is played with, in words, for a game that
        has several (``"3 players, 7 zombies"``); ``""`` for a game with one.  Statistics
        count results by it.  Raises ``TagValueError`` for tags the game refuses."""
        return ""

    def players_text(self) -> str:
        """:meth:`player_range` in words: ``"2"`` or ``"2 to 4"``."""
        fewest, most = self.player_range()
        return str(fewest) if fewest == most else f"{fewest} to {most}"

    def check_players(self, players: int) -> None:
        """Raise ``TagValueError("Players", ...)`` unless the game is played by ``players``."""
        fewest, most = self.player_range()
        if type(players) is not int or not fewest <= players <= most:
            raise TagValueError(
                "Players", f"{self.title} is played by {self.players_text()} players, not {players}"
            )

    def setup_tags(self, players: int | None = None) -> list[tuple[str, str]]:
        """Tags a generated record needs beyond ``Game`` (e.g. ``Players``).

        ``TagValueError`` for a number of players outside :meth:`player_range`.
        """
        if players is not None:
            self.check_players(players)
        return []

    def random_playout(
        self, position: Position[M], rng: random.Random, max_turns: int
    ) -> Sequence[M]:
        """Play random legal moves until the game ends or ``max_turns`` are played.

        Returns the moves, which are also pushed on ``position``.  Games with
        chance or hidden information override this (a die roll is not a free
        choice among legal moves), and check their arguments with
        :meth:`check_playout`.
        """
        self.check_playout(position, rng, max_turns)
        played: list[M] = []
        while position.outcome() is None and position.turn < max_turns:
            moves = position.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            position.push(move)
            played.append(move)
        return played

    def check_playout(self, position: object, rng: object, max_turns: object) -> None:
        """:class:`MisuseError` unless :meth:`random_playout` can play from these: a
        position of this game (not another game's), a ``random.Random``, a whole number."""
        self.check_position(position)
        require_rng(rng)
        require_number(max_turns, "max_turns")

    def check_position(self, position: object, what: str = "position") -> None:
        """:class:`MisuseError` unless ``position`` is a position of this game; the message
        names the game a position of another one belongs to."""
        other = position.game if isinstance(position, Position) else None
        misuse_unless(other is not None, what, f"a {self.title} position", position)
        if other is not None and other.name != self.name:
            raise MisuseError(
                f"{what} is a {self.title} position, not a {other.title} one "
                f"({type(position).__name__})"
            )

    # -- hidden information (notation.play) -----------------------------------
    def deal(self, rng: random.Random, position: Position[M] | None = None) -> Deal[M] | None:
        """Deal what the game hides from its players, with ``rng``, for a game played from
        ``position`` (the start when ``None``); ``None`` when the game hides nothing
        (the default).

        Cave deals each side's identities (1 K, 2 Z, 3 S, in random order); a piece
        that ``position`` has already revealed keeps its letter.  The referee
        (:func:`notation.play.play`) holds the :class:`Deal`; bots see only
        :meth:`Deal.view_for`.  ``MisuseError`` unless ``rng`` is a ``random.Random``.
        """
        require_rng(rng)
        return None


class Deal(Generic[M]):
    """What a game hides from its players, as one game's referee holds it.

    A position holds only what the record has shown; a deal holds the rest (Cave:
    every piece's true identity).  This base class hides nothing: every player sees
    the position, and every move stands as chosen.
    """

    def view_for(self, position: Position[M], player: int) -> Position[M]:
        """``position`` as player ``player`` (1 for the first in turn order) may know it:
        an independent copy, with whatever of the deal that player is told."""
        return position.view_for(player)

    def settle(self, position: Position[M], move: M) -> M:
        """The move the record gets when the player to move chose ``move`` (a legal move
        of its view) in ``position``: written with what the deal knows.

        A Cave attack names the class of every single piece that fights; a bot
        cannot know them (nobody does before the fight), so the referee writes the
        true letters here.  The default: ``move`` as chosen.
        """
        return move


def game_finder(position: Position[Any]) -> Game[Any]:
    """A slot (see :func:`notation.plug_in`), filled by :mod:`notation.games`."""
    raise MisuseError(f"no game registry is installed to find the game of {position!r}")
