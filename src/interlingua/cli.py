"""The `interlingua` command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import BinaryIO

from interlingua.generated.validators import VALIDATORS
from interlingua.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.validation import is_error, validate

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _read_limited(stream: BinaryIO, limit: int) -> bytes:
    """Read at most ``limit + 1`` bytes, so an endless input is refused without reading it all."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError("input_too_large", f"input is larger than the limit of {limit} bytes")
    return data


def _read_source(source: str, limit: int) -> bytes:
    if source == "-":
        return _read_limited(sys.stdin.buffer, limit)
    try:
        with open(source, "rb") as stream:
            return _read_limited(stream, limit)
    except OSError as exc:
        raise InputError(
            "unreadable_input", f"cannot read {source}: {exc.strerror or exc}"
        ) from None


def cmd_validate(args: argparse.Namespace) -> int:
    try:
        document = read_json(_read_source(args.file, args.max_bytes), max_bytes=args.max_bytes)
    except InputError as exc:
        print(json.dumps(exc.as_dict(), ensure_ascii=False), file=sys.stderr)
        return EXIT_UNREADABLE
    findings = validate(document, args.type)
    print(
        json.dumps(
            [f.model_dump(mode="json", exclude_none=True) for f in findings],
            indent=2,
            ensure_ascii=False,
        )
    )
    return EXIT_INVALID if any(is_error(f) for f in findings) else EXIT_VALID


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="interlingua", description="Work with interlingua documents."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "validate",
        help="validate a document",
        description="Validate a Conversation, Response or Message (or any named type). Exit 0 when "
        "valid, 1 when invalid (findings as a JSON list on stdout), 2 when the input cannot be "
        "read as JSON (a coded error on stderr).",
    )
    check.add_argument("file", help="path to a JSON file, or - for standard input")
    check.add_argument(
        "--type", choices=sorted(VALIDATORS), help="schema type (default: recognise the document)"
    )
    check.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    check.set_defaults(run=cmd_validate)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code
