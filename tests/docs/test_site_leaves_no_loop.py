"""Run after `test_site.py` (the file sorts after it): its browser, Playwright's sync API, marks
an event loop as running in the thread while it is open. Regression: the browser was
session-scoped, so every later test of the same pytest worker that started an event loop
failed ("Cannot run the event loop while another loop is running"): two benchmark tests in CI.
In one process (``make test JOBS=0``) this test follows the site's tests and fails then."""

import anyio


async def _answer() -> int:
    return 42


def test_an_event_loop_starts_after_the_site_tests() -> None:
    assert anyio.run(_answer) == 42
