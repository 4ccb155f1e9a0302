"""``notation select``: keep the records that meet criteria (tags, result, length,
validity, positions, moves), written exactly as they were or converted."""

from __future__ import annotations

import re

import click

from notation.collections.operations import (
    Criterion,
    Facts,
    HasMove,
    IsBroken,
    IsValid,
    NumberIn,
    ReachesPosition,
    ResultIs,
    Selection,
    TagEquals,
    TagIn,
    TagMatches,
    TurnsIn,
    parse_range,
)
from notation.commands._collection import (
    Writer,
    all_written_records,
    records_word,
    summary,
    to_option,
)
from notation.commands.common import (
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.errors import ErrorKind

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def _name_value(text: str, option: str, sep: str = "=") -> tuple[str, str]:
    name, found, value = text.partition(sep)
    if not found or not name:
        raise click.BadParameter(f"{text!r}: write NAME{sep}VALUE", param_hint=option)
    return name, value


def _int_range(text: str, option: str) -> tuple[int | None, int | None]:
    try:
        low, high = parse_range(text)
        bounds = tuple(None if b is None else int(b) for b in (low, high))
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a range of whole numbers (N, LOW..HIGH, LOW.. or ..HIGH)",
            param_hint=option,
        ) from None
    return bounds[0], bounds[1]


@click.command("select")
@files_argument
@click.option("--tag", "tags", multiple=True, metavar="NAME=VALUE",
              help="The tag NAME has exactly VALUE.")
@click.option("--tag-match", "tag_matches", multiple=True, metavar="NAME=REGEX",
              help="The tag NAME contains a match of the regular expression REGEX.")
@click.option("--tag-range", "tag_ranges", multiple=True, metavar="NAME=LOW..HIGH",
              help="The tag NAME lies in a range of numbers or dates (2024.01.01..2024.06.30); "
                   "either bound may be left out.")
@click.option("--result", "results", multiple=True, type=click.Choice(RESULTS),
              help="The result token is this one (repeat for any of several).")
@click.option("--turns", default=None, metavar="LOW..HIGH",
              help="The main line has this many turns (N, LOW..HIGH, LOW.., ..HIGH).")
@click.option("--records", default=None, metavar="LOW..HIGH",
              help="The record's place in its file (1 is the first) lies in this range.")
@click.option("--valid", is_flag=True, help="The record checks.")
@click.option("--broken", is_flag=True, help="The record does not check.")
@click.option("--error", "errors", multiple=True, metavar="KIND|CODE",
              help="The record does not check, with an error of this kind (syntax, illegal, "
                   "result) or code (docs/errors.md); repeat for any of several.")
@click.option("--position", "positions", multiple=True, metavar="POSITION",
              help="The game passes through this position (a position string, as "
                   "`show --position` prints it).")
@click.option("--move", "moves", multiple=True, metavar="MOVE",
              help="The main line contains this move (spelt any way the game reads it).")
@click.option("--anywhere", is_flag=True,
              help="--move and --position look in variations too.")
@click.option("--any", "any_of", is_flag=True,
              help="Keep records that meet any criterion (default: all of them).")
@click.option("--invert", is_flag=True, help="Keep the records that are not selected.")
@click.option("--count", is_flag=True, help="Print only how many records are selected.")
@to_option
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write here (whole or not at all) instead of standard output.")
@click.option("-q", "--quiet", is_flag=True, help="No summary on standard error.")
@game_option
def command(
    files: tuple[str, ...],
    tags: tuple[str, ...],
    tag_matches: tuple[str, ...],
    tag_ranges: tuple[str, ...],
    results: tuple[str, ...],
    turns: str | None,
    records: str | None,
    valid: bool,
    broken: bool,
    errors: tuple[str, ...],
    positions: tuple[str, ...],
    moves: tuple[str, ...],
    anywhere: bool,
    any_of: bool,
    invert: bool,
    count: bool,
    to: str | None,
    output: str | None,
    quiet: bool,
    game: str | None,
) -> None:
    """Keep the records of FILES that meet every criterion given.

    A record is kept when it meets all the criteria (--any: at least one; --invert:
    the others are kept instead).  Kept records are written exactly as they were
    written, byte for byte, or converted with --to.  A summary goes to standard
    error.  Example:

        notation select games.txt --tag White=Freeling --result 1-0 --turns 40..
    """
    # The criteria the options ask for (usage errors as click's).
    criteria: list[Criterion] = []
    for text in tags:
        criteria.append(TagEquals(*_name_value(text, "--tag")))
    for text in tag_matches:
        name, pattern = _name_value(text, "--tag-match")
        try:
            criteria.append(TagMatches(name, re.compile(pattern)))
        except re.error as exc:
            raise click.BadParameter(
                f"{pattern!r} is not a regular expression: {exc}", param_hint="--tag-match"
            ) from None
    for text in tag_ranges:
        name, bounds = _name_value(text, "--tag-range")
        try:
            low, high = parse_range(bounds)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--tag-range") from None
        criteria.append(TagIn(name, low, high))
    if results:
        criteria.append(ResultIs(frozenset(results)))
    if turns is not None:
        criteria.append(TurnsIn(*_int_range(turns, "--turns")))
    if records is not None:
        criteria.append(NumberIn(*_int_range(records, "--records")))
    if valid and (broken or errors):
        raise click.UsageError("--valid and --broken (or --error) do not go together")
    if valid:
        criteria.append(IsValid())
    if broken or errors:
        kinds = frozenset(e for e in errors if e in {str(k) for k in ErrorKind})
        codes = frozenset(errors) - kinds
        criteria.append(IsBroken(kinds, codes))
    criteria.extend(ReachesPosition(p, anywhere) for p in positions)
    criteria.extend(HasMove(m, anywhere) for m in moves)
    selection = Selection(tuple(criteria), any_of=any_of, invert=invert)
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)
    seen = kept = 0
    with atomic_output(None if count else output) as out:
        writer = Writer(out, to, game)
        for _, item in all_written_records(sources, "selecting"):
            seen += 1
            facts = Facts(item.record, item.record.index or seen, game)
            if not selection.matches(facts):
                continue
            kept += 1
            if not count:
                writer.write(item)
        if count:
            out.write(f"{kept}\n")
    summary(f"select: kept {kept} of {records_word(seen)}", quiet or count)
