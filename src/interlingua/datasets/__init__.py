"""Conversation datasets at scale: every core, Arrow and Parquet tables, Ray Data.

- :func:`convert_lines` and :func:`convert_many` convert a stream of JSON Lines or parsed
  bodies on a process pool, in order, in flat memory; :class:`Summary` counts a run.
- :func:`convert_stream` (``interlingua convert --jobs N``) reads JSON Lines from a file or a
  pipe and hands back each chunk :class:`Written`: the bytes to write, its problems, its
  summary.
- :mod:`interlingua.datasets.arrow` (extra ``[arrow]``): a column of bodies in an Arrow table
  or Parquet file converted, every other column kept.
- :mod:`interlingua.datasets.ray` (extra ``[ray]``): the same over a Ray Dataset.

Every name is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interlingua._lazy import lazy_exports

if TYPE_CHECKING:
    from interlingua.datasets.batch import convert_lines, convert_many, convert_stream
    from interlingua.datasets.body import Converted, Options, Problem, convert_body
    from interlingua.datasets.lines import Line, Unread
    from interlingua.datasets.pool import default_jobs
    from interlingua.datasets.summary import Summary
    from interlingua.datasets.written import Written

_WHERE = {
    "convert_lines": "interlingua.datasets.batch",
    "convert_many": "interlingua.datasets.batch",
    "convert_stream": "interlingua.datasets.batch",
    "Converted": "interlingua.datasets.body",
    "Options": "interlingua.datasets.body",
    "Problem": "interlingua.datasets.body",
    "convert_body": "interlingua.datasets.body",
    "Line": "interlingua.datasets.lines",
    "Unread": "interlingua.datasets.lines",
    "default_jobs": "interlingua.datasets.pool",
    "Summary": "interlingua.datasets.summary",
    "Written": "interlingua.datasets.written",
}
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "Converted",
    "Line",
    "Options",
    "Problem",
    "Summary",
    "Unread",
    "Written",
    "convert_body",
    "convert_lines",
    "convert_many",
    "convert_stream",
    "default_jobs",
]
