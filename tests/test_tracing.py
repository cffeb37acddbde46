import os
import subprocess
import sys
from types import FrameType
from typing import Any

import pytest

from tests.tracing import CHILD_COVERAGE, coverage_paused

_CHILD_SEES = f"import os; print(os.environ.get({CHILD_COVERAGE!r}, 'none'))"


def _tracer(frame: FrameType, event: str, arg: Any) -> None:
    return None


def test_neither_this_process_nor_a_child_is_traced_while_paused_and_both_are_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outer = sys.gettrace()  # coverage's own, under --cov
    monkeypatch.setenv(CHILD_COVERAGE, "config")
    sys.settrace(_tracer)
    try:
        with coverage_paused():
            inside = sys.gettrace()
            child_inside = subprocess.run(
                [sys.executable, "-c", _CHILD_SEES], capture_output=True, text=True, check=True
            ).stdout.strip()
        after = sys.gettrace()
    finally:
        sys.settrace(outer)
    assert (inside, child_inside) == (None, "none")
    assert after is _tracer
    assert os.environ[CHILD_COVERAGE] == "config"


def test_the_tracer_comes_back_when_the_test_fails() -> None:
    outer = sys.gettrace()
    sys.settrace(_tracer)
    try:
        with pytest.raises(ZeroDivisionError), coverage_paused():
            1 / 0  # noqa: B018
        after = sys.gettrace()
    finally:
        sys.settrace(outer)
    assert after is _tracer


@pytest.mark.untraced
def test_a_test_marked_untraced_runs_without_coverage() -> None:
    assert sys.gettrace() is None
    assert CHILD_COVERAGE not in os.environ
