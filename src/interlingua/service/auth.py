"""The optional bearer token: when the service has one, every operation but `/healthz` asks
for it (`Authorization: Bearer <token>`), compared in constant time."""

from __future__ import annotations

import hmac

from starlette.requests import Request

from interlingua.service.problems import ProblemError

#: The environment variable `interlingua serve` reads the token from when `--token` is absent.
TOKEN_VARIABLE = "INTERLINGUA_SERVICE_TOKEN"
#: Operations anyone may call: a load balancer's probe carries no token.
OPEN_OPERATIONS = frozenset({"health"})


def check_token(request: Request, token: str | None) -> None:
    """Nothing when the request may go on; else a 401 problem."""
    if token is None:
        return
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return
    raise ProblemError(
        401,
        "unauthorized",
        "this service needs `Authorization: Bearer <token>`",
        headers={"WWW-Authenticate": 'Bearer realm="interlingua"'},
    )
