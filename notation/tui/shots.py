"""Pictures of the app without a terminal: what the screenshots in docs/img and the
snapshot tests are made of (Textual runs the app headless at a given size).

Nothing in a picture may depend on timing: :func:`settle` waits until every record
is found and checked and the screen has caught up.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from notation.tui.app import ReplayApp
from notation.tui.catalog import Catalog, RecordSource

__all__ = ["drive", "make_app", "screenshot", "settle"]


async def settle(pilot: Pilot[int], timeout: float = 60.0) -> None:
    """Wait until the app's workers are done and what they found is on the screen."""
    app = pilot.app
    assert isinstance(app, ReplayApp)
    deadline = time.monotonic() + timeout
    while not app.settled():
        if time.monotonic() > deadline:
            raise TimeoutError("the records were not all found and checked in time")
        await pilot.pause(0.02)
    await app.workers.wait_for_complete()
    app.take_in()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def make_app(
    path: Path, *, record: int = 1, turn: int | None = None, ascii: bool = False
) -> ReplayApp:
    """The app on the records of ``path`` (named as given), at ``turn`` of ``record``."""
    catalog = Catalog([RecordSource(str(path), path=path)])
    return ReplayApp(catalog, start=record - 1, turn=turn, ascii=ascii)


def screenshot(app: ReplayApp, size: tuple[int, int], title: str | None = None) -> str:
    """The SVG picture of ``app`` at ``size`` (columns, rows), once settled."""

    async def run() -> str:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            return app.export_screenshot(title=title)

    return asyncio.run(run())


def drive(
    app: ReplayApp,
    scenario: Callable[[Pilot[int]], Awaitable[None]],
    size: tuple[int, int] = (100, 30),
) -> None:
    """Run ``app`` headless at ``size``, settle it, then play ``scenario`` with its pilot
    (the tests' way in: Textual's own driver, no terminal)."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot)

    asyncio.run(run())
