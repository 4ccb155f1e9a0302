"""``notation.read_headers``: the tags of every record, moves skipped, the same as a full
reading gives, with each record's number, first line and byte offset."""

from __future__ import annotations

import bz2
import gzip
import io
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.collections.index import RecordHeaders, read_headers
from notation.files.textfile import NotUTF8Warning, decoded_lines
from notation.formats.convert import read_any_records

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(
    path for path in (ROOT / "records").rglob("*")
    if path.is_file() and path.suffix in (".ugn", ".txt", ".pgn", ".json", ".jsonl")
) + sorted((ROOT / "tests" / "data").rglob("*.txt"))


def full(data: bytes, name: str = "in") -> list[RecordHeaders]:
    """What a full reading of ``data`` says of each record's header and place."""
    starts = [0]
    for line in io.BytesIO(data).read().splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    records = read_any_records(decoded_lines(io.BytesIO(data), lambda: None), name)
    found = []
    for record in records:
        raw_json = record.source != name  # a JSON line kept as raw text: lines of that text
        line = record.first_line
        if raw_json:
            line = int(str(record.source).rsplit(" ", 1)[1].rstrip(")"))
        found.append(RecordHeaders(record.index, record.tag_dict, starts[line - 1], line, name))
    return found


def same(data: bytes, name: str = "in") -> None:
    got = list(read_headers(io.BytesIO(data), name))
    assert got == full(data, name)
    for headers in got:  # the tags keep the order of the file
        assert list(headers.tags) == [t for t in dict.fromkeys(headers.tags)]


def test_the_facade_exports_it() -> None:
    assert notation.read_headers is read_headers
    assert notation.RecordHeaders is RecordHeaders


@pytest.mark.parametrize("path", BUNDLED, ids=[str(p.relative_to(ROOT)) for p in BUNDLED])
def test_every_bundled_file_has_the_headers_of_a_full_reading(path: Path) -> None:
    data = path.read_bytes()
    expected = full(data, str(path))
    assert expected or not data.strip()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotUTF8Warning)
        assert list(read_headers(path)) == expected
        assert list(read_headers(str(path))) == expected


AWKWARD = {
    "comments with brackets, quotes and braces": (
        b'[Game "cave"]\n[Event "a \\"quoted\\" name [x] {y}"]\n\n'
        b'1. b1 {a comment [with "brackets"] and\n[a line like a tag]} c5 *\n\n'
        b'[Game "cave"]\n[White "Ann"]\n\n1. b1 ; [Event "not a tag"] {\n2. c5 *\n\n'
        b'{a comment before the tags, [Event "x"]}\n[Game "cave"]\n\n1. b1 *\n'
    ),
    "escaped quotes and backslashes": (
        b'[Game "cave"]\n[Event "say \\"hi\\" \\\\ bye"]\n[ Site  "spaced" ]\n\n1. b1 *\n'
    ),
    "records without tags": b'1. b1 c5 *\n\n1. b1 *\n\n[Game "cave"]\n\n1. b1 1-0 2. c5 *\n',
    "windows line ends": b'[Game "cave"]\r\n[Red "Ann"]\r\n\r\n1. b1 *\r\n\r\n'
    b'[Game "cave"]\r\n[Red "Bob"]\r\n\r\n1. c5 *\r\n',
    "byte-order mark": b'\xef\xbb\xbf[Game "cave"]\n[Red "Ann"]\n\n1. b1 *\n\n'
    b'[Game "cave"]\n\n1. c5 *\n',
    "windows-1252": b'[Game "cave"]\n[Black "Jos\xe9"]\n\n1. b1 {caf\xe9} *\n\n'
    b'[Game "cave"]\n[Red "M\xfcller \x80"]\n\n1. b1 *\n',
    "lone carriage returns": b'[Game "cave"]\n\n1. b1 *\n\n[Game "cave"]\r[Red "Cy"]\r\r1. b1 *\r',
    "malformed and repeated tags": b'[Game "cave"]\n[Red "Ann"]\n[Red "Bob"]\n[bad tag]\n'
    b'[Event "x"] 1. b1\n\n1. b1 *\n\n[Game "cave"]\n% an escape line\n[Red "Di"]\n\n1. b1 *\n',
    "headers without moves": b'[Game "cave"]\n\n[Game "cave"]\n[Red "E"]\n\n'
    b'[Game "cave"]\n1. b1 *\n',
    "a record after a result on its line": b'[Game "cave"]\n\n1. b1 * [Game "cave"] 1. c5 *\n',
    "escape lines and blank lines": b'% start\n\n\n[Game "cave"]\n%x\n[Red "F"]\n\n1. b1 *\n%\n',
    "empty": b"",
}


@pytest.mark.parametrize("data", list(AWKWARD.values()), ids=list(AWKWARD))
def test_awkward_text_has_the_headers_of_a_full_reading(data: bytes) -> None:
    same(data)


def test_each_awkward_case_has_records_with_tags() -> None:
    """The cases above test something: most of their records have tags."""
    for name, data in AWKWARD.items():
        if name not in ("empty", "records without tags"):
            assert any(h.tags for h in full(data)), name


def test_json_lines_have_the_headers_of_a_full_reading(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import cli

    path = ROOT / "records" / "collections" / "club.ugn"
    result = CliRunner().invoke(cli, ["convert", str(path), "--to", "json"])
    lines = result.output.splitlines(keepends=True)
    data = ("\n".join(["", lines[0], "not json at all\n", *lines[1:]])).encode()
    same(data)
    assert len(list(read_headers(io.BytesIO(data)))) == len(lines) + 1


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress], ids=["gzip", "bzip2"])
def test_compressed_files_are_read_through(tmp_path: Path, compress: object) -> None:
    data = (ROOT / "records" / "collections" / "club.ugn").read_bytes()
    path = tmp_path / "club.ugn.gz"
    path.write_bytes(compress(data))  # type: ignore[operator]
    assert list(read_headers(path, "in")) == full(data)


def test_a_file_not_in_utf8_is_read_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(AWKWARD["windows-1252"])
    with pytest.warns(NotUTF8Warning, match="latin.txt"):
        found = list(read_headers(path))
    assert found[0].tags["Black"] == "José" and found[1].tags["Red"] == "Müller €"


def test_lines_of_text_and_of_bytes_are_read_too() -> None:
    data = AWKWARD["comments with brackets, quotes and braces"]
    text_lines = data.decode().splitlines(keepends=True)
    assert list(read_headers(text_lines, "in")) == full(data)
    assert list(read_headers(io.BytesIO(data).readlines(), "in")) == full(data)


PIECES = st.sampled_from([
    '[Game "cave"]\n', '[Red "A \\"b\\""]\n', "\n", "\r\n", "1. b1 c5 ", "*\n", "1-0\n",
    "{ [Event \"x\"] }\n", "{\n", "}\n", "; [x] {\n", "(1. c1) ", "% esc\n", '[bad\n',
    '  [Site "s"]  \n', "Jos\xe9 ", "1. b1 * [Game \"cave\"] ", "\r", "\ufeff",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30), st.booleans())
def test_any_text_has_the_headers_of_a_full_reading(parts: list[str], latin: bool) -> None:
    text = "".join(parts)
    data = text.encode("cp1252" if latin else "utf-8", "replace")
    same(data)
