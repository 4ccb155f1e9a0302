"""``notation games``: the games this installation knows."""

from __future__ import annotations

import click

from notation.games import all_games


@click.command("games")
def command() -> None:
    """List the games this installation knows."""
    for game in all_games():
        aliases = f" (also: {', '.join(game.aliases)})" if game.aliases else ""
        click.echo(f"{game.name:14} {game.title}{aliases}")
