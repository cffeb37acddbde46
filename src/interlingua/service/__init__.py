"""`interlingua serve`: the toolkit over HTTP, its contract generated from the schemas.

The service answers the operations of `generated/openapi.json` (written by the generator from
`schemas/service/operations.yaml` and the canonical `$defs`), each the twin of a Python API call
and a CLI command: it parses the request, calls the same function and answers its result as
JSON. Every refused request is an RFC 9457 problem with the error code the CLI reports for
the same input.

- :mod:`~interlingua.service.contract`: the document and the schemas it serves.
- :mod:`~interlingua.service.problems`: the problem documents and the exception that carries one.
- :mod:`~interlingua.service.limits`: media types, body size and time limits.
- :mod:`~interlingua.service.auth`: the optional bearer token.
- :mod:`~interlingua.service.params`: query parameters, read against the document.
- :mod:`~interlingua.service.operations`: the operations, on the library's functions.
- :mod:`~interlingua.service.work`: where they run (worker processes, threads).
- :mod:`~interlingua.service.streaming`: stream translation, piece by piece.
- :mod:`~interlingua.service.app`: the ASGI application; :mod:`~interlingua.service.serve` runs it.

Starlette and uvicorn come with the ``service`` extra (``pip install 'interlingua[service]'``).
"""

#: How long a request may take, its body's arrival included (seconds); `--timeout` changes it.
DEFAULT_TIMEOUT = 30.0
