"""Worker processes: work handed out in order, results back in order, memory flat.

:func:`map_in_order` is ``map`` over worker processes: ``function(item)`` for each
item, computed by several processes, yielded in the items' order, with few items
in flight at once, so memory stays flat however many there are.  :func:`in_order` is
the same for units of work some of which the caller does itself.  Workers ignore
SIGINT (the main process stops them), and are terminated however the iteration ends:
a SIGTERM, then a SIGKILL for one still there after a moment.  :func:`default_jobs`
says how many processes an input of a given size is worth, and
:func:`collecting_less` tunes the garbage collector for a long run of records (which
hold no cycles).

:func:`~notation.collections.batch.check_paths` (``notation check --jobs``) and the
HTML pages (``notation html``) run on it.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar

from notation.errors import NotationException

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

__all__ = [
    "AHEAD",
    "PER_WORKER",
    "POOL_MIN_BYTES",
    "WorkerError",
    "collecting_less",
    "default_jobs",
    "in_order",
    "map_in_order",
]

#: A unit of work.
U = TypeVar("U")

#: Below this much input, all in this process: starting workers costs more than it saves.
POOL_MIN_BYTES = 1_000_000
#: Units handed out ahead of the one being yielded, per worker: enough to keep them
#: busy, few enough that verdicts waiting their turn stay few.
AHEAD = 4
#: Units a worker holds at once: one it checks, one waiting in its pipe, so that it
#: never waits for this process between two.
PER_WORKER = 2
#: Seconds a terminated worker is given to end before it is killed.
STOP_WAIT = 2.0


class WorkerError(NotationException, RuntimeError):
    """A worker process ended without its verdicts (killed, out of memory)."""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def default_jobs(size: int) -> int:
    """How many processes to use for ``size`` bytes of input when the caller does not
    say: one per core that is free by the load average of the last minute (a busy core
    only slows the workers down); one below :data:`POOL_MIN_BYTES`.
    """
    cores = _cores()
    if size < POOL_MIN_BYTES or cores == 1:
        return 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this platform
        load = 0.0
    return max(1, min(cores, int(cores - load + 0.5)))


def map_in_order(
    function: Callable[[Any], Any], items: Iterable[Any], workers: int
) -> Generator[Any, None, None]:
    """``function(item)`` for each of ``items``, in order, computed by ``workers`` worker
    processes: memory stays flat, the workers are stopped however the iteration ends,
    an exception of ``function`` is raised here.
    ``function`` (of a module), the items and the results must be picklable.

    A worker is given an item only when it holds none: with big items and results,
    both pipes full would make it and this process wait for each other for ever.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    calls: Iterator[Any] = ((function, item) for item in items)
    # the garbage collector is the caller's to tune here
    for _, result in in_order(calls, workers, _call, most=1, collect_less=False):
        yield result


def _call(work: Any) -> Any:
    """A call of :func:`map_in_order` in a worker: ``work`` is (function, item)."""
    function, item = work
    return function(item)


class _Pending:
    """A unit of work in its turn, and its result once a worker sent it."""

    __slots__ = ("done", "result", "work")

    def __init__(self, work: Any) -> None:
        self.work = work
        self.result: Any = None
        self.done = False


def in_order(
    units: Iterator[U],
    workers: int,
    serve: Callable[[U], Any],
    *,
    here: Callable[[U], bool] = lambda unit: False,
    most: int = PER_WORKER,
    collect_less: bool = True,
) -> Generator[tuple[U, Any], None, None]:
    """Each of ``units`` with ``serve(unit)`` computed by one of ``workers`` worker
    processes, in input order; ``None`` for a unit to be done in this process by the
    caller (``here(unit)``: standard input, a pipe).  A worker holds ``most`` units at
    once; ``serve`` (a module's function, or a :func:`functools.partial` of one), the
    units and the results must be picklable.  With ``collect_less``, the garbage
    collector runs less often meanwhile (:func:`collecting_less`)."""
    collector = collecting_less() if collect_less else nullcontext()
    with collector, _Pool(workers, serve) as pool:
        pending: deque[_Pending] = deque()  # in input order
        waiting: deque[_Pending] = deque()  # not yet handed to a worker
        more = True
        while more or pending:
            while more and len(pending) < workers * AHEAD:
                work = next(units, None)
                if work is None:
                    more = False
                    break
                entry = _Pending(work)
                pending.append(entry)
                if not here(work):
                    waiting.append(entry)
            if not pending:
                break
            pool.hand_out(waiting, most)
            head = pending[0]
            if here(head.work):
                pending.popleft()
                yield head.work, None
                continue
            while not head.done:
                pool.collect()
                pool.hand_out(waiting, most)
            pending.popleft()
            yield head.work, head.result


@contextmanager
def collecting_less() -> Iterator[None]:
    """Collect cycles less often while checking (records hold no cycles), objects that
    live until the end frozen out; the caller's settings back afterwards."""
    thresholds = gc.get_threshold()
    froze = gc.get_freeze_count() == 0  # never unfreeze what the caller froze
    if froze:
        gc.freeze()
    gc.set_threshold(50_000, 10, 10)
    try:
        yield
    finally:
        if froze:
            gc.unfreeze()
        gc.set_threshold(*thresholds)


# -- the processes ------------------------------------------------------------


class _Worker:
    """A worker process, the pipe to it, and the units it holds, oldest first."""

    __slots__ = ("conn", "held", "process")

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.held: deque[_Pending] = deque()


class _Pool:
    """Worker processes, each fed units through a pipe of its own, each answering with
    ``serve(unit)``.

    Not :class:`multiprocessing.pool.Pool`, whose ``terminate()`` can wait for ever for
    a lock an idle worker holds: here no lock is shared, and stopping is a SIGTERM, then
    a SIGKILL for a worker still there after a moment.
    """

    def __init__(self, count: int, serve: Callable[[Any], Any]) -> None:
        import multiprocessing

        context = multiprocessing.get_context()
        self.workers: list[_Worker] = []
        # Workers are started with SIGINT blocked, and ignore it before they unblock it:
        # a Ctrl-C as they start is this process's alone, and none prints a traceback.
        blocked = _block_sigint()
        try:
            for _ in range(count):
                ours, theirs = context.Pipe()
                process = context.Process(
                    target=_work, args=(theirs, serve), daemon=True, name="notation-worker"
                )
                self.workers.append(_Worker(process, ours))
                process.start()
                theirs.close()
        except BaseException:
            self.stop()
            raise
        finally:
            _restore_sigint(blocked)

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def hand_out(self, waiting: deque[_Pending], most: int = PER_WORKER) -> None:
        """Give waiting units, in order, to the workers that hold fewer than ``most``."""
        while waiting:
            worker = min(self.workers, key=lambda w: len(w.held))
            if len(worker.held) >= most:
                return
            entry = waiting.popleft()
            worker.conn.send(entry.work)
            worker.held.append(entry)

    def collect(self) -> None:
        """Wait for at least one result, and file every result that came."""
        busy = [worker for worker in self.workers if worker.held]
        assert busy, "no unit handed out: nothing to wait for"
        from multiprocessing.connection import wait

        ready = wait([worker.conn for worker in busy] + [w.process.sentinel for w in busy])
        for worker in busy:
            if worker.conn in ready or (
                worker.process.sentinel in ready and worker.conn.poll()
            ):
                try:
                    ok, payload = worker.conn.recv()
                except EOFError:
                    raise WorkerError("a worker process stopped unexpectedly") from None
                if not ok:
                    raise payload
                entry = worker.held.popleft()
                entry.result, entry.done = payload, True
            elif worker.process.sentinel in ready:
                raise WorkerError(
                    "a worker process stopped unexpectedly "
                    f"(exit code {worker.process.exitcode}; out of memory?)"
                )

    def stop(self) -> None:
        """End every worker now, whatever it is doing, with a bounded wait."""
        # SIGTERM first, the pipe closed after: a worker that found its pipe closed
        # while still running would report the broken pipe on standard error.
        for worker in self.workers:
            if worker.process.pid is not None:
                worker.process.terminate()
            worker.conn.close()
        for worker in self.workers:
            if worker.process.pid is not None:
                worker.process.join(STOP_WAIT)
                if worker.process.exitcode is None:
                    worker.process.kill()
                    worker.process.join(STOP_WAIT)
        self.workers = []


def _block_sigint() -> bool:
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    return True


def _restore_sigint(blocked: bool) -> None:
    # A Ctrl-C that came meanwhile is delivered here, as a KeyboardInterrupt.
    if blocked:
        import signal

        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _work(conn: Connection, serve: Callable[[Any], Any]) -> None:
    """A worker's life: serve the units that come, send back their results."""
    import signal
    import traceback

    # Ctrl-C is for the main process, which stops the workers (no traceback from each).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _restore_sigint(hasattr(signal, "pthread_sigmask"))
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)  # as collecting_less, for the worker's life
    while True:
        try:
            unit = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, object] = (True, serve(unit))
        except Exception as exc:  # a bug: the main process raises it, as if it were its own
            reply = (False, exc)
        try:
            conn.send(reply)
        except OSError:  # the main process stopped listening: it is stopping this one
            return
        except Exception:  # an exception that cannot be pickled: its traceback, as text
            conn.send((False, RuntimeError(traceback.format_exc())))
