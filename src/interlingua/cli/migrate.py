"""``interlingua migrate --to N FILE``: a document in another version of the format.

The migrated document goes to stdout; each loss to stderr (``loss: CODE at POINTER: REASON``,
or with ``--json`` one ``{"loss": {...}}`` object per line), and so does a coded error. Exit 0
when migrated, 1 when ``--strict`` refused a lossy migration, 2 when the input cannot be read
or migrated.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json

EXIT_DONE, EXIT_LOSSY, EXIT_UNUSABLE = 0, 1, 2


def register(commands: Any) -> None:
    command = commands.add_parser(
        "migrate",
        help="migrate a document to another schema version",
        description="Print a Conversation, Response or Message in another version of the "
        "canonical format (up or down, one version at a time; see docs/spec/migration.md). "
        "Exit 0 when migrated, 1 when --strict refused a lossy migration (losses on stderr), "
        "2 when the input cannot be read or migrated (a coded error on stderr).",
    )
    command.add_argument("file", help="path to a JSON file, or - for standard input")
    command.add_argument("--to", type=int, required=True, metavar="N", help="target version")
    command.add_argument(
        "--from-version",
        type=int,
        metavar="N",
        help="version of a document without schema_version (a Message); default: 1",
    )
    command.add_argument("--strict", action="store_true", help="refuse a lossy migration")
    command.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    command.add_argument("--json", action="store_true", help="write errors and losses as JSON")
    command.set_defaults(run=run)


def _report(what: str, code: str, path: str, message: str, as_json: bool) -> None:
    if as_json:
        record = {"code": code, "path": path, "message": message}
        print(json.dumps({what: record}, ensure_ascii=False), file=sys.stderr)
    else:
        print(f"{what}: {code} at {path or '/'}: {message}", file=sys.stderr)


def _read(source: str, limit: int) -> Any:
    try:
        if source == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(source, "rb") as stream:
                data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError("unreadable_input", f"cannot read {source}: {exc.strerror}") from None
    return read_json(data, max_bytes=limit)


def run(args: argparse.Namespace) -> int:
    from interlingua.conversion import ConversionError  # noqa: PLC0415 - loaded on use
    from interlingua.documents.migrate import migrate  # noqa: PLC0415

    try:
        document = _read(args.file, args.max_bytes)
        migrated = migrate(document, args.to, source=args.from_version)
    except InputError as exc:
        _report("error", exc.code, exc.path, exc.message, args.json)
        return EXIT_UNUSABLE
    except ConversionError as exc:
        _report("error", exc.code, exc.pointer, exc.message, args.json)
        return EXIT_UNUSABLE
    for loss in migrated.losses:
        _report("loss", loss.code, loss.pointer, loss.reason, args.json)
    if args.strict and migrated.losses:
        return EXIT_LOSSY
    print(json.dumps(migrated.output, indent=2, ensure_ascii=False))
    return EXIT_DONE
