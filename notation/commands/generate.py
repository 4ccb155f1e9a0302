"""``notation generate``: seeded random games as records."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO, TypeVar

import click

from notation.collections.generate import DEFAULT_MAX_TURNS, generate_records
from notation.commands.common import game_option
from notation.errors import TagValueError
from notation.games import all_games, get_game
from notation.writer import write_records

#: What --help says of --players: each game's own range, not a bare x>=1.
_PLAYERS_HELP = "Number of players (default: the fewest): " + ", ".join(
    f"{game.name} {game.players_text()}" for game in all_games()
) + "."


F = TypeVar("F", bound=Callable[..., Any])


def _game_to_play(func: F) -> F:
    """--game NAME, required: any name or alias ``notation games`` lists."""
    return game_option(func, required=True, help_text="The game to play.")


@click.command("generate")
@_game_to_play
@click.option("--games", "count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives the same games.")
@click.option("--players", type=int, metavar="N", default=None, help=_PLAYERS_HELP)
@click.option("--max-turns", type=click.IntRange(min=1), default=DEFAULT_MAX_TURNS,
              show_default=True, help="Stop a game after this many turns (result *).")
@click.option("--tag", "tags", multiple=True, metavar="NAME=VALUE",
              help="A setup tag for every game, e.g. --tag Zombies=7 (repeatable).")
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-",
              help="Where to write the records (default: standard output).")
def command(
    game: str,
    count: int,
    seed: int,
    players: int | None,
    max_turns: int,
    tags: tuple[str, ...],
    output: TextIO,
) -> None:
    """Write seeded random legal games, played to the end, as records."""
    extra: list[tuple[str, str]] = []
    for item in tags:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="--tag")
        extra.append((name.strip(), value))
    if players is not None:
        # Checked before anything is written, with the game's range in the message.
        try:
            get_game(game).check_players(players)
        except TagValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--players") from None
    try:
        records = generate_records(
            game, count, seed, players=players, max_turns=max_turns, extra_tags=extra
        )
        for text in write_records(records):
            output.write(text)
    except TagValueError as exc:
        raise click.BadParameter(f"{exc.tag}: {exc}", param_hint="--tag") from None
