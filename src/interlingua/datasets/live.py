"""Lines from a pipe or a terminal, grouped as they arrive.

A chunk closes when it is full or when no further line is waiting, so a line typed (or
written by a program that then waits for the answer) is converted at once, while a fast
input still travels in full chunks. A thread reads ahead, at most one chunk, so the reading
never blocks the hand-off of what has arrived.
"""

from __future__ import annotations

from collections.abc import Iterator
from queue import Empty, Queue
from threading import Thread
from typing import TypeVar

T = TypeVar("T")


class _End:
    """The input ended (``error``: it could not be read further)."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


def live_chunks(items: Iterator[T], size: int) -> Iterator[tuple[list[T], bool]]:
    """``items`` in lists of at most ``size``, each with whether the input was idle after it
    (no further item waiting)."""
    waiting: Queue[T | _End] = Queue(maxsize=size)

    def read() -> None:
        try:
            for item in items:
                waiting.put(item)
        except BaseException as exc:  # handed to the consumer, raised there
            waiting.put(_End(exc))
        else:
            waiting.put(_End())

    Thread(target=read, name="interlingua-reader", daemon=True).start()
    item = waiting.get()
    while not isinstance(item, _End):
        chunk, idle = [item], False
        while len(chunk) < size:
            try:
                item = waiting.get_nowait()
            except Empty:
                idle = True
                break
            if isinstance(item, _End):
                break
            chunk.append(item)
        yield chunk, idle or isinstance(item, _End)
        if not isinstance(item, _End):
            item = waiting.get()
    if item.error is not None:
        raise item.error
