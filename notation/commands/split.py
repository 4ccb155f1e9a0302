"""``notation split``: one file into several, every N records or by a tag's value."""

from __future__ import annotations

import os
import string
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path
from typing import TextIO

import click

from notation.collections.operations import split_key
from notation.commands._collection import (
    Writer,
    all_written_records,
    records_word,
    summary,
    to_option,
)
from notation.commands.common import (
    ShownPath,
    UsageProblem,
    expand_sources,
    file_error,
    files_argument,
    game_option,
)
from notation.errors import display_path
from notation.files import savefile
from notation.files.textfile import COMPRESSED_SUFFIXES

#: Output files kept open at once when splitting by a tag with many values: the
#: others are closed and opened again to append.
OPEN_FILES = 32
PLACES = ("n", "tag", "stem")


def _check_pattern(pattern: str) -> None:
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(pattern) if name is not None}
    except ValueError as exc:
        raise click.BadParameter(f"{pattern!r}: {exc}", param_hint="--pattern") from None
    unknown = fields - set(PLACES)
    if unknown:
        raise click.BadParameter(
            f"{pattern!r} uses {{{sorted(unknown)[0]}}}; the fields are "
            + ", ".join("{" + p + "}" for p in PLACES),
            param_hint="--pattern",
        )
    try:
        pattern.format(n=1, tag="x", stem="x")
    except (ValueError, IndexError, KeyError) as exc:
        raise click.BadParameter(f"{pattern!r}: {exc}", param_hint="--pattern") from None
    if "n" not in fields and "tag" not in fields:
        raise click.BadParameter(
            f"{pattern!r} names one file only: put {{n}} or {{tag}} in it", param_hint="--pattern"
        )


def _stem(name: str) -> str:
    """A file's name without its suffixes of records and compression (``games.txt.gz``:
    ``games``)."""
    path = Path(name)
    if path.suffix.lower() in COMPRESSED_SUFFIXES:
        path = path.with_suffix("")
    return path.stem


class _Outputs:
    """The output files, each written to a temporary file of its own beside its final
    name (:func:`notation.files.savefile.temporary_beside`: a unique name, made empty) and
    moved there only when everything was written: a split that fails or is interrupted
    leaves no half file under a final name, and never builds on what an earlier one
    left behind."""

    def __init__(self, to: str | None, game: str | None) -> None:
        self.to = to
        self.game = game
        # final name -> where it is saved, and its temporary file
        self.temps: dict[Path, tuple[savefile.Destination, str]] = {}
        self.writers: dict[Path, Writer] = {}
        self.open: OrderedDict[Path, TextIO] = OrderedDict()

    def writer(self, final: Path) -> Writer:
        handle = self.open.get(final)
        if handle is not None:
            self.open.move_to_end(final)
            return self.writers[final]
        if len(self.open) >= OPEN_FILES:
            _, oldest = self.open.popitem(last=False)
            oldest.close()
        try:
            if final in self.temps:  # written before, closed to keep few open
                temp = self.temps[final][1]
                handle = open(temp, "a", encoding="utf-8", newline="\n")  # noqa: SIM115
            else:
                final.parent.mkdir(parents=True, exist_ok=True)
                where = savefile.where_saved(final)
                if not where.replace:
                    raise UsageProblem(
                        f"{display_path(str(final))} is not a regular file; split writes files"
                    )
                fd, temp = savefile.temporary_beside(where)
                self.temps[final] = (where, temp)
                handle = open(fd, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as exc:
            raise file_error(str(final), exc) from None
        self.open[final] = handle
        writer = self.writers.setdefault(final, Writer(handle, self.to, self.game))
        writer.out = handle
        return writer

    def close(self, keep: bool) -> None:
        """Close the files; then move each to its final name (``keep``), or remove them.
        If a move fails, the files already moved that did not exist before are removed
        again, and the error is raised."""
        failed: click.ClickException | None = None
        for final, handle in self.open.items():
            try:
                handle.close()  # the last of its text written: a full disk says so here
            except OSError as exc:
                failed = failed or file_error(str(final), exc)
        self.open.clear()
        if keep and failed is None:
            self._commit()
            return
        self._discard()
        if keep and failed is not None:  # (not keep: the split's own error is on its way)
            raise failed

    def _commit(self) -> None:
        created: list[str] = []
        try:
            for where, temp in self.temps.values():
                existed = os.path.lexists(where.path)
                savefile.commit(temp, where)
                if not existed:
                    created.append(where.path)
        except BaseException:
            for path in created:
                with suppress(OSError):
                    os.unlink(path)
            self._discard()
            raise

    def _discard(self) -> None:
        for _, temp in self.temps.values():
            with suppress(OSError):
                os.unlink(temp)


@click.command("split")
@files_argument
@click.option("-n", "--every", type=click.IntRange(min=1), default=None, metavar="N",
              help="A new file every N records.")
@click.option("-t", "--by-tag", "tag", default=None, metavar="NAME",
              help="One file per value of the tag NAME (records without it: 'unknown').")
@click.option("-p", "--pattern", default=None,
              help="The output files' names: {n} the file's number (1, 2...), {tag} the "
                   "tag's value (made safe for a file name), {stem} the input file's name "
                   "without its suffix; format specs work ({n:03}). Default: "
                   "'{stem}-{n:03}.txt' or '{stem}-{tag}.txt'.")
@click.option("-d", "--directory", default=".", show_default=True,
              type=ShownPath(file_okay=False),
              help="Write the files in this folder (made if missing).")
@click.option("-f", "--force", is_flag=True, help="Replace output files that exist.")
@to_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on standard error.")
@game_option
def command(
    files: tuple[str, ...],
    every: int | None,
    tag: str | None,
    pattern: str | None,
    directory: str,
    force: bool,
    to: str | None,
    quiet: bool,
    game: str | None,
) -> None:
    """Split the records of FILES into several files, every N records or by a tag.

    Records are written exactly as they were, byte for byte, or converted with
    --to; none is lost or changed.  Existing files are not replaced without
    --force, and a split that fails part-way leaves no output file behind.
    Examples:

        notation split games.txt --every 1000

        notation split games.txt --by-tag Event --pattern 'event-{tag}.txt'
    """
    if (every is None) == (tag is None):
        raise click.UsageError("give one of --every N and --by-tag NAME")
    suffix = ".jsonl" if to == "json" else ".txt"
    if pattern is None:
        pattern = "{stem}-{n:03}" + suffix if every is not None else "{stem}-{tag}" + suffix
    _check_pattern(pattern)
    sources = expand_sources(files)
    inputs = {s.path.resolve() for s in sources if s.path is not None}
    folder = Path(directory)
    outputs = _Outputs(to, game)
    total = 0
    numbers: dict[str, int] = {}
    ok = False
    try:
        for source, item in all_written_records(sources, "splitting"):
            stem = _stem(source.name) if source.path is not None else "stdin"
            total += 1
            key = split_key(item.record, total, every, tag)
            # {n}: the file's number, in the order the files are first written
            n = numbers.setdefault(key, len(numbers) + 1)
            name = pattern.format(n=n, tag=key, stem=stem)
            final = folder / name
            if final not in outputs.temps:
                if final.resolve() in inputs:
                    raise UsageProblem(f"{final} is also an input; choose another --pattern")
                if final.exists() and not force:
                    raise UsageProblem(f"{final} exists; use --force to replace it")
            outputs.writer(final).write(item)
        ok = True
    finally:
        outputs.close(keep=ok)
    summary(f"split: wrote {records_word(total)} into {len(outputs.temps)} "
            f"file{'' if len(outputs.temps) == 1 else 's'} in {display_path(str(folder))}", quiet)
