"""``notation lsp``'s transport, driven as a process over pipes, byte by byte: a message
too big is refused and the server goes on, a client that stops reading ends it in one
line, requests after ``shutdown`` are answered with an error, and ``exit`` gives the exit
code the protocol asks for.  Nothing is timed: each wait has a generous guard against a
hang, never a measure of speed."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
#: A guard against a hang, never a measure of speed.
GUARD = 120
URI = "file:///lsp-transport/game.txt"
TEXT = '[Game "cave"]\n\n1. b1 b5 2. b1-b2 *\n'


def framed(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(number: int, method: str, params: object = None) -> bytes:
    return framed({"jsonrpc": "2.0", "id": number, "method": method, "params": params})


def notification(method: str, params: object = None) -> bytes:
    return framed({"jsonrpc": "2.0", "method": method, "params": params})


INITIALIZE = request(1, "initialize", {"capabilities": {}}) + notification("initialized", {})
OPEN = notification("textDocument/didOpen", {"textDocument": {
    "uri": URI, "languageId": "notation", "version": 1, "text": TEXT
}})
#: A hover on b1-b2, line 3 of TEXT.
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 2, "character": 13}}


def _messages(stream: IO[bytes], into: queue.Queue[dict[str, Any] | None]) -> None:
    """Read the server's messages from ``stream`` into ``into`` (None at its end)."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                into.put(None)
                return
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            elif line == b"\r\n" and length is not None:
                break
        into.put(json.loads(stream.read(length)))


class Server:
    """The server as a process, its answers read by a thread of their own."""

    def __init__(self, *args: str, code: str | None = None, read: bool = True) -> None:
        command = [sys.executable, "-c", code] if code else [
            sys.executable, "-m", "notation", "lsp", *args
        ]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=ENV,
        )
        self.answers: queue.Queue[dict[str, Any] | None] = queue.Queue()
        assert self.process.stdout is not None
        if not read:  # a client that never reads: its end of the pipe closed at once
            self.process.stdout.close()
            return
        threading.Thread(
            target=_messages, args=(self.process.stdout, self.answers), daemon=True
        ).start()

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, number: int) -> dict[str, Any]:
        """The server's answer to request ``number`` (what comes before it is passed)."""
        while True:
            message = self.answers.get(timeout=GUARD)
            assert message is not None, f"the server ended before answering {number}"
            if message.get("id") == number and "method" not in message:
                return message

    def end(self) -> tuple[int, str]:
        """Close the server's input; its exit code and what it wrote to standard error."""
        assert self.process.stdin is not None and self.process.stderr is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        code = self.process.wait(timeout=GUARD)
        return code, self.process.stderr.read().decode("utf-8", "replace")


def test_a_message_too_big_is_refused_and_the_server_goes_on() -> None:
    """A body over the limit is read past (never held), said in one line, and the next
    request on the open document is answered."""
    server = Server(code="from notation.lsp.server import serve; serve(max_message=4096)")
    server.send(INITIALIZE + OPEN)
    assert server.answer(1)["result"]["capabilities"]
    padding = "x" * 5000
    server.send(request(2, "textDocument/hover", {**HOVER, "padding": padding}))
    server.send(request(3, "textDocument/hover", HOVER))
    hover = server.answer(3)
    assert "Turn 3" in hover["result"]["contents"]["value"]  # the document is still open
    server.send(request(4, "shutdown") + notification("exit"))
    assert server.answer(4)["result"] is None
    code, errors = server.end()
    assert code == 0
    assert "Traceback" not in errors
    (said,) = [line for line in errors.splitlines() if "refused" in line]
    assert "5" in said and "4096" in said


def test_a_header_of_a_petabyte_does_not_end_the_server() -> None:
    """``Content-Length: 1000000000000000``: no attempt to hold it, no out-of-memory
    exit; the input ends inside its body, and the server ends quietly."""
    data = INITIALIZE + OPEN + b"Content-Length: 1000000000000000\r\n\r\n{" + b" " * 100_000
    done = subprocess.run(
        [sys.executable, "-m", "notation", "lsp"], input=data, env=ENV, capture_output=True,
        timeout=GUARD, check=False,
    )
    errors = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, errors
    assert "out of memory" not in errors and "Traceback" not in errors
    assert len(errors.splitlines()) == 1 and "refused" in errors


def test_a_client_that_stops_reading_ends_the_server_in_one_line() -> None:
    server = Server(read=False)
    server.send(INITIALIZE + OPEN)
    try:
        for number in range(2, 50):
            server.send(request(number, "textDocument/hover", HOVER))
    except BrokenPipeError:
        pass  # the server is gone already
    code, errors = server.end()
    assert "Traceback" not in errors and "BrokenPipeError" not in errors, errors
    assert len(errors.splitlines()) <= 1, errors
    assert code == -signal.SIGPIPE  # as a writer to a closed pipe ends


def test_requests_after_shutdown_are_answered_with_an_error() -> None:
    server = Server()
    server.send(INITIALIZE + request(2, "shutdown"))
    assert server.answer(2)["result"] is None
    server.send(request(3, "shutdown") + request(4, "textDocument/hover", HOVER))
    for number in (3, 4):
        error = server.answer(number)["error"]
        assert error["code"] == -32600  # InvalidRequest, as the protocol asks
        assert "shut down" in error["message"]
    server.send(notification("exit"))
    code, errors = server.end()
    assert code == 0 and "Traceback" not in errors


def test_exit_without_shutdown_exits_1() -> None:
    server = Server()
    server.send(INITIALIZE)
    server.answer(1)
    server.send(notification("exit"))
    code, errors = server.end()
    assert code == 1 and "Traceback" not in errors
