"""Bytes of an open file named by their place, for a worker to read itself.

A forked worker holds the files its parent had open, so a chunk of a file need not travel to
it through a pipe (copied out of the parent and into the worker): its offset and length do,
and the worker reads the bytes at that place (``pread``, which moves no shared file offset).
The reading process already holds those bytes (it cut the chunk): it sends them, not the
place, to a worker that is not its fork, and uses them itself.
"""

from __future__ import annotations

import os
from typing import NamedTuple


class Place(NamedTuple):
    """Where a chunk's bytes are: in the file open as ``fd``, which is ``file``."""

    fd: int
    offset: int
    length: int
    #: (device, inode) of the file: a process where ``fd`` is another file reads nothing.
    file: tuple[int, int]


def identity(fd: int) -> tuple[int, int]:
    """(device, inode) of the file open as ``fd``."""
    found = os.fstat(fd)
    return found.st_dev, found.st_ino


def read_place(place: Place) -> bytes:
    """The bytes at ``place``: all of them, or OSError."""
    if identity(place.fd) != place.file:
        raise OSError(f"file descriptor {place.fd} is not the input file in this process")
    data = os.pread(place.fd, place.length, place.offset)  # a file's: short only at its end
    if len(data) != place.length:
        raise OSError(f"the input file ends before byte {place.offset + place.length}")
    return data
