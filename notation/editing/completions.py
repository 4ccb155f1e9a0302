"""What an editor may offer at a cursor: the legal moves there (with what each does), a
Zombie Kidz roll's die faces, tag names and, for ``Game``, the games' names; and what a
tag means.

The moves come from :class:`notation.editing.editor.RecordEditor` (:meth:`~notation.editing.editor.
RecordEditor.candidates`), put where :func:`notation.editing.places.cursor_at` found the cursor:
the same legal moves, canonical spelling and descriptions as ``notation record`` lists.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from notation.editing.editor import RecordEditor
from notation.editing.places import MARK, MoveCursor, TagCursor
from notation.errors import NotationException
from notation.games import all_games, get_game
from notation.games.base import Game

__all__ = [
    "TAG_MEANINGS",
    "Offer",
    "game_offers",
    "move_offers",
    "offers_at",
    "tag_meaning",
    "tag_names",
    "tag_offers",
    "warm_up",
]

#: What an offer is.
OfferKind = Literal["move", "face", "tag", "game"]


@dataclass(frozen=True, slots=True)
class Offer:
    """One thing to offer: its ``text`` (what to write), what it does or means in words
    (``description``), and what it is (``kind``: a move, a die face, a tag name, a game's
    name)."""

    text: str
    description: str
    kind: OfferKind


#: What the tags mean that a record of any game may carry (a game's player tags and the
#: setup tags its Game object names are added by :func:`tag_meaning`).  Some tags are
#: read by one game only: ``Zombies``, ``Players``.
TAG_MEANINGS: Final[Mapping[str, str]] = MappingProxyType({
    "Game": "the game the record is of (tinkertown, cave, zombie-kidz): the rules it is "
    "checked by; without it, the game comes from --game or the editor's setting",
    "Event": "the event the game was played at (a tournament, a club night)",
    "Site": "where the game was played",
    "Date": "when the game was played, written 2026.12.02 (?? for what is not known)",
    "Round": "the round of the event",
    "Result": "the result: 1-0, 0-1, 1/2-1/2 (where the game has draws) or * (unfinished); "
    "it must agree with the result token at the end of the moves",
    "Position": "the position the record starts from, as the game's position string "
    "(notation show --position prints it); without it, the game's start",
    "Players": "Zombie Kidz: how many play, 2 to 4 (2 when left out)",
    "Zombies": "Zombie Kidz: the zombies in the game, 8, or 7 for the harder game",
    "Source": "where the record comes from (who wrote it down, a book, a program)",
    "Annotator": "who wrote the comments",
    "Time": "the time of day the game started",
    "Termination": "how the game ended: rules, resignation, agreement, unfinished "
    "(notation annotate writes it)",
    "Note": "a note about the record",
})

#: Tags offered for every game, in the canonical order (notation.formats.convert), then others.
_COMMON = ("Game", "Event", "Site", "Date", "Round", "Result", "Position", "Source",
           "Annotator", "Time", "Termination", "Note")
#: The tags only one game reads, by the game's name.
_GAME_ONLY: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "zombie-kidz": ("Players", "Zombies"),
})


def _game(name: str | None) -> Game[Any] | None:
    if name is None:
        return None
    try:
        return get_game(name)
    except NotationException:
        return None


def tag_names(game: str | None) -> list[str]:
    """The tag names a record of ``game`` (a name, or None for any game) may carry, in
    the order an editor offers them."""
    found = _game(game)
    names = list(_COMMON[:5])
    if found is not None:
        names += found.player_tags
        names += [name for name, _ in found.setup_tags()]
        names += _GAME_ONLY.get(found.name, ())
    names += _COMMON[5:]
    if found is None:
        names += [name for names_of in _GAME_ONLY.values() for name in names_of]
    return list(dict.fromkeys(names))


def tag_meaning(name: str, game: str | None = None) -> str | None:
    """What the tag ``name`` means in a record of ``game`` (a name, or None), in words;
    None for a tag the toolkit gives no meaning (it is kept all the same).

    >>> tag_meaning("Red", "cave")
    'Cave: the name of the player who moves first (Red)'
    >>> tag_meaning("Opening") is None
    True
    """
    found = _game(game)
    if found is not None and name in found.player_tags:
        side = found.player_tags.index(name) + 1
        return f"{found.title}: the name of the player who moves {_ordinal(side)} ({name})"
    if name == "Result" and found is not None:
        results = ", ".join(f"{token} {meaning}" for token, meaning in found.result_names.items())
        return f"{TAG_MEANINGS[name]}; in {found.title}: {results}, * unfinished"
    return TAG_MEANINGS.get(name)


def _ordinal(number: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(number, f"number {number}")


def game_offers(prefix: str) -> list[Offer]:
    """The games' names that start with ``prefix`` (any case), each with its title."""
    wanted = prefix.lower()
    return [
        Offer(game.name, game.title, "game")
        for game in all_games()
        if game.name.lower().startswith(wanted)
    ]


def tag_offers(cursor: TagCursor, game: str | None) -> list[Offer]:
    """What to offer in a tag line being typed: tag names, or a ``Game`` tag's value."""
    if cursor.value:
        return game_offers(cursor.prefix) if cursor.name == "Game" else []
    wanted = cursor.prefix.lower()
    return [
        Offer(name, tag_meaning(name, game) or "", "tag")
        for name in tag_names(game)
        if name.lower().startswith(wanted)
    ]


def move_offers(cursor: MoveCursor, default_game: str | None = None) -> list[Offer]:
    """The legal moves where ``cursor`` stands that start with what is typed there (letters
    in any case), in canonical spelling with what each does; before a turn that starts
    with a roll of the die (Zombie Kidz), the die faces first.  None (an empty list) where
    the moves before the cursor cannot be played."""
    try:
        editor = RecordEditor(cursor.record, default_game=default_game)
        if not editor.goto(cursor.address):
            return []
        offers: list[Offer] = []
        prefix = cursor.prefix
        if editor.needs_roll and ":" not in prefix and len(prefix) <= 1:
            wanted = prefix.lower()
            offers += [
                Offer(face, "a roll of the die: the moves it allows follow", "face")
                for face in editor.roll_faces()
                if face.lower().startswith(wanted)
            ]
        offers += [
            Offer(candidate.text, candidate.description, "move")
            for candidate in editor.candidates(prefix)
        ]
        return offers
    except NotationException:  # a record its game cannot start: no moves to offer
        return []


def warm_up(game: str) -> None:
    """Make ready what the first offers in a record of ``game`` (a name) need, its move
    grammar (built on its first refusal of a token: the cursor's mark is one) and its
    descriptions, so that the first completion does not wait for them; nothing for a
    name no game has."""
    found = _game(game)
    if found is None:
        return
    with contextlib.suppress(NotationException):  # refused, as every record's mark is
        found.parse(MARK)
    editor = RecordEditor.new(found, defaults=False)
    editor.candidates("")


def offers_at(cursor: MoveCursor | TagCursor, game: str | None) -> list[Offer]:
    """What to offer at ``cursor`` (:func:`notation.editing.places.cursor_at`) in a record of
    ``game`` (the record's ``Game`` tag, else the default game; None if unknown).

    Typing ``b1-c`` as Red's second move, the legal moves that start so are offered,
    each with what it does:

    >>> from notation.editing.places import cursor_at
    >>> lines = ['[Game "cave"]\\n', '\\n', '1. b1 b5 2. b1-c *\\n']
    >>> offers_at(cursor_at(lines, 1, 3, 17), "cave")
    [Offer(text='b1-c1', description="Red's piece moved to c1", kind='move')]

    In a ``Game`` tag's value, the games' names are offered:

    >>> offers_at(cursor_at(['[Game "c'], 1, 1, 9), None)
    [Offer(text='cave', description='Cave', kind='game')]
    """
    if isinstance(cursor, TagCursor):
        return tag_offers(cursor, game)
    return move_offers(cursor, game)
