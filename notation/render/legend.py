"""What each mark of a picture means: the legend under a diagram and beside the viewer.

A legend lists only what the pictures of one or more positions use: cell colours,
tokens, corner notes, a pile's ``+n`` bar, paths, the last move's marks.  It knows no
game: names come from the view's roles ("tomb-yellow" is "tomb yellow"), unless the
view has its own words (:attr:`notation.games.view.BoardView.legend`, keyed by a role, a
``"<role>:<label>"`` token, ``"note"`` or ``"note:<text>"``, ``"path"``), e.g.
``{"over": "a grave above capacity", "red:r?": "a Red piece never shown"}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from notation.games.view import NOTE_KEY, PATH_KEY, SPREAD, BoardView

__all__ = ["LegendEntry", "legend_entries", "role_name"]

#: What an entry's swatch looks like.
Kind = Literal["cell", "token", "note", "more", "path", "arrow", "ring", "outline"]

@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One line of a legend: a swatch and what it stands for."""

    kind: Kind
    #: The role (cells, tokens), or "" for the marks every picture shares.
    role: str
    #: The swatch's colour ("" where the swatch has none of its own).
    colour: str
    #: Text drawn on or as the swatch: a token's label, a note ("" for none).
    sample: str
    #: What it means, in words.
    text: str

    def to_list(self) -> list[str]:
        """The JSON form the HTML viewer reads: [kind, role, colour, sample, text]."""
        return [self.kind, self.role, self.colour, self.sample, self.text]


def role_name(role: str) -> str:
    """A role as words: "tomb-yellow" is "tomb yellow"."""
    return role.replace("-", " ").replace("_", " ")


def _words(view: BoardView) -> Mapping[str, str]:
    # The game's own words; a look-alike view may have none.
    found = getattr(view, "legend", None)
    return found if isinstance(found, Mapping) else {}


def _token_entries(
    role: str, colour: str, labels: list[str], words: Mapping[str, str]
) -> list[LegendEntry]:
    """What the tokens of ``role`` mean: the words of its one label, or of the role;
    where the role has no words of its own, a line more for each label that has.
    The swatch shows the first label: a line never ends in a list of them."""
    sample = labels[0] if labels else ""
    if len(labels) == 1:
        found = words.get(f"{role}:{labels[0]}") or words.get(role)
        return [LegendEntry("token", role, colour, sample, found or role_name(role))]
    entries = [LegendEntry("token", role, colour, sample, words.get(role, role_name(role)))]
    if role not in words:
        entries += [
            LegendEntry("token", role, colour, label, words[f"{role}:{label}"])
            for label in labels if f"{role}:{label}" in words
        ]
    return entries


def _note_entries(notes: Iterable[str], words: Mapping[str, str]) -> list[LegendEntry]:
    """The notes: a line for what they say in general (with a note it covers as the
    swatch), then one for each note with words of its own (``"note:=Z"``)."""
    general = words.get(NOTE_KEY, "note in the corner")
    covered: list[str] = []
    entries: list[LegendEntry] = []
    for note in notes:
        meaning = words.get(f"{NOTE_KEY}:{note}")
        if meaning is None or meaning == general:
            covered.append(note)
        else:
            entries.append(LegendEntry("note", "", "", note, meaning))
    if covered:
        entries.insert(0, LegendEntry("note", "", "", covered[0], general))
    return entries


def legend_entries(
    views: Iterable[BoardView],
    *,
    arrow: bool = False,
    ring: bool = False,
    more: bool = False,
) -> list[LegendEntry]:
    """The legend of pictures of ``views``: each cell role, token role, note, path
    and last-move mark they use, once, in the order of the first view's palette.

    ``arrow``, ``ring``: whether the pictures draw the last move as an arrow, as a
    ring; ``more``: whether a pile too tall for its cell shows a ``+n`` bar.
    """
    cell_roles: dict[str, None] = {}
    token_labels: dict[str, dict[str, None]] = {}
    notes: dict[str, None] = {}
    palette: dict[str, str] = {}
    words: dict[str, str] = {}
    links = marks = spread = False
    for view in views:
        for role, colour in view.palette.items():
            palette.setdefault(role, colour)
        words.update(_words(view))
        links = links or bool(view.links)
        marks = marks or bool(view.marks)
        spread = spread or view.token_layout == SPREAD
        for cell in view.cells.values():
            if cell.role == "off":
                continue
            cell_roles.setdefault(cell.role)
            if cell.note:
                notes.setdefault(cell.note)
            for token in cell.tokens:
                token_labels.setdefault(token.role, {}).setdefault(token.label)
    order = {role: i for i, role in enumerate(palette)}

    def ordered(roles: Iterable[str]) -> list[str]:
        return sorted(roles, key=lambda role: (order.get(role, len(order)), role))

    entries: list[LegendEntry] = []
    for role in ordered(cell_roles):
        entries.append(LegendEntry(
            "cell", role, palette.get(role, ""), "", words.get(role, role_name(role))
        ))
    for role in ordered(token_labels):
        labels = [label for label in token_labels[role] if label]
        entries += _token_entries(role, palette.get(role, ""), labels, words)
    entries += _note_entries(notes, words)
    if more and not spread:
        more_text = "more beneath; the corner says the height"
        entries.append(LegendEntry("more", "", "", "+n", more_text))
    if links:
        entries.append(LegendEntry("path", "", "", "", words.get(PATH_KEY, "path between cells")))
    if arrow:
        entries.append(LegendEntry("arrow", "", "", "", "last move, from and to"))
    if ring:
        entries.append(LegendEntry("ring", "", "", "", "last move, on one square"))
    if marks:
        entries.append(LegendEntry("outline", "", "", "", "squares of the last move"))
    return entries
