"""The ``notation`` command: a thin shell over the library.

Each subcommand is a module of :mod:`notation.commands`.  Exit codes: 0 all is
well, 1 some record is broken, 2 the command itself was used wrongly (unknown
option, missing file...), 130 interrupted, 141 the reader of the output went away.

This package is the command line's shell: :func:`main` (the ``notation`` script) and
:mod:`~notation.cli.check_report` (the body of ``notation check``, without click).
With :mod:`notation.commands` it is the top layer: it may import every layer, and no
layer imports it.
"""

from __future__ import annotations

import errno
import os
import sys
import warnings
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from notation import __version__

if TYPE_CHECKING:
    import click

    #: The command group (``from notation.cli import cli``), made on first use: a plain
    #: `notation check FILE...` runs without click (_fast_check).
    cli: click.Group

#: The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130
#: The exit code of a command whose reader went away (``notation convert f | head``):
#: 128 + SIGPIPE, as shells report for `cat`, never 1, which says a record is broken.
BROKEN_PIPE = 141
#: What a command says when memory runs out (exit 2, as for a file it cannot read).
OUT_OF_MEMORY = (
    "Error: out of memory: a record of the input is too big to hold whole "
    "(is this a file of records?)\n"
)


def _silence_stdout() -> None:
    """Send what is left of standard output nowhere: the reader is gone, and the flush
    at exit would fail again ("Exception ignored ... BrokenPipeError")."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # not a file (an embedding program)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def __getattr__(name: str) -> Any:
    """``cli``, the command group, made on first use."""
    if name == "cli":
        return _group()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _group() -> click.Group:
    """The ``notation`` command group, made (and click imported) on first call."""
    import click

    from notation.commands import command_names, load_command

    class _Notation(click.Group):
        """The command group, which loads a command only when it runs (see
        :mod:`notation.commands`) and ends an interrupted or failing command with a
        message."""

        def list_commands(self, ctx: click.Context) -> list[str]:
            return command_names()

        def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
            return load_command(cmd_name)

        def invoke(self, ctx: click.Context) -> Any:
            try:
                with warnings.catch_warnings():
                    _show_notices_as_notes()
                    return super().invoke(ctx)
            except KeyboardInterrupt:
                # click would say "Aborted!" and exit 1, the code of a broken record.
                click.echo("interrupted", err=True)
                ctx.exit(INTERRUPTED)
            except OSError as exc:
                if exc.errno == errno.EPIPE:
                    # The reader of our output went away.  click would exit 1, the code
                    # of a broken record: exit as `cat` does in a closed pipe instead.
                    _silence_stdout()
                    ctx.exit(BROKEN_PIPE)
                # A file that vanished or cannot be read mid-way, a full disk under -o.
                raise _usage_problem(exc) from None

    @click.group(cls=_Notation, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="notation")
    def cli() -> None:
        """Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

        Records are PGN-like text files holding one or more games; see
        docs/record-format.md.  Run `notation COMMAND --help` for each command.
        """

    return cli


def _show_notices_as_notes() -> None:
    """Inside ``warnings.catch_warnings()``: a :class:`~notation.errors.LongWorkNotice`
    (work that takes long once, about to begin) is said on standard error as
    ``note: ...``; any other warning as Python says it."""
    from notation.errors import LongWorkNotice

    shown = warnings.showwarning

    def show(
        message: Warning | str, category: type[Warning], filename: str, lineno: int,
        file: Any = None, line: str | None = None,
    ) -> None:
        if issubclass(category, LongWorkNotice):
            from notation.files.console import echo_err

            echo_err(f"note: {message}")
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def _usage_problem(exc: OSError) -> click.ClickException:
    """An ``OSError`` that is not a closed pipe, as the usage error (exit 2) it ends a
    command with: a file that vanished or cannot be read, a full disk."""
    from notation.commands.common import UsageProblem, file_error

    if exc.filename is not None:
        return file_error(str(exc.filename), exc)
    return UsageProblem(exc.strerror or str(exc))


# -- the fast path of `notation check` -------------------------------------------------


def _fast_check(args: list[str]) -> Callable[[], int] | None:
    """``notation check`` as click would run it for ``args`` (the command line after
    the program's name), when they are of the plain form read here without click:
    ``check``, readable regular files (no leading ``-``), ``-v``/``--verbose``,
    ``--strict``, ``--format text|json``, ``-j``/``--jobs N``, ``--game NAME``.  ``None``
    for anything else: click reads it, and says what is wrong.
    """
    if len(args) < 2 or args[0] != "check":
        return None
    if any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ):
        return None  # a shell asking for completions: click answers
    files: list[str] = []
    values: dict[str, str] = {}
    flags = {"verbose": False, "strict": False}
    rest = iter(args[1:])
    for arg in rest:
        if not arg.startswith("-"):
            if not _readable_file(arg):
                return None
            files.append(arg)
            continue
        name, equals, value = arg.partition("=")
        if name in ("-v", "--verbose", "--strict") and not equals:
            flags["strict" if name == "--strict" else "verbose"] = True
            continue
        option = {"--format": "format", "-j": "jobs", "--jobs": "jobs", "--game": "game"}.get(
            name
        )
        if option is None or (equals and name == "-j"):
            return None
        if not equals:
            value = next(rest, "-")
        if value.startswith("-") or not value:
            return None
        values[option] = value  # the last one wins, as in click
    if not files:
        return None
    fmt = values.get("format", "text")
    if fmt not in ("text", "json"):
        return None
    jobs: int | None = None
    if "jobs" in values:
        digits = values["jobs"]
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
            return None  # click reads (or refuses) numbers of other forms
        jobs = int(digits)
        if jobs < 1:
            return None
    game: str | None = None
    if "game" in values:
        try:
            from notation.games import canonical_name

            game = canonical_name(values["game"])
        except Exception:  # a misspelt name (or worse): click says what is wrong
            return None

    def run() -> int:
        from notation.cli.check_report import run_check

        return run_check(
            files, game=game, fmt=fmt, verbose=flags["verbose"], strict=flags["strict"], jobs=jobs
        )

    return run


def _readable_file(name: str) -> bool:
    """Whether ``name`` is a regular file that click's ``Path(exists=True)`` takes."""
    import stat

    try:
        return stat.S_ISREG(os.stat(name).st_mode) and os.access(name, os.R_OK)
    except (OSError, ValueError):  # missing, or a name no file can have
        return False


def _run_fast(run: Callable[[], int]) -> int:
    """The exit code of the fast path's ``run``, its failures ended as the command
    group ends a command's (see ``_Notation.invoke``).  The garbage collector runs as
    :func:`notation.collections.workers.collecting_less` makes it from the start, and
    every object is frozen at the end, so that the collection at exit finds nothing to
    look at.
    """
    import gc

    gc.set_threshold(50_000, 10, 10)
    try:
        return _ended(run)
    finally:
        gc.freeze()


def _ended(run: Callable[[], int]) -> int:
    try:
        return run()
    except KeyboardInterrupt:
        from notation.files.console import echo_err

        echo_err("interrupted")
        return INTERRUPTED
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _silence_stdout()
            return BROKEN_PIPE
        problem = _usage_problem(exc)  # click, now that it is needed to say so
        problem.show()
        return problem.exit_code


def main() -> None:
    """Entry point of the ``notation`` console script."""
    # Started with standard output or error closed (``notation check x >&-``), Python
    # has None there: what would go to them goes nowhere, as to a reader gone away.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    try:
        try:
            fast = _fast_check(sys.argv[1:])
            if fast is not None:
                sys.exit(_run_fast(fast))
            _group()(standalone_mode=True)
        finally:
            # Flush here, not at exit: a reader gone by then gets a quiet exit below
            # instead of "Exception ignored ... BrokenPipeError" from the interpreter.
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader of our output went away (``notation check ... | head``): stop quietly.
        _silence_stdout()
        sys.exit(BROKEN_PIPE)
    except KeyboardInterrupt:  # before or after a command runs (the group handles it within)
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    except MemoryError:  # a record is held whole while it is read
        sys.stderr.write(OUT_OF_MEMORY)
        sys.exit(2)  # as for a file that cannot be read


if __name__ == "__main__":
    main()
