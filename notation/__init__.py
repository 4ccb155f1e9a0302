"""Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

The everyday names are here, as ``import chess`` gives chess's::

    import notation

    for record in notation.read_file("games.txt"):
        verdict = notation.check_record(record)
        print(verdict.ok, verdict.error)

They are loaded on first use (``notation.read_file`` imports the reader then), so
that ``import notation`` and the command line start fast; type checkers see them all
(the package ships ``py.typed``).

A record goes from text to a verdict and back to canonical text in three calls:

>>> import notation
>>> (record,) = notation.read_string('[Game "cave"]\\n\\n1.b1 b5   2.b1-c1 *\\n')
>>> verdict = notation.check_record(record)
>>> verdict.ok, verdict.game, verdict.turns, verdict.result
(True, 'cave', 3, '*')
>>> print(notation.write_record(record), end="")
[Game "cave"]
<BLANKLINE>
1. b1 b5 2. b1-c1 *

A broken record's verdict says what is wrong and where, as ``notation check`` does:

>>> (broken,) = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 2. b1-b0 *\\n')
>>> print(notation.check_record(broken).error)
<input>:3:13: record 1, turn 3 (b1-b0): b0 is not a square of the Cave board (a1-d5)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name of the facade, and the module it lives in.
_HOME = {
    # reading and writing records
    "read_file": "notation.reader",
    "read_string": "notation.reader",
    "read_records": "notation.reader",
    "read_headers": "notation.collections.index",
    "RecordHeaders": "notation.collections.index",
    "read_any_records": "notation.formats.convert",
    "read_json_records": "notation.formats.convert",
    "convert_record": "notation.formats.convert",
    "write_record": "notation.writer",
    "annotate_record": "notation.formats.annotate",
    # entering a record move by move, and keeping it in a file
    "RecordEditor": "notation.editing.editor",
    "RecordFile": "notation.editing.recordfile",
    # the record tree and walking it
    "Record": "notation.record",
    "MoveNode": "notation.record",
    "Variation": "notation.record",
    "Comment": "notation.record",
    "Tag": "notation.record",
    "walk_record": "notation.visitor",
    "RecordVisitor": "notation.visitor",
    "TreeBuilder": "notation.visitor",
    "SKIP": "notation.visitor",
    "visit_records": "notation.reader",
    "Replay": "notation.replay",
    # checking and replaying
    "check_record": "notation.replay",
    "Verdict": "notation.replay",
    "ReplayVisitor": "notation.replay",
    "check_paths": "notation.collections.batch",
    "Stepper": "notation.stepper",
    # games
    "get_game": "notation.games",
    "all_games": "notation.games",
    "Game": "notation.games.base",
    "Position": "notation.games.base",
    "BoardView": "notation.games.view",
    # playing: bots and the referee
    "play": "notation.collections.referee",
    "random_bot": "notation.collections.referee",
    "Bot": "notation.collections.referee",
    "Player": "notation.collections.referee",
    # errors: values, and the exceptions (all derive from NotationException)
    "Defect": "notation.errors",
    "ErrorKind": "notation.errors",
    "NotationException": "notation.errors",
    "MoveSyntaxError": "notation.errors",
    "IllegalMoveError": "notation.errors",
    "MisuseError": "notation.errors",
    "TagValueError": "notation.errors",
    "UnknownGameError": "notation.games",
    "StepperError": "notation.stepper",
    "UnwritableRecord": "notation.writer",
    "EditError": "notation.editing.editor",
    "RecordFileError": "notation.editing.recordfile",
    "FileChangedError": "notation.editing.recordfile",
    "FileBusyError": "notation.editing.recordfile",
}

#: Names kept for old code, each with the name it now has (not in ``__all__``).
_OLD_NAMES = {"NotationError": "Defect"}

__all__ = [
    "SKIP",
    "BoardView",
    "Bot",
    "Comment",
    "Defect",
    "EditError",
    "ErrorKind",
    "FileBusyError",
    "FileChangedError",
    "Game",
    "IllegalMoveError",
    "MisuseError",
    "MoveNode",
    "MoveSyntaxError",
    "NotationException",
    "Player",
    "Position",
    "Record",
    "RecordEditor",
    "RecordFile",
    "RecordFileError",
    "RecordHeaders",
    "RecordVisitor",
    "Replay",
    "ReplayVisitor",
    "Stepper",
    "StepperError",
    "Tag",
    "TagValueError",
    "TreeBuilder",
    "UnknownGameError",
    "UnwritableRecord",
    "Variation",
    "Verdict",
    "__version__",
    "all_games",
    "annotate_record",
    "check_paths",
    "check_record",
    "convert_record",
    "get_game",
    "play",
    "random_bot",
    "read_any_records",
    "read_file",
    "read_headers",
    "read_json_records",
    "read_records",
    "read_string",
    "visit_records",
    "walk_record",
    "write_record",
]

if TYPE_CHECKING:
    from notation.collections.batch import check_paths
    from notation.collections.index import RecordHeaders, read_headers
    from notation.collections.referee import Bot, Player, play, random_bot
    from notation.editing.editor import EditError, RecordEditor
    from notation.editing.recordfile import (
        FileBusyError,
        FileChangedError,
        RecordFile,
        RecordFileError,
    )
    from notation.errors import (
        Defect,
        ErrorKind,
        IllegalMoveError,
        MisuseError,
        MoveSyntaxError,
        NotationException,
        TagValueError,
    )
    from notation.errors import (
        NotationError as NotationError,
    )
    from notation.formats.annotate import annotate_record
    from notation.formats.convert import convert_record, read_any_records, read_json_records
    from notation.games import UnknownGameError, all_games, get_game
    from notation.games.base import Game, Position
    from notation.games.view import BoardView
    from notation.reader import read_file, read_records, read_string
    from notation.record import Comment, MoveNode, Record, Tag, Variation
    from notation.replay import Replay, ReplayVisitor, Verdict, check_record
    from notation.stepper import Stepper, StepperError
    from notation.visitor import SKIP, RecordVisitor, TreeBuilder, walk_record
    from notation.writer import UnwritableRecord, write_record


#: The module that fills each slot (see :func:`plug_in`).
_PLUG_INS = {"play": "notation.replay", "game codes": "notation.games"}


def plug_in(slot: str) -> None:
    """Import the module that fills ``slot``: a global of a lower layer, which may not
    import that upper module, set by it when it is imported (``record.play_layer``,
    ``errors.game_codes``, ``games.base.game_finder``); the lower layer calls this the
    first time it finds the slot empty."""
    importlib.import_module(_PLUG_INS[slot])


def __getattr__(name: str) -> Any:
    """Load a facade name from its module on first use."""
    home = _HOME.get(_OLD_NAMES.get(name, name))
    if home is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), _OLD_NAMES.get(name, name))
    globals()[name] = value  # the next use is a plain lookup
    return value


#: The modules that moved into the layers' folders (issue 40), by their old names: an
#: old import (``import notation.allcheck``) still works, and warns that it moved.
MOVED = {
    "notation.allcheck": "notation.checking.every_defect",
    "notation.annotate": "notation.formats.annotate",
    "notation.batch": "notation.collections.batch",
    "notation.checkrun": "notation.cli.check_report",
    "notation.cliio": "notation.files.console",
    "notation.collection": "notation.collections.operations",
    "notation.convert": "notation.formats.convert",
    "notation.document": "notation.editing.buffer",
    "notation.editor": "notation.editing.editor",
    "notation.fixcheck": "notation.editing.fix_holds",
    "notation.generate": "notation.collections.generate",
    "notation.grammar": "notation.games.grammar",
    "notation.index": "notation.collections.index",
    "notation.jsontext": "notation.formats.jsontext",
    "notation.jsonwriter": "notation.formats.jsonwriter",
    "notation.locate": "notation.editing.places",
    "notation.mends": "notation.editing.mends",
    "notation.movefix": "notation.checking.move_fix",
    "notation.offers": "notation.editing.completions",
    "notation.recordfile": "notation.editing.recordfile",
    "notation.referee": "notation.collections.referee",
    "notation.savefile": "notation.files.savefile",
    "notation.showtext": "notation.render.plain_text",
    "notation.slips": "notation.checking.slips",
    "notation.stats": "notation.collections.stats",
    "notation.strict": "notation.checking.canonical_form",
    "notation.textio": "notation.files.textfile",
    "notation.view": "notation.games.view",
}


class _MovedModules:
    """Finds a module by its old name (:data:`MOVED`): the module of the new name,
    imported, under both names.  Asked last (after the folders of the package), so it
    costs nothing to any other import."""

    def __init__(self) -> None:
        self.specs: dict[str, Any] = {}  # each moved module's own spec, by its new name

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name not in MOVED:
            return None
        import importlib.util

        loader: Any = self  # a loader by what it does (create_module, exec_module)
        return importlib.util.spec_from_loader(name, loader)

    def create_module(self, spec: Any) -> Any:
        import warnings

        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self.specs[new] = module.__spec__
        return module

    def exec_module(self, module: Any) -> None:
        """Nothing to run (the module ran under its new name), but its own spec to give
        back: the import system set the old name's on it."""
        module.__spec__ = self.specs[module.__name__]


def _install_moved_modules() -> None:
    import sys

    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())


_install_moved_modules()

#: What this module imports to do its work: not names of the library, so not in ``dir()``.
_IMPLEMENTATION = frozenset({"annotations", "importlib", "TYPE_CHECKING", "Any", "MOVED"})


def __dir__() -> list[str]:
    """The facade's names (loaded or not), the submodules loaded and the module's own
    attributes; not what it imports to do its work (``importlib``, ``Any``...)."""
    return sorted({*globals(), *_HOME} - _IMPLEMENTATION)
