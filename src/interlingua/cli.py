"""The `interlingua` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, BinaryIO

from interlingua.gateway import cli as gateway_cli
from interlingua.generated.validators import VALIDATORS
from interlingua.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.validation import detect_document, is_error, validate
from interlingua.view import views

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


_UNREADABLE: Any = object()


def _read_document(source: str, max_bytes: int) -> Any:
    """The parsed document, or _UNREADABLE after printing its coded error on stderr."""
    try:
        return read_json(_read_source(source, max_bytes), max_bytes=max_bytes)
    except InputError as exc:
        print(json.dumps(exc.as_dict(), ensure_ascii=False), file=sys.stderr)
        return _UNREADABLE


def cmd_validate(args: argparse.Namespace) -> int:
    document = _read_document(args.file, args.max_bytes)
    if document is _UNREADABLE:
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


def _messages(document: Any) -> list[Any]:
    """The messages of a Conversation, Response or Message document."""
    kind = detect_document(document)
    if kind == "Conversation":
        return list(document["messages"])
    if kind == "Response":
        return [document["message"]]
    return [document]


def cmd_views(args: argparse.Namespace) -> int:
    document = _read_document(args.file, DEFAULT_MAX_BYTES)
    if document is _UNREADABLE:
        return EXIT_UNREADABLE
    errors = [f for f in validate(document) if is_error(f)]
    if errors:
        print(
            json.dumps([f.model_dump(mode="json", exclude_none=True) for f in errors], indent=2),
            file=sys.stderr,
        )
        return EXIT_INVALID
    capabilities = [c.strip() for c in args.capabilities.split(",") if c.strip()]
    rows = []
    for number, message in enumerate(_messages(document)):
        for view in views(message, capabilities):
            if args.opa:
                print(json.dumps(view.to_opa_input(), ensure_ascii=False, sort_keys=True))
            else:
                content = (view.content or "").replace("\n", " ")
                direction = "pre" if view.is_pre else "post"
                rows.append(
                    (
                        f"{number}.{view.index}",
                        view.role,
                        view.kind,
                        view.action,
                        direction,
                        view.name or "",
                        view.uri or "",
                        content[:60],
                    )
                )
    if rows:
        header = ("part", "role", "kind", "action", "dir", "name", "uri", "content")
        widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]
        for row in (header, *rows):
            print(
                "  ".join(
                    str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)
                ).rstrip()
            )
    return EXIT_VALID


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
    show = commands.add_parser(
        "views",
        help="show the policy views of a document",
        description="Print one view per content part of a Conversation, Response or Message: "
        "a table, or with --opa one OPA input document per line.",
    )
    show.add_argument("file", help="path to a JSON file, or - for standard input")
    show.add_argument(
        "--capabilities", default="", help="comma-separated capabilities to grant (read_roles,…)"
    )
    show.add_argument("--opa", action="store_true", help="print OPA inputs as JSON lines")
    show.set_defaults(run=cmd_views)
    gateway_cli.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_VALID
    return code
