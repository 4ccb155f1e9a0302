"""One edit of a record, held so that it can be undone and redone: what
:class:`~notation.editing.editor.RecordEditor` keeps on its undo and redo lists.

A :class:`Change` records, before an edit changes them, the attributes it sets and the
lists it changes; :meth:`Change.revert` puts them back and keeps what was there, so
that the same change reverted twice is the edit made again.

>>> from notation.editing.changes import Change
>>> class Note:
...     text = "before"
>>> note, moves = Note(), ["b1", "b5"]
>>> change = Change((2,), "the note")
>>> change.attributes.append((note, "text", note.text))
>>> change.lists.append((moves, list(moves)))
>>> note.text = "after"; moves.append("c1")
>>> _ = change.revert((3,)); note.text, moves, change.target
('before', ['b1', 'b5'], (2,))
>>> _ = change.revert((2,)); note.text, moves
('after', ['b1', 'b5', 'c1'])
"""

from __future__ import annotations

from typing import Any

from notation.cursor import Address

__all__ = ["Change"]


class Change:
    """One edit, as what it changed held before the change: the attributes (owner,
    name, value) and the lists (the list, its items), and the cursor's address.
    :meth:`revert` puts them back and returns the change that undoes that."""

    __slots__ = ("address", "attributes", "lists", "roll", "target", "what")

    def __init__(self, address: tuple[int, ...], what: str) -> None:
        self.address = address
        self.what = what  # the edit in words
        #: A roll given (the face before, the face after) instead of a change of record.
        self.roll: tuple[str | None, str | None] | None = None
        self.target = address  # where the cursor goes once the change is reverted
        self.attributes: list[tuple[object, str, object]] = []
        self.lists: list[tuple[list[Any], list[Any]]] = []

    def revert(self, address_now: Address) -> Change:
        """Put back what the change holds, and hold what was there instead (so that
        reverting again redoes it); the cursor's address is swapped the same way:
        ``address_now`` is where it stands."""
        address, self.address = self.address, address_now
        # In the reverse order of the changes: an attribute changed twice gets its first value.
        attributes = []
        for owner, name, value in reversed(self.attributes):
            attributes.append((owner, name, getattr(owner, name)))
            setattr(owner, name, value)
        attributes.reverse()
        self.attributes = attributes
        lists = []
        for items, before in self.lists:
            lists.append((items, list(items)))
            items[:] = before
        self.lists = lists
        self.target = address
        return self
