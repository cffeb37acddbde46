"""Coverage paused for a stretch of a test: the ``untraced`` marker's mechanism (tests/conftest.py).

Coverage measures in two ways here: its line tracer in this process, and, through the variable
``patch = ["subprocess"]`` sets, a tracer started in every Python child process. Both stop for
the stretch and come back as they were.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: What coverage's ``patch = ["subprocess"]`` puts in the environment for child processes.
CHILD_COVERAGE = "COVERAGE_PROCESS_CONFIG"


@contextmanager
def coverage_paused() -> Iterator[None]:
    """No tracer in this thread and none in the processes started meanwhile. Coverage's tracer
    goes back with ``sys.settrace``, which it supports (it re-installs its C entry point on the
    next call)."""
    tracer = sys.gettrace()
    child = os.environ.pop(CHILD_COVERAGE, None)
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)
        if child is not None:
            os.environ[CHILD_COVERAGE] = child
