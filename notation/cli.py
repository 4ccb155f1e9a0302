"""The ``notation`` command: a thin shell over the library.

Exit codes: 0 all is well, 1 some record is broken, 2 the command itself was
used wrongly (unknown option, missing file...).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import click

from notation import __version__
from notation.errors import TagValueError
from notation.games import all_games, game_names
from notation.generate import DEFAULT_MAX_TURNS, generate_records
from notation.reader import read_file, read_records
from notation.record import Record
from notation.replay import Verdict, check_record
from notation.writer import write_records

RECORD_SUFFIXES = (".txt", ".pgn")


@dataclass(frozen=True, slots=True)
class _Source:
    name: str
    path: Path | None  # None: standard input


def _expand(paths: tuple[str, ...]) -> list[_Source]:
    """Files named on the command line; a folder stands for its record files."""
    sources: list[_Source] = []
    for raw in paths:
        if raw == "-":
            sources.append(_Source("<stdin>", None))
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
            )
            if not found:
                raise click.UsageError(f"{raw}: no record files (*.txt, *.pgn) in this folder")
            sources.extend(_Source(str(p), p) for p in found)
        else:
            sources.append(_Source(raw, path))
    return sources


def _records(source: _Source) -> Iterator[Record]:
    if source.path is None:
        return read_records(sys.stdin, source.name)
    try:  # open it now, so that an unreadable file is a usage error, not a traceback
        with open(source.path, "rb"):
            pass
    except OSError as exc:
        raise click.FileError(source.name, hint=exc.strerror or str(exc)) from None
    return read_file(source.path)


def _game_option() -> click.Choice[str]:
    return click.Choice(game_names(), case_sensitive=False)


GAME_HELP = "The game of records without a Game tag (a Game tag always wins)."


def main() -> None:
    """Entry point of the ``notation`` console script."""
    try:
        cli(standalone_mode=True)
    except BrokenPipeError:
        # The reader of our output went away (``notation check ... | head``): stop quietly.
        devnull = open(os.devnull, "w")  # noqa: SIM115 - must outlive this frame
        os.dup2(devnull.fileno(), sys.stdout.fileno())
        sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notation")
def cli() -> None:
    """Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

    Records are PGN-like text files holding one or more games; see
    docs/record-format.md.  Run `notation COMMAND --help` for each command.
    """


@cli.command()
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True)
)
@click.option("--game", "game", type=_game_option(), help=GAME_HELP)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a line per broken record and a summary; json: one JSON object per record.",
)
@click.option("-v", "--verbose", is_flag=True, help="Also list the valid records.")
def check(files: tuple[str, ...], game: str | None, fmt: str, verbose: bool) -> None:
    """Check every record in FILES against the rules of its game.

    FILES are record files, folders (their *.txt and *.pgn files, recursively)
    or - for standard input.  Each broken record gets one line:
    FILE:LINE:COL: record N, turn T (MOVE): reason.  Exits 0 if every record
    is valid, 1 if any is not.
    """
    out = click.get_text_stream("stdout")
    total = broken = 0
    sources = _expand(files)
    for source in sources:
        for record in _records(source):
            verdict = check_record(record, game)
            total += 1
            broken += not verdict.ok
            _report(out, verdict, fmt, verbose)
    if fmt == "text":
        files_word = "file" if len(sources) == 1 else "files"
        if total == 0:
            out.write(f"no records found in {len(sources)} {files_word}\n")
        else:
            out.write(
                f"{total} record{'s' if total != 1 else ''} in {len(sources)} {files_word}: "
                f"{total - broken} valid, {broken} broken\n"
            )
    sys.exit(1 if broken else 0)


def _report(out: TextIO, verdict: Verdict, fmt: str, verbose: bool) -> None:
    if fmt == "json":
        out.write(json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n")
    elif verdict.error is not None:
        out.write(f"{verdict.error}\n")
    elif verbose:
        out.write(
            f"{verdict.source}: record {verdict.record}: valid {verdict.game} game, "
            f"{verdict.turns} turns, {verdict.result}\n"
        )


@cli.command()
@click.option("--game", "game", type=_game_option(), required=True, help="The game to play.")
@click.option("--games", "count", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives the same games.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Number of players, for games that allow several.")
@click.option("--max-turns", type=click.IntRange(min=1), default=DEFAULT_MAX_TURNS,
              show_default=True, help="Stop a game after this many turns (result *).")
@click.option("--tag", "tags", multiple=True, metavar="NAME=VALUE",
              help='A setup tag for every game, e.g. --tag Zombies=7 (repeatable).')
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-",
              help="Where to write the records (default: standard output).")
def generate(
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


@cli.command("games")
def list_games() -> None:
    """List the games this installation knows."""
    for game in all_games():
        aliases = f" (also: {', '.join(game.aliases)})" if game.aliases else ""
        click.echo(f"{game.name:14} {game.title}{aliases}")


if __name__ == "__main__":
    main()
