"""`interlingua serve`: run the service with uvicorn.

It binds the loopback interface unless told otherwise, and refuses to bind any other address
without a token (``--token``, or the environment variable `INTERLINGUA_SERVICE_TOKEN`): what
the service answers is meant for the machine it runs on unless someone chose otherwise.

The package logs to a `logging.NullHandler` until an application configures logging; `serve`
is an application, so it writes the package's log on stderr at ``--log-level``, beside
uvicorn's own (a worker process lost, and at ``debug`` each conversion's losses).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import sys
from typing import Any

from interlingua.conversion.reading import DEFAULT_MAX_BYTES
from interlingua.service import DEFAULT_TIMEOUT

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000
EXIT_UNUSABLE = 2


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def log_to_stderr(level: str) -> None:
    """The package's log on stderr at ``level`` (a name: ``warning``), in uvicorn's layout."""
    from interlingua.service.work import PACKAGE_LOG  # noqa: PLC0415 (the service extra's)

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
    package = logging.getLogger(PACKAGE_LOG)
    package.addHandler(handler)
    package.setLevel(level.upper())


def cmd_serve(args: argparse.Namespace) -> int:
    from interlingua.service.auth import TOKEN_VARIABLE  # noqa: PLC0415

    token = args.token or os.environ.get(TOKEN_VARIABLE) or None
    if token is None and not is_loopback(args.host):
        print(
            f"error: refusing to serve {args.host} without a token "
            f"(--token, or the environment variable {TOKEN_VARIABLE})",
            file=sys.stderr,
        )
        return EXIT_UNUSABLE
    try:
        import uvicorn  # noqa: PLC0415

        from interlingua.service.app import create_app  # noqa: PLC0415
        from interlingua.service.limits import Limits, default_processes  # noqa: PLC0415
    except ImportError as exc:
        print(
            f"error: the service needs the service extra (pip install 'interlingua[service]'): "
            f"{exc}",
            file=sys.stderr,
        )
        return EXIT_UNUSABLE
    processes = default_processes() if args.processes is None else args.processes
    log_to_stderr(args.log_level)
    app = create_app(token=token, limits=Limits(args.max_bytes, args.timeout, processes))
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=False,
        timeout_keep_alive=5,
        # Headers past 64 KiB are refused by the HTTP parser itself.
        h11_max_incomplete_event_size=64 * 1024,
    )
    return 0


def register(commands: Any) -> None:
    """Add ``serve`` to the ``interlingua`` parser."""
    serve = commands.add_parser(
        "serve",
        help="answer the operations over HTTP",
        description="Serve convert, validate, detect, views, pairs, stream and the gateway "
        "contract over HTTP, as generated/openapi.json describes them (GET /openapi.json). "
        "Binds the loopback interface by default; any other address needs a token, which "
        "every request but GET /healthz must then carry as `Authorization: Bearer <token>`.",
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    serve.add_argument(
        "--token", help="bearer token requests must carry (default: $INTERLINGUA_SERVICE_TOKEN)"
    )
    serve.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger bodies (413)"
    )
    serve.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="seconds a request may take (408 past it)",
    )
    serve.add_argument(
        "--processes",
        type=int,
        help="worker processes answering requests (default: one per core); 0 answers in "
        "threads of the service's process, which cannot be stopped at the timeout",
    )
    serve.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help="what uvicorn and the package write on stderr (default: warning)",
    )
    serve.set_defaults(run=cmd_serve)
