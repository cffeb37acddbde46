"""``interlingua store import|query|export`` and ``interlingua cost``.

Problems go to stderr the way every command reports them (``error: line N: CODE at POINTER:
MESSAGE``, or with ``--json`` one ``{"error": {...}}`` object per line). Exit 0 when everything
was imported / answered, 1 when some line or message was refused (the rest imported) or a
query found something to report is not what it is for, 2 when the input or database cannot be
used. SQLAlchemy and the store load only when a store command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from interlingua.conversion.reading import InputError

EXIT_OK, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2
DB_ENV = "INTERLINGUA_STORE"
DB_DEFAULT = "interlingua.db"
QUERIES = ("unanswered", "failed", "cost")


def _report(what: str, record: dict[str, Any], as_json: bool) -> None:
    """One problem on stderr: ``what: [line N: ]CODE at POINTER: MESSAGE``, or as JSON."""
    if as_json:
        print(json.dumps({what: record}, ensure_ascii=False), file=sys.stderr)
        return
    where = f"line {record['line']}: " if "line" in record else ""
    path = record["path"] or "/"
    print(f"{what}: {where}{record['code']} at {path}: {record['message']}", file=sys.stderr)


def _problem(code: str, path: str, message: str, as_json: bool = False) -> None:
    _report("error", {"code": code, "path": path, "message": message}, as_json)


def _with_store(args: argparse.Namespace, body: Callable[[Any], int]) -> int:
    """Run ``body`` on the store ``--db`` names; a missing extra or a database that cannot be
    used is the coded error `store_unavailable`, never a traceback."""
    try:
        from alembic.util.exc import CommandError  # noqa: PLC0415
        from sqlalchemy.exc import SQLAlchemyError  # noqa: PLC0415

        from interlingua.store import Store  # noqa: PLC0415
    except ImportError as exc:
        why = f"the store needs the `store` extra (pip install 'interlingua[store]'): {exc}"
        _problem("store_unavailable", "", why, args.json)
        return EXIT_UNUSABLE
    try:
        store = Store.open(args.db)
        try:
            return body(store)
        finally:
            store.close()
    except (SQLAlchemyError, CommandError, ImportError) as exc:
        first = str(exc).split("\n", 1)[0]
        _problem("store_unavailable", "", f"cannot use the database {args.db}: {first}", args.json)
        return EXIT_UNUSABLE


def cmd_import(args: argparse.Namespace) -> int:
    return _with_store(args, lambda store: _import(store, args))


def _import(store: Any, args: argparse.Namespace) -> int:
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.store.reading import read_file  # noqa: PLC0415

    status = EXIT_OK
    for path in args.files:
        try:
            read = read_file(path, args.source)
        except (InputError, ConversionError) as exc:
            code, where = exc.code, getattr(exc, "path", getattr(exc, "pointer", ""))
            _problem(code, where, f"{path}: {exc.message}", args.json)
            status = EXIT_UNUSABLE
            continue
        for refusal in read.refused:
            _report("error", refusal.as_json(), args.json)
            status = max(status, EXIT_REFUSED)
        for loss in (loss for session in read.sessions for loss in session.losses):
            _report("loss", loss.as_json(), args.json)
        for session in read.sessions:  # each line printed once its transaction commits
            done = store.import_session(session)
            if args.json:
                print(json.dumps({"file": path, **done.as_json()}))
            elif done.skipped:
                print(f"{path}: skipped, imported before")
            else:
                print(
                    f"{path}: session {done.session_id}: {done.messages} messages, "
                    f"{done.tool_calls} tool calls"
                )
    return status


def cmd_query(args: argparse.Namespace) -> int:
    return _with_store(args, lambda store: _query(store, args))


def _query(store: Any, args: argparse.Namespace) -> int:
    if args.query == "cost":
        table = _price_table(args.prices)
        if table is None:
            return EXIT_UNUSABLE
        for cost in store.cost(args.session, table):
            if args.json:
                print(json.dumps(cost.as_json()))
            else:
                unpriced = f", {len(cost.unpriced)} unpriced" if cost.unpriced else ""
                print(
                    f"{cost.session_id}  ${cost.usd}  ({cost.priced} priced turns{unpriced}; "
                    f"prices {cost.pricing_version})"
                )
        return EXIT_OK
    calls = store.unanswered(args.session) if args.query == "unanswered" else None
    calls = calls if calls is not None else store.failed(args.session)
    for call in calls:
        if args.json:
            print(json.dumps(call))
        else:
            print(
                f"{call['session_id']}  {call['id']}  {call['name']}  "
                f"provider id {call['provider_id']}  message {call['message_id']}"
            )
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    return _with_store(args, lambda store: _export(store, args))


def _export(store: Any, args: argparse.Namespace) -> int:
    from interlingua.conversion import ConversionError  # noqa: PLC0415

    try:
        exported = store.export(args.session, args.target)
    except ConversionError as exc:
        _problem(exc.code, exc.pointer, exc.message, args.json)
        return EXIT_UNUSABLE
    for loss in exported.losses:
        record = {"code": loss.code, "path": loss.pointer, "message": loss.reason}
        _report("loss", record, args.json)
    for body in exported.bodies:
        if isinstance(body, str):  # a text format (ChatML)
            print(body)
        elif exported.per_line:
            print(json.dumps(body, ensure_ascii=False))
        else:
            print(json.dumps(body, ensure_ascii=False, indent=2))
    return EXIT_OK


def _price_table(path: str | None, as_json: bool = False) -> Any:
    """The price table at ``path`` (the bundled one when None), or None after its coded
    error."""
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.conversion.reading import read_json  # noqa: PLC0415
    from interlingua.documents.pricing import PriceTable, default_table  # noqa: PLC0415

    if path is None:
        return default_table()
    try:
        with open(path, "rb") as stream:
            return PriceTable.from_json(read_json(stream.read()))
    except OSError as exc:
        _problem("unreadable_input", "", f"cannot read {path}: {exc.strerror or exc}", as_json)
    except (InputError, ConversionError) as exc:
        _problem(exc.code, getattr(exc, "path", getattr(exc, "pointer", "")), exc.message, as_json)
    return None


def cmd_cost(args: argparse.Namespace) -> int:
    """The cost of each turn of a document (any format) and their total."""
    from interlingua.conversion.reading import read_json  # noqa: PLC0415
    from interlingua.documents.pricing import PricingError  # noqa: PLC0415
    from interlingua.store.reading import read_document  # noqa: PLC0415

    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as stream:
                data = stream.read()
        payload = read_json(data)
    except OSError as exc:
        _problem("unreadable_input", "", f"cannot read {args.file}: {exc.strerror}", args.json)
        return EXIT_UNUSABLE
    except InputError as exc:
        _problem(exc.code, exc.path, exc.message, args.json)
        return EXIT_UNUSABLE
    table = _price_table(args.prices, args.json)
    if table is None:
        return EXIT_UNUSABLE
    if type(payload) is dict and "input_tokens" in payload:  # a bare Usage
        turns: list[tuple[str, dict[str, Any], str | None]] = [("/", payload, None)]
    else:
        session, refused = read_document(payload, args.file, args.source)
        for refusal in refused:
            _report("error", refusal.as_json(), args.json)
        if session is None:
            return EXIT_UNUSABLE
        turns = [(f"/{i}", m.usage, m.model) for i, m in enumerate(session.messages) if m.usage]
    total, status = None, EXIT_OK
    for where, usage, model in turns:
        try:
            cost = table.cost(usage, args.model or model or "")
        except PricingError as exc:
            _problem(exc.code, exc.pointer, f"turn {where}: {exc.message}", args.json)
            status = EXIT_REFUSED
            continue
        total = cost.usd if total is None else total + cost.usd
        if args.json:
            print(json.dumps({"turn": where, **cost.as_json()}))
        else:
            print(f"turn {where}  {cost.model}  ${cost.usd}")
    if total is not None and not args.json:
        print(f"total  ${total}  (prices {table.pricing_version})")
    return status


def register(commands: Any) -> None:
    """Add ``store`` (import, query, export) and ``cost`` to the ``interlingua`` parser."""
    store = commands.add_parser(
        "store",
        help="keep sessions in a database (SQLite file or PostgreSQL URL)",
        description="Import transcripts and memories in any format into sessions, query "
        "their tool calls and cost, export them back. --db (or $INTERLINGUA_STORE) names a "
        "SQLite file or a postgresql:// URL; the tables are created on first use.",
    )
    actions = store.add_subparsers(dest="action", required=True)
    importing = actions.add_parser(
        "import",
        help="import files: one session per document, a turn per line for *.jsonl",
        description="Each file in one transaction per session: a crash leaves no partial "
        "session and a re-run skips what was imported. A line or message that fails is "
        "refused with its coded error and line number; the rest imports (exit 1).",
    )
    importing.add_argument("files", nargs="+", metavar="FILE", help="*.json or *.jsonl")
    importing.add_argument("--from", dest="source", default="auto", metavar="FMT")
    importing.set_defaults(run=cmd_import)
    query = actions.add_parser("query", help="unanswered or failed tool calls, or cost")
    query.add_argument("query", choices=QUERIES)
    query.add_argument("--session", metavar="S", help="one session (default: all)")
    query.add_argument("--prices", metavar="FILE", help="cost: another price table (JSON)")
    query.set_defaults(run=cmd_query)
    export = actions.add_parser("export", help="write a session in a format")
    export.add_argument("--session", required=True, metavar="S")
    export.add_argument(
        "--to", dest="target", metavar="FMT", help="format (default: the one it came from)"
    )
    export.set_defaults(run=cmd_export)
    for sub in (importing, query, export):
        sub.add_argument("--db", default=os.environ.get(DB_ENV, DB_DEFAULT), metavar="DB")
        sub.add_argument("--json", action="store_true", help="JSON lines out, JSON errors")
    cost = commands.add_parser(
        "cost",
        help="the cost of a document's turns, or of a Usage, from the price table",
        description="Price every turn that carries Usage (a document in any format, or a "
        "bare canonical Usage with --model) with exact decimals; print each and the total.",
    )
    cost.add_argument("file", nargs="?", default="-", help="a JSON file, or - for stdin")
    cost.add_argument("--from", dest="source", default="auto", metavar="FMT")
    cost.add_argument("--model", metavar="M", help="canonical model id or alias to price at")
    cost.add_argument("--prices", metavar="FILE", help="another price table (JSON)")
    cost.add_argument("--json", action="store_true", help="JSON lines out, JSON errors")
    cost.set_defaults(run=cmd_cost)
