"""docs/collections.md tells the truth: each console example prints what the page shows,
and the Dask recipe gets what ``stats --jobs`` gets."""

from __future__ import annotations

import gzip
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "collections.md"
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
BLOCKS = CONSOLE.findall(DOC.read_text(encoding="utf-8"))


def _steps(block: str) -> list[tuple[str, str]]:
    """The commands of a block, each with the output shown under it."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return [(command, "".join(f"{line}\n" for line in out)) for command, out in steps]


def _run(command: str) -> str:
    """What ``command`` prints, standard error included, as a terminal shows it."""
    words = shlex.split(command)
    if words[0] == "ls":
        return "".join(f"{p.name}\n" for p in sorted(Path(words[1]).iterdir()))
    if words[:2] == ["gzip", "-k"]:
        Path(words[2] + ".gz").write_bytes(gzip.compress(Path(words[2]).read_bytes()))
        return ""
    assert words[0] == "notation", f"the page may run notation, ls and gzip -k: {command}"
    result = CliRunner().invoke(cli, words[1:])
    assert result.exception is None or isinstance(result.exception, SystemExit), command
    return result.output


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    """What each command of each block printed, run in turn in a folder with the
    bundled records (later examples read the files earlier ones wrote)."""
    folder = tmp_path_factory.mktemp("collections")
    shutil.copytree(ROOT / "records", folder / "records")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return [[_run(command) for command, _ in _steps(block)] for block in BLOCKS]


def test_the_page_has_examples_for_every_command() -> None:
    commands = " ".join(command for block in BLOCKS for command, _ in _steps(block))
    for name in ("select", "dedup", "split", "stats", "check"):
        assert f"notation {name} " in commands


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_console_example(number: int, printed: list[list[str]]) -> None:
    for (command, shown), got in zip(_steps(BLOCKS[number]), printed[number], strict=True):
        assert got == shown, command


def test_the_dask_recipe_gets_what_jobs_get(tmp_path: Path) -> None:
    dask_bag = pytest.importorskip("dask.bag", reason="the dask extra is not installed")
    from notation.collections.batch import summarise_paths
    from notation.collections.stats import merge_all

    files = [str(p) for p in sorted((ROOT / "records").glob("*/*.ugn"))]
    bag = dask_bag.from_sequence(files, npartitions=len(files))
    summaries = bag.map(lambda path: summarise_paths([path])).compute(scheduler="processes")
    by_dask = merge_all(summaries).to_dict()
    result = CliRunner().invoke(cli, ["stats", "--format", "json", "--jobs", "2", *files])
    assert json.loads(result.output) == by_dask
    assert by_dask["records"] > 50
