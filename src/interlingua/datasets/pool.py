"""Work spread over processes, results in input order, memory bounded.

The standard library's process pool does the scheduling; all this adds is back-pressure: at
most ``window`` tasks are in flight, so the input is read only as fast as results are taken,
and a batch of any length runs in the same memory. The first task runs in this process (an
input of one chunk starts no pool); so does every task with ``jobs=1``.

On Linux, a process with one thread forks its workers: they start with everything the first
task loaded and built (adapters, compiled validators), so they convert at full speed at once.
A process with other threads (the thread reading a pipe holds stdin's lock; a caller's own
threads) would hand their held locks to children that then wait on them for ever, so its
workers start from a fork server instead, with the modules they need imported once there
(elsewhere: the platform's default). As with any process pool, a script that converts at
import time needs the ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter)."""
    it = iter(items)
    while batch := list(islice(it, size)):
        yield batch


def _context(preload: list[str]) -> multiprocessing.context.BaseContext:
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context()  # Windows: spawn
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(preload)  # (once the server runs, later calls change nothing)
    return context


def _never(task: object) -> bool:
    return False


def ordered_map(
    work: Callable[[T], R],
    tasks: Iterable[T],
    jobs: int,
    *,
    window: int | None = None,
    settle: Callable[[T], bool] = _never,
    preload: list[str] | None = None,
    forked: Callable[[T], T] | None = None,
) -> Iterator[R]:
    """``map(work, tasks)`` on ``jobs`` processes, in order, with at most ``window`` tasks
    (default twice ``jobs``) submitted and not yet taken. After a task for which ``settle``
    is true, every result is handed back before the next task is asked for (the input is
    waiting on a person). ``work`` and every task must pickle (a module-level function, or a
    ``functools.partial`` of one, and plain data); ``preload`` names the modules the
    workers import before their first task. ``forked`` gives what a task becomes for a
    worker forked from this process (which shares its open files)."""
    tasks = iter(tasks)
    for task in islice(tasks, 1):
        yield work(task)
    if jobs <= 1:
        yield from map(work, tasks)
        return
    window = window or 2 * jobs
    pool: ProcessPoolExecutor | None = None
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            if pool is None:
                context = _context(preload or [])
                if context.get_start_method() == "fork":
                    # What the workers inherit stays shared: without this the collector's
                    # first pass in each worker writes to (and so copies) every page it has.
                    gc.freeze()
                pool = ProcessPoolExecutor(jobs, mp_context=context)
                if context.get_start_method() != "fork":
                    forked = None
            pending.append(pool.submit(work, forked(task) if forked else task))
            while pending and (len(pending) >= window or settle(task)):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        if pool is not None:  # stopped early (the reader went away): drop what has not started
            pool.shutdown(wait=True, cancel_futures=True)
            gc.unfreeze()  # the caller's own objects are the collector's again
