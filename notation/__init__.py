"""Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

The everyday names are here, as ``import chess`` gives chess's::

    import notation

    for record in notation.read_file("games.txt"):
        verdict = notation.check_record(record)
        print(verdict.ok, verdict.error)

They are loaded on first use (``notation.read_file`` imports the reader then), so
that ``import notation`` and the command line start fast; type checkers see them all
(the package ships ``py.typed``).
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
    "read_headers": "notation.index",
    "RecordHeaders": "notation.index",
    "read_any_records": "notation.convert",
    "read_json_records": "notation.convert",
    "convert_record": "notation.convert",
    "write_record": "notation.writer",
    "annotate_record": "notation.annotate",
    # entering a record move by move, and keeping it in a file
    "RecordEditor": "notation.editor",
    "RecordFile": "notation.recordfile",
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
    "check_paths": "notation.batch",
    "Stepper": "notation.stepper",
    # games
    "get_game": "notation.games",
    "all_games": "notation.games",
    "Game": "notation.games.base",
    "Position": "notation.games.base",
    "BoardView": "notation.view",
    # playing: bots and the referee
    "play": "notation.referee",
    "random_bot": "notation.referee",
    "Bot": "notation.referee",
    "Player": "notation.referee",
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
    "EditError": "notation.editor",
    "RecordFileError": "notation.recordfile",
    "FileChangedError": "notation.recordfile",
    "FileBusyError": "notation.recordfile",
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
    from notation.annotate import annotate_record
    from notation.batch import check_paths
    from notation.convert import convert_record, read_any_records, read_json_records
    from notation.editor import EditError, RecordEditor
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
    from notation.games import UnknownGameError, all_games, get_game
    from notation.games.base import Game, Position
    from notation.index import RecordHeaders, read_headers
    from notation.reader import read_file, read_records, read_string
    from notation.record import Comment, MoveNode, Record, Tag, Variation
    from notation.recordfile import FileBusyError, FileChangedError, RecordFile, RecordFileError
    from notation.referee import Bot, Player, play, random_bot
    from notation.replay import Replay, ReplayVisitor, Verdict, check_record
    from notation.stepper import Stepper, StepperError
    from notation.view import BoardView
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


#: What this module imports to do its work: not names of the library, so not in ``dir()``.
_IMPLEMENTATION = frozenset({"annotations", "importlib", "TYPE_CHECKING", "Any"})


def __dir__() -> list[str]:
    """The facade's names (loaded or not), the submodules loaded and the module's own
    attributes; not what it imports to do its work (``importlib``, ``Any``...)."""
    return sorted({*globals(), *_HOME} - _IMPLEMENTATION)
