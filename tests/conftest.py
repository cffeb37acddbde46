"""Suite-wide settings: hypothesis profiles, and the `slow` marker on property, mutation and
packaging tests.

Profiles (``HYPOTHESIS_PROFILE``; ``ci`` when unset, which ``make test`` also names):

- ``ci``: no deadline and no ``too_slow`` health check, so a property test does not fail because
  the machine is busy (two cores shared with other jobs); no example database, so parallel
  workers share no state.
- ``dev``: hypothesis's own defaults (a 200 ms deadline), to notice a slow example locally.

``INTERLINGUA_PROPERTY_EXAMPLES`` sets how many examples the per-format property tests draw
(tests/adapters/test_properties.py, tests/texts/test_chatml.py); raise it for a longer hunt.
``pytest -m 'not slow'`` leaves out the slow tests for a quick run.

Tests marked ``untraced`` run with coverage paused, in this process and in the processes they
start: they repeat, thousands of times, code that other tests already cover (mutants and random
bodies through the generated converters, a second generation), and coverage's line tracer would
make them two to three times slower.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.tracing import coverage_paused

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Modules whose every test is slow: mutation runs, and the wheel build.
_SLOW_MODULES = frozenset({"test_mutations.py", "test_wheel.py"})
#: Run first: the compiled-wheel build (minutes, in a compiler process), so that it overlaps the
#: other worker's tests instead of starting late on one worker while the other has finished.
#: With `make test`'s `--dist worksteal`, the idle worker takes over the rest of this one's queue.
_FIRST_MODULES = frozenset({"test_compiled.py"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: Path(str(item.fspath)).name not in _FIRST_MODULES)
    for item in items:
        function = getattr(item, "obj", None)
        if Path(str(item.fspath)).name in _SLOW_MODULES or getattr(
            function, "is_hypothesis_test", False
        ):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _untraced(request: pytest.FixtureRequest) -> Iterator[None]:
    """Coverage paused for a test marked ``untraced`` (tests/tracing.py)."""
    if request.node.get_closest_marker("untraced") is None:
        yield
        return
    with coverage_paused():
        yield


@pytest.fixture
def data_checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every payload `check_data` is handed from now on, by conversion or by detection (which
    comes first): for tests that a body read with `read_json` is not walked again."""
    from interlingua.conversion import converter, detector

    checked: list[Any] = []
    real = converter.check_data

    def counted(payload: Any) -> None:
        checked.append(payload)
        real(payload)

    monkeypatch.setattr(converter, "check_data", counted)
    monkeypatch.setattr(detector, "check_data", counted)
    return checked
