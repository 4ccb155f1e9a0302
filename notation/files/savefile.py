"""Saving a file whole or not at all: the one way the toolkit writes a file.

A save goes to a new temporary file beside the file saved (``.NAME.XXXXXXXX.tmp``),
written, flushed and ``fsync``'ed, then renamed over the file: a reader sees the old
file or the new one, never a part.  The new file gets the mode of the one it replaces
(or of a plain ``open()``); the temporary file is removed if anything fails.  What a
rename cannot replace is written into, as ``open(path, "w")`` would: a link's target
(the link stays), a FIFO or a device, and ``/dev/stdout``, ``/dev/stderr``,
``/dev/fd/N``, ``/proc/self/fd/N`` (the process's own open files).

Use :func:`saving` (a binary stream) or :func:`saving_text` (UTF-8 text, ``\\n`` line
ends) as context managers, or :func:`replace_file` for bytes at hand.  A problem is an
``OSError`` whose ``filename`` is the file as the caller named it and whose
``strerror`` says why.  :func:`temporary_beside` and :func:`commit` are the two halves
of a save, for a writer that keeps many files going at once (``notation split``).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO, cast

__all__ = ["commit", "replace_file", "saving", "saving_text", "temporary_beside", "where_saved"]

#: Folders whose entries are the process's own open files, by their numbers.
#: (``/proc/PID/fd`` too, for this process's PID, as a link from /dev/stdout resolves.)
_DESCRIPTORS = ("/dev/fd", "/proc/self/fd", "/proc/thread-self/fd")
_STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a save of ``name`` (the path as the caller gave it) really goes: ``path``,
    links followed; ``replace`` whether a temporary file is renamed over it (a regular
    file, or none yet) rather than written into; ``descriptor`` the process's open file
    it names, if any (then ``path`` is not used).
    """

    name: str
    path: str
    replace: bool
    descriptor: int | None = None


def where_saved(path: str | os.PathLike[str]) -> Destination:
    """Where a save of ``path`` goes (see the module's docstring)."""
    name = os.fspath(path)
    descriptor = _descriptor(name)
    if descriptor is not None:
        return Destination(name, name, False, descriptor)
    real = os.path.realpath(name)
    try:
        mode = os.stat(real).st_mode
    except OSError:  # none yet (or out of reach: the save will say why)
        return Destination(name, real, True)
    return Destination(name, real, stat.S_ISREG(mode))


def _descriptor(name: str) -> int | None:
    """The open file descriptor ``name`` stands for, following links one by one
    (``/dev/stdout`` is a link to ``/proc/self/fd/1``), or None."""
    current = os.path.abspath(name)
    for _ in range(40):  # the kernel's own limit on links in a row
        if current in _STANDARD:
            return _STANDARD[current]
        folder, number = os.path.split(current)
        if number.isdigit() and number.isascii() and (
            folder in _DESCRIPTORS or folder == f"/proc/{os.getpid()}/fd"
        ):
            return int(number)
        try:
            link = os.readlink(current)
        except OSError:  # not a link (or nothing there): a file like any other
            return None
        current = os.path.normpath(os.path.join(os.path.dirname(current), link))
    return None


@contextlib.contextmanager
def saving(path: str | os.PathLike[str], *, follow_links: bool = True) -> Iterator[BinaryIO]:
    r"""A binary stream whose bytes become the file at ``path`` when the block ends
    without an exception (see the module's docstring); the old file is left as it
    was if the block raises.  With ``follow_links`` false, whatever is at ``path``
    (a link, a FIFO, a device) is replaced by the new file, never written through:
    for the program's own files (a journal), where something else there is no
    wish of the user's.

    >>> import os, pathlib, shutil, tempfile
    >>> from notation.files.savefile import saving
    >>> folder = tempfile.mkdtemp()
    >>> path = pathlib.Path(folder, "out.txt")
    >>> with saving(path) as stream:
    ...     _ = stream.write(b"1. b1 b5 *\n")
    >>> path.read_bytes()
    b'1. b1 b5 *\n'
    >>> with saving(path) as stream:
    ...     _ = stream.write(b"half a reco")
    ...     raise ValueError("stopped half-way")
    Traceback (most recent call last):
    ValueError: stopped half-way
    >>> path.read_bytes(), os.listdir(folder)  # the old file, and no temporary file
    (b'1. b1 b5 *\n', ['out.txt'])
    >>> shutil.rmtree(folder)
    """
    if follow_links:
        where = where_saved(path)
    else:
        name = os.fspath(path)
        where = Destination(name, os.path.abspath(name), True)
    if where.descriptor is not None:
        with _into_descriptor(where.descriptor) as stream:
            yield stream
        return
    if not where.replace:
        try:
            handle = open(where.path, "wb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise _named(exc, where.name, "it cannot be opened for writing") from None
        with handle:
            yield handle
            _finish(handle.flush, where.name, "writing it")
        return
    fd, temp = temporary_beside(where)
    try:
        with open(fd, "wb") as handle:
            yield handle
            _finish(handle.flush, where.name, "writing it")
            _finish(lambda: os.fsync(handle.fileno()), where.name, "writing it")
        commit(temp, where, synced=True)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def saving_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """:func:`saving` as UTF-8 text, ``\\n`` written as it is."""
    with saving(path) as binary:
        text = io.TextIOWrapper(binary, encoding="utf-8", newline="\n", write_through=False)
        try:
            yield text
            _finish(text.flush, os.fspath(path), "writing it")
        finally:
            # Let go of the binary stream, which saving closes (or keeps open:
            # standard output); after a failure its flush may fail too, unheard.
            with contextlib.suppress(OSError, ValueError):
                text.detach()


def replace_file(
    path: str | os.PathLike[str], data: bytes, *, follow_links: bool = True
) -> None:
    """Save ``data`` as the file at ``path``, whole or not at all (:func:`saving`,
    ``follow_links`` as there).

    >>> import pathlib, shutil, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = pathlib.Path(folder, "games.txt")
    >>> replace_file(path, b'[Game "cave"]\\n\\n1. b1 *\\n')
    >>> replace_file(path, b'[Game "cave"]\\n\\n1. b1 b5 *\\n')
    >>> path.read_bytes()
    b'[Game "cave"]\\n\\n1. b1 b5 *\\n'
    >>> shutil.rmtree(folder)
    """
    with saving(path, follow_links=follow_links) as handle:
        handle.write(data)


def temporary_beside(where: Destination) -> tuple[int, str]:
    """A new, empty temporary file beside ``where.path``, open for writing (its
    descriptor) and its name; with the mode (and, where allowed, the owner) of the
    file it is to replace, or the mode a plain ``open()`` gives a new file."""
    import tempfile  # only writers need it (start-up)

    folder, base = os.path.split(where.path)
    try:
        fd, temp = tempfile.mkstemp(dir=folder or ".", prefix=f".{base}.", suffix=".tmp")
    except OSError as exc:
        raise _named(exc, where.name, f"no new file can be made in {folder or '.'}") from None
    try:
        try:
            old = os.lstat(where.path)  # where_saved resolved links already
            if not stat.S_ISREG(old.st_mode):
                raise FileNotFoundError(where.path)  # replaced: nothing to take after
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 is for secrets
        else:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
            if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.fchown(fd, old.st_uid, old.st_gid)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return fd, temp


def commit(temp: str, where: Destination, *, synced: bool = False) -> None:
    """Rename the written temporary file ``temp`` over ``where.path`` (``fsync``'ed
    first unless ``synced``).  The caller removes ``temp`` if this raises."""
    if not synced:
        def sync() -> None:
            fd = os.open(temp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

        _finish(sync, where.name, "writing it")
    try:
        os.replace(temp, where.path)
    except OSError as exc:
        why = "it cannot be replaced"
        if exc.errno == errno.EPERM:
            why += "; is it immutable or append-only?"
        raise _named(exc, where.name, why) from None
    # The rename itself is made durable; a folder that cannot be synced is no failure.
    with contextlib.suppress(OSError):
        folder = os.open(os.path.dirname(where.path) or ".", os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


@contextlib.contextmanager
def _into_descriptor(fd: int) -> Iterator[BinaryIO]:
    """The open file ``fd`` as a binary stream, written where it points and left open:
    standard output and error through Python's own streams, so that what was written
    to them before comes first (and a test's captured streams get it)."""
    standard = {1: sys.stdout, 2: sys.stderr}.get(fd)
    buffer = getattr(standard, "buffer", None)
    if standard is not None and buffer is not None:
        standard.flush()
        yield cast(BinaryIO, buffer)
        buffer.flush()
        return
    try:
        handle = open(os.dup(fd), "wb")  # noqa: SIM115 - closed below; fd itself stays open
    except OSError as exc:
        raise _named(exc, f"/dev/fd/{fd}", "it is not an open file") from None
    with handle:
        yield handle


def _finish(step: Callable[[], object], name: str, doing: str) -> None:
    """Run ``step`` (a flush, an fsync), its ``OSError`` naming the file saved."""
    try:
        step()
    except OSError as exc:
        raise _named(exc, name, f"while {doing}") from None


def _named(exc: OSError, name: str, why: str) -> OSError:
    """``exc`` as an error about the file ``name``, saying ``why``."""
    reason = exc.strerror or str(exc)
    return OSError(exc.errno or errno.EIO, f"{reason} ({why})", name)
