"""A column of conversation bodies in an Arrow table or a Parquet file, converted in place.

The column holds the bodies as JSON text (string or binary) or as Arrow values (a struct per
body, or a list of turns with ``kind="messages"``). Its cells are replaced by the converted
bodies, in the same encoding (JSON text stays text; Arrow values become the Arrow values
pyarrow infers for the output); every other column and the row order are kept, and two
columns are added: the losses of each row (a list of ``{pointer, code, reason, part_type}``)
and its coded error (``{code, path, message}``, null when it converted; the converted cell is
null then). Needs the ``arrow`` extra (pyarrow).

>>> import pyarrow as pa
>>> from interlingua.datasets import Options
>>> from interlingua.datasets.arrow import convert_table
>>> table = pa.table({"id": [7, 8], "body": [
...     '{"model": "m", "messages": [{"role": "user", "content": "hi"}]}', "{"]})
>>> out = convert_table(table, "body", Options("openai-chat", "anthropic"), jobs=1)
>>> out.column_names
['id', 'body', 'losses', 'error']
>>> out["error"][1].as_py()["code"]
'invalid_json'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type information
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.datasets.batch import PRELOAD, batch_kind
from interlingua.datasets.body import AUTO, Options
from interlingua.datasets.cells import Cell, convert_cells, without_nulls
from interlingua.datasets.pool import chunks, default_jobs, ordered_map

LOSS = pa.struct(
    [
        ("pointer", pa.string()),
        ("code", pa.string()),
        ("reason", pa.string()),
        ("part_type", pa.string()),
    ]
)
LOSSES = pa.list_(LOSS)
ERROR = pa.struct([("code", pa.string()), ("path", pa.string()), ("message", pa.string())])

#: Cells a worker takes at once.
CHUNK = 256


def _is_text(kind: Any) -> bool:
    return bool(
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_binary(kind)
        or pa.types.is_large_binary(kind)
    )


def _options(options: Options, values: list[Any], text: bool) -> Options:
    """With a named source and no kind, the first body's kind holds for every row."""
    if options.source == AUTO or options.kind is not None:
        return options
    for value in values:
        if value is None:
            continue
        try:
            body = read_json(value) if text else without_nulls(value)
        except InputError:  # unreadable: its row gets its coded error later
            continue
        return batch_kind(options, body)
    return options


def convert_cells_of(
    values: list[Any], options: Options, text: bool, jobs: int, max_bytes: int
) -> Iterator[Cell]:
    """Every cell converted, in order, on ``jobs`` processes."""
    options = _options(options, values, text)
    work = partial(convert_cells, options=options, text=text, max_bytes=max_bytes)
    for done in ordered_map(work, chunks(values, CHUNK), jobs, preload=PRELOAD):
        yield from done


def convert_table(
    table: Any,
    column: str,
    options: Options,
    *,
    jobs: int | None = 1,
    losses_column: str = "losses",
    error_column: str = "error",
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Any:
    """``table`` (a ``pyarrow.Table`` or ``RecordBatch``) with ``column`` converted as
    ``options`` say (their source a format or ``auto``) and the loss and error columns added
    (see the module). ``jobs``: processes (None: every core; Ray and other engines call it
    with 1)."""
    for name in (losses_column, error_column):
        if name in table.column_names:
            raise ValueError(f"the table already has a column {name!r}; name another")
    values = table.column(column)
    text = _is_text(values.type)
    options = replace(options, loss_problems=False)  # the losses go to their column
    cells = list(
        convert_cells_of(values.to_pylist(), options, text, jobs or default_jobs(), max_bytes)
    )
    outputs = [cell.output for cell in cells]
    converted = pa.array(outputs, type=values.type if text else None)
    where = table.column_names.index(column)
    out = table.set_column(where, pa.field(column, converted.type), converted)
    losses = pa.array([[_loss(x) for x in cell.losses] for cell in cells], type=LOSSES)
    errors = pa.array([cell.error for cell in cells], type=ERROR)
    return out.append_column(losses_column, losses).append_column(error_column, errors)


def _loss(loss: dict[str, str]) -> dict[str, str | None]:
    return {"part_type": None, **loss}


def convert_parquet(
    path: str,
    destination: str,
    column: str,
    options: Options,
    *,
    jobs: int | None = 1,
    rows: int = 10_000,
) -> None:
    """Convert ``column`` of the Parquet file ``path`` as ``options`` say into
    ``destination``, ``rows`` rows at
    a time (memory does not grow with the file). Every batch is written with the first one's
    schema: a column of Arrow values whose converted bodies need another Arrow type in a later
    batch stops with pyarrow's error (hold the bodies as JSON text then)."""
    reader = pq.ParquetFile(path)
    writer = None
    try:
        for batch in reader.iter_batches(batch_size=rows):
            table = convert_table(
                pa.Table.from_batches([batch]),
                column,
                options,
                jobs=jobs,
            )
            if writer is None:
                writer = pq.ParquetWriter(destination, table.schema)
            writer.write_table(table.cast(writer.schema))
        if writer is None:  # an empty file: an empty one back, with the added columns
            empty = convert_table(reader.schema_arrow.empty_table(), column, options)
            writer = pq.ParquetWriter(destination, empty.schema)
            writer.write_table(empty)
    finally:
        if writer is not None:
            writer.close()
