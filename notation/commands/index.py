"""``notation index``: write beside a record file where its records are, so that
``show``, ``diagram``, ``analyze``, ``replay`` and ``html`` reach record N of it at once.

The index (``FILE.idx``, :mod:`notation.collections.index`) holds where every chunk of the file
starts and what tells this version of the file from another: one out of date is
never used (the commands say so and read the file without it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from notation.commands.common import RECORD_SUFFIXES, ShownPath, expand_sources
from notation.errors import display_path
from notation.files.textfile import is_compressed

__all__ = ["command"]


@click.command("index")
@click.argument("files", nargs=-1, required=True, type=ShownPath(allow_dash=True))
@click.option("-q", "--quiet", is_flag=True, help="Say nothing of the files indexed.")
def command(files: tuple[str, ...], quiet: bool) -> None:
    """Index FILES so that `--record N` reaches any record of them at once.

    Writes FILE.idx beside each file (in a folder that cannot be written: under the
    cache folder, ~/.cache/notation/index).  A folder stands for its record files
    (compressed ones are left out: an index is of places to seek to).  show,
    diagram, analyze, replay and html use an index that is up to date for
    --record, and ignore, with a warning, one that is not; run this again after
    changing a file.
    """
    from notation.collections.index import IndexProblem, build_index, write_index

    if "-" in files:
        raise click.UsageError(
            "standard input cannot be indexed: an index is of places in a file; "
            "save it to a file and index that"
        )
    paths: list[Path] = []
    for name in files:
        path = Path(name)
        if not path.exists():
            raise click.BadParameter(
                f"{display_path(name)}: no such file or folder", param_hint="FILES"
            )
        if path.is_dir():
            found = [
                source.path for source in expand_sources((name,))
                if source.path is not None and not is_compressed(source.path)
            ]
            if not found:
                suffixes = ", ".join(f"*{suffix}" for suffix in RECORD_SUFFIXES)
                raise click.UsageError(
                    f"{display_path(name)}: no uncompressed record files ({suffixes})"
                )
            paths.extend(found)
        elif not path.is_file():
            raise click.BadParameter(
                f"{display_path(name)} is not a regular file (a pipe, a device): "
                "it cannot be indexed",
                param_hint="FILES",
            )
        else:
            paths.append(path)
    failed = 0
    for path in paths:
        try:
            index = build_index(path)
            written, beside = write_index(path, index)
        except IndexProblem as exc:
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        except OSError as exc:
            click.echo(f"error: {display_path(str(path))}: {exc.strerror or exc}", err=True)
            failed += 1
            continue
        if not quiet:
            count = index.records
            where = display_path(written.name if beside else str(written))
            if not beside:
                where += f" ({display_path(str(path.parent))} cannot be written)"
            shown = display_path(str(path))
            click.echo(f"{shown}: {count} record{'' if count == 1 else 's'}, index in {where}")
    sys.exit(2 if failed else 0)
