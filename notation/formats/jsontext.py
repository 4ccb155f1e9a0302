"""JSON text for trees of any depth.

``json.dumps`` and ``json.loads`` raise ``RecursionError`` past about a thousand
levels of nesting, and a record's variations nest to any depth.  These two functions
use the standard library, and fall back for such deep values to versions with an
explicit stack that give the same text and the same values.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

__all__ = ["dumps", "loads", "lone_surrogate"]

_SPACE = re.compile(r"[ \t\n\r]*")
#: The standard library's scanner (C where available): one value at a position.
_scan: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(
    json.JSONDecoder()  # type: ignore[arg-type]  # typeshed names its argument oddly
)
#: A key without escapes and its colon: the common case, read without the scanner.
_KEY = re.compile(r'[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*:')


def dumps(
    value: Any, *, separators: tuple[str, str] = (", ", ": "), ensure_ascii: bool = False
) -> str:
    """``json.dumps(value, separators=..., ensure_ascii=...)``, at any depth."""
    try:
        return json.dumps(value, separators=separators, ensure_ascii=ensure_ascii)
    except RecursionError:
        return _dumps_deep(value, separators, ensure_ascii)


def loads(text: str) -> Any:
    """``json.loads(text)``, at any depth; ``json.JSONDecodeError`` for text that is not JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        return _loads_deep(text)


#: The escape of a surrogate (U+D800 to U+DFFF): a quick look before the scan.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: Each escape of JSON text in turn: a backslash and what it escapes (the four digits
#: of a \\u escape as a group).  Valid JSON has backslashes only in strings, each one
#: starting an escape, so a scan from the start never mistakes where one begins.
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL)


def lone_surrogate(text: str) -> tuple[str, int] | None:
    """The first lone surrogate that the JSON text ``text`` spells, and where its escape
    starts (an index into ``text``); ``None`` if it spells none.

    JSON may spell any UTF-16 code unit: ``"\\ud83d\\ude00"`` is one character, but a
    surrogate escape that is not half of such a pair reads as a lone surrogate, which
    is no character and which no UTF-8 stream can write.  ``text`` must be valid JSON
    (call this after :func:`loads`).
    """
    if "\\u" not in text or _SURROGATE_ESCAPE.search(text) is None:
        return None
    high: re.Match[str] | None = None  # a high surrogate waiting for its low half
    for found in _ESCAPE.finditer(text):
        digits = found.group(1)
        code = -1 if digits is None else int(digits, 16)
        if high is not None:
            if 0xDC00 <= code <= 0xDFFF and found.start() == high.end():
                high = None  # a pair: one character
                continue
            break
        if 0xD800 <= code <= 0xDBFF:
            high = found
        elif 0xDC00 <= code <= 0xDFFF:
            return chr(code), found.start()
    if high is not None:
        return chr(int(high.group(1), 16)), high.start()
    return None


def _scalar(value: Any, string: Any) -> str:
    if isinstance(value, str):
        return str(string(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _dumps_deep(value: Any, separators: tuple[str, str], ensure_ascii: bool) -> str:
    item_sep, key_sep = separators
    string = encode_basestring_ascii if ensure_ascii else encode_basestring
    out: list[str] = []
    # The open containers: an iterator over (key or None, value) and the closing bracket.
    open_: list[tuple[Iterator[tuple[str | None, Any]], str]] = []
    containers = (dict, list, tuple)
    while True:
        if isinstance(value, containers):
            items = value.values() if isinstance(value, dict) else value
            if not items:
                out.append("{}" if isinstance(value, dict) else "[]")
            elif not any(isinstance(item, containers) for item in items):
                # Flat: the standard library writes it whole, in C.
                out.append(json.dumps(value, separators=separators, ensure_ascii=ensure_ascii))
            elif isinstance(value, dict):
                out.append("{")
                open_.append((iter(value.items()), "}"))
            else:
                out.append("[")
                open_.append((((None, item) for item in value), "]"))
        else:
            out.append(_scalar(value, string))
        while open_:
            pairs, close = open_[-1]
            for key, value in pairs:  # noqa: B007 - the next item; written on the next pass
                if out[-1] not in ("{", "["):  # a string value is never just "{"
                    out.append(item_sep)
                if close == "}":
                    out.append(string(str(key)) + key_sep)
                break
            else:
                out.append(close)
                open_.pop()
                continue
            break
        else:
            return "".join(out)


def _loads_deep(text: str) -> Any:
    def error(message: str, pos: int) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, text, _SPACE.match(text, pos).end())  # type: ignore[union-attr]  # matches ""

    def decode(found: re.Match[str]) -> tuple[Any, int]:
        # A string, a number, a constant or a container without containers inside: the
        # standard library's scanner reads (and validates) it where it stands.
        start = found.start(found.lastindex or 0)
        try:
            return _scan(text, start)
        except StopIteration:
            raise error("Expecting value", start) from None

    def key_at(pos: int) -> tuple[str, int]:
        simple = _KEY.match(text, pos)
        if simple is not None:
            return simple.group(1), simple.end()
        found = _token(text, pos)
        if found.lastgroup != "string":
            raise error("Expecting property name enclosed in double quotes", pos)
        key, end = decode(found)
        colon = _token(text, end)
        if colon.lastgroup != "colon":
            raise error("Expecting ':' delimiter", end)
        return key, colon.end()

    open_: list[dict[str, Any] | list[Any]] = []
    keys: list[str | None] = []  # the key being filled in each open object (None: a list)
    pos = 0
    while True:
        value: Any
        found = _token(text, pos)
        kind = found.lastgroup
        if kind == "open":
            after = _token(text, found.end())
            closer = "}" if found.group(kind) == "{" else "]"
            if after.lastgroup == "close" and after.group("close") == closer:
                value, pos = ({} if closer == "}" else []), after.end()
            elif closer == "}":
                first, pos = key_at(found.end())
                open_.append({})
                keys.append(first)
                continue
            else:
                open_.append([])
                keys.append(None)
                pos = found.end()
                continue
        elif kind in ("flat", "string", "scalar"):
            value, pos = decode(found)
        else:
            raise error("Expecting value", pos)
        # A value is complete: put it in its container, closing those it completes.
        while True:
            if not open_:
                if _token(text, pos).lastgroup != "end":
                    raise error("Extra data", pos)
                return value
            container, key = open_[-1], keys[-1]
            if isinstance(container, list):
                container.append(value)
            elif key is not None:
                container[key] = value
            found = _token(text, pos)
            if found.lastgroup == "comma":
                pos = found.end()
                if key is not None:
                    keys[-1], pos = key_at(pos)
                break
            closer = "]" if key is None else "}"
            if found.lastgroup != "close" or found.group("close") != closer:
                raise error("Expecting ',' delimiter", pos)
            pos = found.end()
            value = open_.pop()
            keys.pop()


# One token of JSON after optional white space; "flat" is a whole object or array with no
# object or array inside (strings may hold brackets), read at once by the standard library.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_TOKEN = re.compile(
    rf"""[ \t\n\r]*(?:
     (?P<flat>\{{[^{{}}\[\]"]*(?:{_STRING}[^{{}}\[\]"]*)*\}}|\[[^{{}}\[\]"]*(?:{_STRING}[^{{}}\[\]"]*)*\])
    |(?P<open>[\[{{])
    |(?P<close>[\]}}])
    |(?P<comma>,)
    |(?P<colon>:)
    |(?P<string>{_STRING})
    |(?P<scalar>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity)
    |(?P<end>$)
    )?""",
    re.VERBOSE,
)


def _token(text: str, pos: int) -> re.Match[str]:
    found = _TOKEN.match(text, pos)
    assert found is not None  # every group is optional
    return found
