"""``notation generate``: seeded random games as records."""

from __future__ import annotations

from typing import TextIO

import click

from notation.errors import TagValueError
from notation.games import game_names
from notation.generate import DEFAULT_MAX_TURNS, generate_records
from notation.writer import write_records


@click.command("generate")
@click.option("--game", "game", type=click.Choice(game_names(), case_sensitive=False),
              required=True, help="The game to play.")
@click.option("--games", "count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives the same games.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Number of players, for games that allow several.")
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
    try:
        records = generate_records(
            game, count, seed, players=players, max_turns=max_turns, extra_tags=extra
        )
        for text in write_records(records):
            output.write(text)
    except TagValueError as exc:
        hint = "--players" if exc.tag == "Players" else "--tag"
        raise click.BadParameter(f"{exc.tag}: {exc}", param_hint=hint) from None
