"""A new record for a game about to be entered: its tags (the game, the date, the
players and the setup their number asks for) and its empty move list.

:meth:`RecordEditor.new <notation.editing.editor.RecordEditor.new>` and
:meth:`RecordFile.open <notation.editing.recordfile.RecordFile.open>` start with it.

>>> import datetime
>>> from notation.editing.new_record import new_record
>>> record = new_record("cave", players=["Ann", "Bo"], date=datetime.date(2026, 12, 4))
>>> [(tag.name, tag.value) for tag in record.tags]
[('Game', 'cave'), ('Date', '2026.12.04'), ('Red', 'Ann'), ('Black', 'Bo'), ('Result', '*')]
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from notation.editing.clocks import require_clock
from notation.errors import (
    MisuseError,
    TagValueError,
    misuse_unless,
    require_encodable,
    require_flag,
    require_sequence,
)
from notation.games import get_game
from notation.games.base import Game
from notation.record import Record, Tag
from notation.replay import require_tag_pairs

__all__ = ["new_record", "require_new_record"]


def new_record(
    game: Game[Any] | str,
    tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    *,
    players: Sequence[str] = (),
    date: datetime.date | None = None,
    defaults: bool = True,
) -> Record:
    """A record of ``game`` (a :class:`Game` or its name) with no move yet.

    Its tags: ``Game``; with ``defaults``, ``Date`` (``date``, default today, written
    ``2026.12.02``) and a tag per player named (``players``, in turn order:
    ``White``/``Red``, ``Red``/``Black``, ``Player1``...; Zombie Kidz also gets
    ``Players``, their number); then ``tags`` in their order (a tag given there wins
    over a default); ``Result`` last, ``*``.  ``MisuseError`` for an argument of the
    wrong type or value.
    """
    given, players = require_new_record(
        tags, players=players, date=date, defaults=defaults
    )
    resolved = game if isinstance(game, Game) else get_game(game)
    pairs: list[tuple[str, str]] = [("Game", resolved.name)]
    if defaults:
        day = date if date is not None else datetime.date.today()
        pairs.append(("Date", day.strftime("%Y.%m.%d")))
        if len(players) > len(resolved.player_tags):
            raise MisuseError(
                f"{resolved.title} has at most {len(resolved.player_tags)} players, "
                f"not {len(players)}"
            )
        pairs.extend(zip(resolved.player_tags, players, strict=False))
        if players:
            try:
                pairs.extend(resolved.setup_tags(len(players)))
            except TagValueError as exc:  # a number of names the game has no setup for
                raise MisuseError(f"players: {exc}") from None
    names = {name for name, _ in given}
    tags_out = [Tag(n, v) for n, v in pairs if n == "Game" or n not in names]
    tags_out += [Tag(n, v) for n, v in given if n not in ("Game", "Result")]
    result = next((v for n, v in given if n == "Result"), "*")
    tags_out.append(Tag("Result", result))
    return Record(tags=tags_out, result=result)


def require_new_record(
    tags: object,
    *,
    players: object = (),
    date: object = None,
    defaults: object = True,
    clock: object = None,
) -> tuple[list[tuple[str, str]], list[str]]:
    """The tags of a new record as ``(name, value)`` pairs and the players' names, as
    lists; ``MisuseError`` unless every argument is what :meth:`RecordEditor.new` takes
    (what :meth:`RecordFile.open <notation.editing.recordfile.RecordFile.open>` checks too)."""
    given = require_tag_pairs(tags)  # type: ignore[arg-type]  # checked there
    for name, value in given:
        require_encodable(name, "a tag's name")
        require_encodable(value, f"the value of the tag {name}")
    require_sequence(players, "players", "names (str)")
    names = [
        require_encodable(name, "a player's name")
        for name in players  # type: ignore[attr-defined]  # an iterable, checked above
    ]
    misuse_unless(date is None or isinstance(date, datetime.date), "date",
                  "a datetime.date or None", date)
    require_flag(defaults, "defaults")
    require_clock(clock)
    return given, names
