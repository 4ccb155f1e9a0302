"""Compressed record files are read directly: gzip, bzip2, xz, and zstd with its extra."""

from __future__ import annotations

import bz2
import gzip
import lzma
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.files.textfile import compression_of, open_binary

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "records" / "cave" / "examples.ugn"
BROKEN = ROOT / "records" / "cave" / "broken.ugn"


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard", reason="the zstd extra is not installed")
    return bytes(zstandard.ZstdCompressor().compress(data))


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
    ".zst": _zstd,
}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout_bytes.decode(), result.stderr_bytes.decode()


@pytest.mark.parametrize("suffix", list(COMPRESSORS))
def test_check_reads_a_compressed_file_as_the_plain_one(tmp_path: Path, suffix: str) -> None:
    data = EXAMPLES.read_bytes() + b"\n" + BROKEN.read_bytes()
    plain = tmp_path / "games.txt"
    plain.write_bytes(data)
    packed = tmp_path / f"games.txt{suffix}"
    packed.write_bytes(COMPRESSORS[suffix](data))
    with open_binary(packed) as handle:
        assert handle.read() == data
    expected = run("check", "--format", "json", str(plain))
    got = run("check", "--format", "json", str(packed))
    assert got[0] == expected[0] == 1
    assert got[1] == expected[1].replace(str(plain), str(packed))


def test_a_folder_takes_compressed_record_files_and_jobs_do_not_cut_them(
    tmp_path: Path, small_parts: None
) -> None:
    data = EXAMPLES.read_bytes() * 30
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(data))
    (tmp_path / "b.pgn.xz").write_bytes(lzma.compress(data))
    (tmp_path / "notes.gz").write_bytes(gzip.compress(b"not records"))  # no record suffix
    code, out, _ = run("check", "-v", "--jobs", "2", str(tmp_path))
    assert code == 0
    records = 2 * 30 * EXAMPLES.read_text().count('[Game "')
    assert f"{records} records in 2 files: {records} valid" in out
    assert "notes.gz" not in out


def test_the_file_is_known_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    misnamed = tmp_path / "games.txt"
    misnamed.write_bytes(gzip.compress(EXAMPLES.read_bytes()))
    assert run("check", str(misnamed))[0] == 0
    assert compression_of(b"[Game") is None


def test_select_and_stats_read_compressed_files(tmp_path: Path) -> None:
    packed = tmp_path / "games.txt.bz2"
    packed.write_bytes(bz2.compress(EXAMPLES.read_bytes()))
    code, out, _ = run("select", str(packed), "-q")
    assert code == 0 and out.encode() in EXAMPLES.read_bytes() + b"\n"
    assert run("stats", str(packed))[0] == 0


def test_a_zstd_file_without_the_extra_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packed = tmp_path / "games.txt.zst"
    packed.write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 20)
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails, as if not installed
    code, _, err = run("check", str(packed))
    assert code == 2
    assert "pip install 'undead-notation[zstd]'" in err and "Traceback" not in err


def test_a_damaged_compressed_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    damaged = tmp_path / "games.txt.gz"
    damaged.write_bytes(gzip.compress(EXAMPLES.read_bytes())[:-30])
    for jobs in ("1", "2"):
        code, _, err = run("check", "--jobs", jobs, str(damaged))
        assert code == 2, err
        assert "gzip data is damaged or cut short" in err and "Traceback" not in err
