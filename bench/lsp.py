"""How fast the language server answers an editor: diagnostics after an edit in one
record of a big file, and completion in a long record.

    python bench/lsp.py [--records 2000] [--edits 20] [--runs 30]

Makes a file of ``--records`` generated Tinkertown games and times, in seconds, a whole
``notation check --jobs 1`` of it (a process, start-up included).  Then starts ``notation
lsp`` as an editor does (a process, over standard input and output, with pygls's client),
opens the file, and prints, in milliseconds (median and worst):

- the first diagnostics on opening it (the errors), and the second (with the strict-form
  hints, checked after them);
- the diagnostics after an edit in one record: from the change sent to the diagnostics
  of that version received, strict-form hints included (each edit breaks a move of a
  record, or mends it);
- completion at the start, middle and end of a record of 300 turns or more.

A script that prints figures (docs/performance.md style), with no assertion: needs the
``lsp`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from notation.collections.generate import generate_records
from notation.reader import read_string
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent


def long_record(turns: int) -> str:
    """A generated Tinkertown game of at least ``turns`` turns (seeds tried in order)."""
    seed = 0
    while True:
        ((record, size),) = generate_records("tinkertown", 1, seed=seed, max_turns=2000)
        if len(record.moves) >= turns:
            return "".join(write_records([(record, size)]))
        seed += 1


def whole_check(path: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "notation", "check", "--jobs", "1", str(path)],
                   env=env, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


class Client:
    """A pygls client that keeps the versions whose diagnostics arrived."""

    def __init__(self) -> None:
        self.client = LanguageClient("bench", "1")
        self.versions: dict[str, int | None] = {}
        self.counts: dict[tuple[str, int | None], int] = {}
        self.arrived = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
            self.versions[params.uri] = params.version
            key = (params.uri, params.version)
            self.counts[key] = self.counts.get(key, 0) + 1
            self.arrived.set()

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        await self.client.start_io(sys.executable, "-m", "notation", "lsp", env=env)
        capabilities = types.ClientCapabilities(general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16]))
        await self.client.initialize_async(types.InitializeParams(capabilities=capabilities))
        self.client.initialized(types.InitializedParams())

    async def diagnostics(self, uri: str, version: int, times: int = 1) -> None:
        """Wait for the diagnostics of ``version``, published ``times`` times (a big
        file's are published twice on opening: the errors, then with the hints)."""
        while self.counts.get((uri, version), 0) < times:
            self.arrived.clear()
            await self.arrived.wait()

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def figures(times: list[float]) -> str:
    return f"{statistics.median(times):8.1f} median {max(times):8.1f} worst"


async def measure(text: str, long_text: str, edits: int, runs: int) -> None:
    client = Client()
    await client.start()
    uri = "file:///bench/games.txt"
    opened = time.perf_counter()
    client.client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri, "notation", 1, text)))
    await client.diagnostics(uri, 1)
    first = time.perf_counter() - opened
    await client.diagnostics(uri, 1, times=2)
    hints = time.perf_counter() - opened
    print(f"open: the errors after {first:.2f} s, the strict-form hints after {hints:.2f} s")
    records = read_string(text)
    version = 1
    times = []
    for n in range(edits):
        # An "x" typed before a move in the middle of a record, then taken away.
        record = records[(n // 2 * 97) % len(records)]
        node = record.moves[len(record.moves) // 2]
        at = types.Position(node.line - 1, node.column - 1)
        if n % 2 == 0:
            change = types.TextDocumentContentChangePartial(types.Range(at, at), "x")
        else:
            after = types.Position(at.line, at.character + 1)
            change = types.TextDocumentContentChangePartial(types.Range(at, after), "")
        version += 1
        start = time.perf_counter()
        client.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]))
        await client.diagnostics(uri, version)
        times.append((time.perf_counter() - start) * 1000)
        if os.environ.get("BENCH_VERBOSE"):
            print(f"  edit {n}: {times[-1]:.1f} ms", file=sys.stderr)
    print(f"diagnostics after a one-record edit, ms:    {figures(times)}")
    long_uri = "file:///bench/long.txt"
    client.client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(long_uri, "notation", 1, long_text)))
    await client.diagnostics(long_uri, 1)
    (record,) = read_string(long_text)
    print(f"completion in a record of {len(record.moves)} turns, ms:")
    for label, index in (("start", 1), ("middle", len(record.moves) // 2),
                         ("end", len(record.moves) - 1)):
        node = record.moves[index]
        where = types.Position(node.line - 1, node.column - 1)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            await client.client.text_document_completion_async(types.CompletionParams(
                types.TextDocumentIdentifier(long_uri), where))
            times.append((time.perf_counter() - start) * 1000)
        if os.environ.get("BENCH_VERBOSE"):
            print("  " + " ".join(f"{t:.0f}" for t in times), file=sys.stderr)
        print(f"  at turn {index + 1:4d} ({label:6s})                 {figures(times)}")
    await client.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    text = "".join(write_records(generate_records("tinkertown", args.records, seed=1)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.txt"
        path.write_text(text, encoding="utf-8")
        size = path.stat().st_size / 1e6
        seconds = whole_check(path)
    print(f"{args.records} Tinkertown records, {size:.1f} MB")
    print(f"notation check --jobs 1 of the whole file: {seconds:.2f} s")
    asyncio.run(measure(text, long_record(300), args.edits, args.runs))


if __name__ == "__main__":
    main()
