"""``notation stats``: results, lengths, first moves, players and Elo ratings of a
collection, for people (a report) or programs (``--format json``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import click

from notation.collections.batch import TextSource, summarise_paths
from notation.collections.stats import ELO_K, ELO_START, GameSummary, Summary
from notation.commands.common import (
    expand_sources,
    files_argument,
    game_option,
    stdin_lines,
    warn_not_utf8,
)
from notation.games import get_game

#: The widest bar of the length histogram, in characters (fits 80 columns with labels).
BAR = 40


@click.command("stats")
@files_argument
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: a report; json: one JSON object.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many first moves and players the report lists.")
@click.option("--bins", type=click.IntRange(min=1, max=100), default=10, show_default=True,
              help="How many bars the histogram of game lengths has.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Summarise with this many processes (default: one per free core). The "
                   "statistics are the same whatever the number.")
@game_option
def command(
    files: tuple[str, ...], fmt: str, top: int, bins: int, jobs: int | None, game: str | None
) -> None:
    """Statistics of the records in FILES, by game.

    For each game: how many records, how many broken (left out of what follows),
    results by side (for Zombie Kidz by players and zombies), a histogram of game
    lengths in turns, the most frequent first moves, and per-player scores with Elo
    ratings from the player tags of decided two-player games (start 1200, K 30, in
    the order of the input, as AbstractPlay's basic rater; a game against oneself
    is not rated).
    """
    inputs = [
        source.name if source.path is not None else TextSource(source.name, stdin_lines())
        for source in expand_sources(files)
    ]
    summary = summarise_paths(inputs, jobs=jobs, default_game=game, on_not_utf8=warn_not_utf8)
    if fmt == "json":
        click.echo(json.dumps(summary.to_dict(), ensure_ascii=False))
        return
    for line in report(summary, top, bins):
        click.echo(line)


def report(summary: Summary, top: int = 10, bins: int = 10) -> Iterator[str]:
    """The text report of ``summary``, line by line (no line wider than 80 columns,
    except for long player names)."""
    yield f"{_count(summary.records, 'record')}"
    if summary.no_game:
        yield f"  {_count(summary.no_game, 'record')} without a known game (left out)"
    for name, games in sorted(summary.games.items()):
        yield ""
        yield from _game_report(name, games, top, bins)


def _game_report(name: str, games: GameSummary, top: int, bins: int) -> Iterator[str]:
    game = get_game(name)
    valid = games.records - games.broken
    yield f"{game.title}: {_count(games.records, 'record')}, {games.broken} broken"
    if games.errors:
        yield "  broken by error code: " + ", ".join(
            f"{code} {count}" for code, count in games.errors.most_common()
        )
    if not valid:
        return
    yield ""
    yield "Results"
    by_variant: dict[str, Counter[str]] = {}
    for (variant, result), count in games.results.items():
        by_variant.setdefault(variant, Counter())[result] += count
    for variant, results in sorted(by_variant.items()):
        total = sum(results.values())
        if variant:
            yield f"  {variant} ({_count(total, 'record')})"
        for result in sorted(results, key=lambda r: (r == "*", r)):
            meaning = game.result_names.get(result, "unfinished")
            count = results[result]
            yield f"    {result:<8} {meaning:<24} {count:>7}  {100 * count / total:5.1f}%"
    yield ""
    yield from _lengths(games.lengths, bins)
    if games.first_moves:
        yield ""
        yield f"First moves (top {min(top, len(games.first_moves))} of {len(games.first_moves)})"
        for move, count in games.first_moves.most_common(top):
            yield f"  {move:<16} {count:>7}  {100 * count / valid:5.1f}%"
    if games.players:
        elo = games.elo()
        ranked = sorted(
            games.players.items(),
            key=lambda item: (-elo.get(item[0], ELO_START), -item[1].points, item[0]),
        )
        yield ""
        yield f"Players (top {min(top, len(ranked))} of {len(ranked)}, Elo from {ELO_START:.0f}, " \
              f"K {ELO_K:.0f})"
        yield f"  {'player':<24} {'games':>6} {'won':>6} {'lost':>6} {'drawn':>6} " \
              f"{'points':>7} {'Elo':>6}"
        for player, score in ranked[:top]:
            rating = f"{elo[player]:.0f}" if player in elo else "-"
            yield f"  {player:<24} {score.games:>6} {score.wins:>6} {score.losses:>6} " \
                  f"{score.draws:>6} {score.points:>7g} {rating:>6}"


def _lengths(lengths: Counter[int], bins: int) -> Iterator[str]:
    if not lengths:
        return
    low, high = min(lengths), max(lengths)
    total = sum(lengths.values())
    mean = sum(length * count for length, count in lengths.items()) / total
    yield (
        f"Lengths in turns: shortest {low}, median {_median(lengths, total):g}, "
        f"mean {mean:.1f}, longest {high}"
    )
    width = max(1, -(-(high - low + 1) // bins))
    counts: Counter[int] = Counter()
    for length, count in lengths.items():
        counts[(length - low) // width] += count
    most = max(counts.values())
    for i in range((high - low) // width + 1):
        start = low + i * width
        label = f"{start}" if width == 1 else f"{start}-{start + width - 1}"
        bar = "#" * round(BAR * counts[i] / most)
        yield f"  {label:>9} {counts[i]:>7} {bar}".rstrip()


def _median(counts: Counter[int], total: int) -> float:
    """The median of the values ``counts`` counts, without listing them."""
    middle = [(total - 1) // 2, total // 2]  # the one or two middle places
    found: list[int] = []
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        while middle and middle[0] < seen:
            found.append(value)
            middle.pop(0)
    return (found[0] + found[1]) / 2


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
