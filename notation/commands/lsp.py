"""``notation lsp``: the language server for editors (docs/editors.md), on standard input
and output.  pygls, which it is built on, is the ``lsp`` extra: without it the command
says how to install it and exits 2."""

from __future__ import annotations

import sys

import click

from notation.commands.common import game_option

__all__ = ["INSTALL", "command"]

#: What to do when pygls is missing.
INSTALL = (
    "notation lsp needs pygls, the language server library; install it with the lsp "
    "extra: pip install 'undead-notation[lsp]' (or pip install 'pygls>=2')"
)


@click.command("lsp")
@game_option
@click.option(
    "--stdio", is_flag=True,
    help="Talk over standard input and output (the only way; accepted for the clients "
    "that pass it).",
)
def command(game: str | None, stdio: bool) -> None:
    """Run the language server of record files on standard input and output.

    An editor starts it and sends it the files it opens: it answers with every defect
    `notation check --all` finds (strict-form issues as hints), the legal moves at the
    cursor, the position after a move on hover, the canonical text as formatting, quick
    fixes, one symbol per record and, from a move a defect blames, the move that last
    changed its square.  --game names the game of records without a Game tag (an
    editor's setting "notation.game" does too).  See docs/editors.md.
    """
    try:
        import lsprotocol.types  # noqa: F401  (both, or the message)
        import pygls.lsp.server  # noqa: F401
    except ImportError:
        click.echo(f"error: {INSTALL}", err=True)
        sys.exit(2)
    from notation.lsp.server import serve

    serve(default_game=game)
