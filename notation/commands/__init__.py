"""The subcommands of ``notation``: one module each, found automatically.

A module here that defines ``command`` (a ``click.Command``) becomes
``notation <command.name>``; helpers shared by several commands live in
:mod:`notation.commands.common`.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def all_commands() -> list[click.Command]:
    """Every subcommand: the ``command`` of each module here, sorted by name."""
    found: list[click.Command] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name == "common" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            found.append(command)
    return sorted(found, key=lambda c: c.name or "")
