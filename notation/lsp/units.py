"""Characters as the editor counts them: positions of the Language Server Protocol
count UTF-16 code units by default (or UTF-8, or code points, as agreed at start-up);
the library counts code points."""

from __future__ import annotations

__all__ = ["Units"]


class Units:
    """The counting of characters agreed with the client: ``"utf-16"`` (the protocol's
    default), ``"utf-8"`` or ``"utf-32"`` (code points)."""

    def __init__(self, encoding: str = "utf-16") -> None:
        self.encoding = encoding if encoding in ("utf-8", "utf-16", "utf-32") else "utf-16"

    def width(self, char: str) -> int:
        """How many units ``char`` (one code point) counts for."""
        point = ord(char)
        if self.encoding == "utf-16":
            return 2 if point > 0xFFFF else 1
        if self.encoding == "utf-8":
            return 1 if point < 0x80 else 2 if point < 0x800 else 3 if point < 0x10000 else 4
        return 1

    def to_points(self, text: str, units: int) -> int:
        """The code point index in ``text`` (one line) of the position ``units`` units in;
        a position inside a character stands for the character after it, one past the end
        for the end."""
        if units <= 0:
            return 0
        if self.encoding == "utf-32" or text.isascii():
            return min(units, len(text))
        count = 0
        for index, char in enumerate(text):
            if count >= units:
                return index
            count += self.width(char)
        return len(text)

    def from_points(self, text: str, points: int) -> int:
        """The units in of the code point index ``points`` of ``text`` (one line)."""
        points = max(0, min(points, len(text)))
        if self.encoding == "utf-32" or text.isascii():
            return points
        return sum(self.width(char) for char in text[:points])
