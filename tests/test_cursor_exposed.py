"""The editor and the stepper expose their :class:`~notation.cursor.Cursor` (``.cursor``)
instead of repeating its properties: one place says where they stand, under one set of
names (``defect``, not ``error`` in one and ``defect`` in the other)."""

from __future__ import annotations

import ast
import inspect
import textwrap

import notation
from notation.cursor import Cursor
from notation.editing.editor import RecordEditor
from notation.stepper import Stepper

TEXT = "[Game \"Cave\"]\n\n1. b1 b5 (1... c5) 2. c1 b5 *\n"


def forwarding_properties(cls: type) -> list[str]:
    """The properties of ``cls`` whose whole body returns the same-named property of
    its cursor (``return self._cursor.position``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        body = [s for s in node.body if not isinstance(s, ast.Expr)]  # past the docstring
        if (
            len(body) == 1
            and isinstance(body[0], ast.Return)
            and isinstance(body[0].value, ast.Attribute)
            and body[0].value.attr == node.name
            and "cursor" in ast.unparse(body[0].value.value)
        ):
            found.append(node.name)
    return found


def test_neither_repeats_the_cursors_properties() -> None:
    # the record is what each is about (the stepper keeps its own, the editor's changes
    # with undo), so both have it at hand; where they stand is the cursor's alone
    assert forwarding_properties(RecordEditor) == ["record"]
    assert forwarding_properties(Stepper) == []


def test_the_forwarding_test_sees_a_forward() -> None:
    class Forwarding:
        def __init__(self, cursor: Cursor) -> None:
            self._cursor = cursor

        @property
        def position(self) -> object:
            """The cursor's position."""
            return self._cursor.position

    assert forwarding_properties(Forwarding) == ["position"]


def test_both_expose_the_same_cursor_and_name_the_defect_alike() -> None:
    (record,) = notation.read_string(TEXT)
    editor, stepper = RecordEditor(record), Stepper(record)
    assert isinstance(editor.cursor, Cursor) and isinstance(stepper.cursor, Cursor)
    stepper.to_end()
    # both stop before 2... b5, which the rules refuse, and say why by the same name
    assert editor.cursor.address == stepper.cursor.address == (3,)
    assert editor.cursor.defect is not None and stepper.cursor.defect is not None
    assert editor.cursor.defect.message == stepper.cursor.defect.message
    assert editor.cursor.position.position_string() == stepper.cursor.position.position_string()
    for obj in (editor, stepper):
        assert not hasattr(obj, "error") and not hasattr(obj, "position")
