"""A Ray Dataset of conversations converted, validated and audited past one machine.

:func:`convert_dataset` runs :func:`interlingua.datasets.arrow.convert_table` on every Arrow
batch with ``map_batches`` (Ray schedules the batches over the cluster's CPUs) and returns
two datasets: the rows that converted (the body column converted, a loss column added: the
audit) and the rows that did not (the body as it came, with its coded error and any losses:
the validation). Needs the ``ray`` extra.

Both datasets are lazy views of the same conversion: consuming both runs it twice, unless the
caller materialises them (``.materialize()``) or writes them in one pass.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type information
import pyarrow.compute as pc  # type: ignore[import-untyped]

from interlingua.conversion.reading import InputError, read_json
from interlingua.datasets.arrow import convert_table
from interlingua.datasets.batch import batch_kind
from interlingua.datasets.body import AUTO, Options
from interlingua.datasets.cells import without_nulls

#: The column that carries a failed row's body as it came, between the two steps.
_INPUT = "__interlingua_input"


class Split(NamedTuple):
    """What :func:`convert_dataset` returns (both are ``ray.data.Dataset``)."""

    converted: Any
    failed: Any


def annotate_batch(
    batch: Any, column: str, options: Options, losses_column: str, error_column: str
) -> Any:
    """One Arrow batch converted (:func:`convert_table`, in this process), with the input
    body kept beside it for the failed rows (what each Ray task runs)."""
    table = batch if isinstance(batch, pa.Table) else pa.Table.from_batches([batch])
    out = convert_table(
        table,
        column,
        options,
        jobs=1,
        losses_column=losses_column,
        error_column=error_column,
    )
    return out.append_column(_INPUT, table.column(column))


def rows_where(batch: Any, error_column: str, failed: bool) -> Any:
    """The rows of an annotated batch that failed (``failed``) or converted."""
    missing = pc.is_null(batch.column(error_column))
    return batch.filter(pc.invert(missing) if failed else missing)


def _first_kind(dataset: Any, column: str, options: Options) -> str | None:
    """With a named source and no kind, the first body's kind holds for every row, as in
    one process (told here, on the driver, so every batch uses the same)."""
    if options.source == AUTO or options.kind is not None:
        return options.kind
    for row in dataset.select_columns([column]).take(1):
        value = row[column]
        try:
            body = read_json(value) if isinstance(value, str | bytes) else without_nulls(value)
        except InputError:
            return None
        return batch_kind(options, body).kind
    return None


def convert_dataset(
    dataset: Any,
    column: str,
    options: Options,
    *,
    batch_size: int = 1024,
    losses_column: str = "losses",
    error_column: str = "error",
) -> Split:
    """Convert ``column`` of a ``ray.data.Dataset`` as ``options`` say (their source a format
    or ``auto``): the :class:`Split` of converted rows (every other column kept, a loss column
    added) and failed rows (the body as it came, a loss column and an error column)."""
    options = replace(options, kind=_first_kind(dataset, column, options))
    annotated = dataset.map_batches(
        annotate_batch,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_kwargs={
            "column": column,
            "options": options,
            "losses_column": losses_column,
            "error_column": error_column,
        },
    )
    converted = annotated.map_batches(
        rows_where,
        batch_format="pyarrow",
        fn_kwargs={"error_column": error_column, "failed": False},
    ).drop_columns([_INPUT, error_column])
    failed = (
        annotated.map_batches(
            rows_where,
            batch_format="pyarrow",
            fn_kwargs={"error_column": error_column, "failed": True},
        )
        .drop_columns([column])
        .rename_columns({_INPUT: column})
    )
    return Split(converted, failed)
