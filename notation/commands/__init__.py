"""The subcommands of ``notation``: one module each, found automatically, and imported
only when used.

A module here that defines ``command`` (a ``click.Command`` of the module's name)
becomes ``notation <name>``; helpers shared by several commands live in
:mod:`notation.commands.common` and in modules whose names start with ``_``.

Start-up time matters (``notation check`` of a small file is mostly start-up): a
command's module, and what it imports, is loaded only when that command runs
(``notation --help`` loads them all, to list them).

With :mod:`notation.cli` this is the top layer: it may import every layer of the
package, and no layer imports it.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def command_names() -> list[str]:
    """The names of every subcommand, sorted, without importing them."""
    return sorted(
        info.name
        for info in pkgutil.iter_modules(__path__)
        if info.name != "common" and not info.name.startswith("_")
    )


def load_command(name: str) -> click.Command | None:
    """The subcommand ``name``, its module imported now; ``None`` for no such command."""
    if name not in command_names():
        return None
    module = importlib.import_module(f"{__name__}.{name}")
    command = getattr(module, "command", None)
    return command if isinstance(command, click.Command) else None
