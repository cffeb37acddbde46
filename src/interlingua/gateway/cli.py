"""``interlingua tool-id`` and ``interlingua card``: the gateway's derivations from a shell.

Exit 0 with the result on stdout; exit 2 with a GatewayErrorEnvelope (JSON, one line) on stderr
when the input is bad. Never a traceback.

- ``tool-id NAME --schema FILE [--version V] [--server NAME]`` prints the canonical tool id.
  An unreadable schema file, or one that fails the ingest trust checks, is SCHEMA_INVALID; a
  name, version or server outside the grammar is TOOL_ID_INVALID.
- ``card TOOL.json [--score S]`` prints the ChoiceCard of a GatewayTool document. An
  unreadable file or a document that is not a GatewayTool is ARGS_INVALID; the tool's input
  schema is trust-checked like any ingest (SCHEMA_INVALID); then TOOL_ID_INVALID or
  CARD_TOO_LARGE as building the card finds.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Final

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json

# The gateway's modules load its models: imported by the commands that run, not by
# `interlingua --help` (see `register`).
if TYPE_CHECKING:
    from interlingua.gateway.errors import GatewayError
    from interlingua.generated.models import GatewayErrorCode, GatewayTool

EXIT_OK, EXIT_BAD_INPUT = 0, 2
#: The gateway validates arguments with a full JSON Schema validator and never shows the
#: schema to a provider, so the provider-portability rule of ToolDefinition does not apply.
_NOT_APPLICABLE: Final = frozenset({"non_portable_tool_schema"})


def _read(source: str, code: GatewayErrorCode) -> Any:
    """The JSON document in file ``source`` (``-`` for stdin); ``code`` if it cannot be read."""
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415

    try:
        if source == "-":
            data = sys.stdin.buffer.read(DEFAULT_MAX_BYTES + 1)
        else:
            with open(source, "rb") as stream:
                data = stream.read(DEFAULT_MAX_BYTES + 1)
        return read_json(data)
    except OSError as exc:
        raise GatewayError(
            code,
            f"cannot read {source}: {exc.strerror or exc}",
            details={"cause": "unreadable_input"},
        ) from None
    except InputError as exc:
        raise GatewayError(
            code,
            f"{source} is not a readable JSON document: {exc.message}",
            details={"cause": exc.code},
        ) from None


def _fail(error: GatewayError) -> int:
    print(json.dumps(error.as_json(), ensure_ascii=False), file=sys.stderr)
    return EXIT_BAD_INPUT


def cmd_tool_id(args: argparse.Namespace) -> int:
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415
    from interlingua.gateway.schema_trust import check_schema_trust  # noqa: PLC0415
    from interlingua.gateway.tool_id import derive_tool_id  # noqa: PLC0415

    try:
        schema = _read(args.schema, "SCHEMA_INVALID")
        check_schema_trust(schema)
        tool_id = derive_tool_id(args.name, schema, args.version, args.server)
    except GatewayError as error:
        return _fail(error)
    print(tool_id)
    return EXIT_OK


def _gateway_tool(document: Any) -> GatewayTool:
    from interlingua.documents.validation import is_error, validate  # noqa: PLC0415
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415
    from interlingua.generated.models import GatewayTool  # noqa: PLC0415

    errors = [
        f
        for f in validate(document, "GatewayTool")
        if is_error(f) and f.code not in _NOT_APPLICABLE
    ]
    if errors:
        first = errors[0]
        raise GatewayError(
            "ARGS_INVALID",
            f"not a GatewayTool: {first.path or '/'}: {first.message}",
            details={
                "findings": [f.model_dump(mode="json", exclude_none=True) for f in errors[:20]]
            },
        )
    return GatewayTool.model_validate(document)


def cmd_card(args: argparse.Namespace) -> int:
    from interlingua.gateway.cards import build_card  # noqa: PLC0415
    from interlingua.gateway.errors import GatewayError  # noqa: PLC0415
    from interlingua.gateway.schema_trust import check_schema_trust  # noqa: PLC0415
    from interlingua.gateway.tool_id import input_schema_of  # noqa: PLC0415

    try:
        tool = _gateway_tool(_read(args.tool, "ARGS_INVALID"))
        check_schema_trust(input_schema_of(tool.definition))
        card = build_card(tool, args.score)
    except GatewayError as error:
        return _fail(error)
    print(json.dumps(card.model_dump(mode="json", exclude_none=True), indent=2, ensure_ascii=False))
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tool-id`` and ``card`` subcommands to the ``interlingua`` parser."""
    tool_id = subparsers.add_parser(
        "tool-id",
        help="derive the canonical gateway tool id of an upstream tool",
        description="Print the canonical tool id (seed 002 §1) of an upstream MCP tool. Exit 0, "
        "or 2 with a coded JSON error on stderr.",
    )
    tool_id.add_argument("name", help="the upstream tool name, as the server reports it")
    tool_id.add_argument(
        "--schema", required=True, help="the tool's input schema (a JSON file, or -)"
    )
    tool_id.add_argument("--version", help="the upstream-declared version (replaces the hash)")
    tool_id.add_argument("--server", help="the upstream server name (used as the namespace)")
    tool_id.set_defaults(run=cmd_tool_id)
    card = subparsers.add_parser(
        "card",
        help="build the choice card of a tool",
        description="Print the ChoiceCard (seed 002 §2) of a GatewayTool document. Exit 0, or 2 "
        "with a coded JSON error on stderr.",
    )
    card.add_argument("tool", help="a GatewayTool JSON file, or -")
    card.add_argument("--score", type=float, help="relevance score to carry on the card")
    card.set_defaults(run=cmd_card)
