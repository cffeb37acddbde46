"""The functions the conformance vectors call, as the Python implementation provides them.

Every vector names a function and gives its JSON input; an implementation in any language
provides the same functions. Failures are raised as :class:`GatewayError` (with the code the
vector expects); validation reports findings as its output instead of raising.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from interlingua.gateway.errors import GatewayError
from interlingua.gateway.vectors import FUNCTIONS as GATEWAY_FUNCTIONS
from interlingua.validation import validate

ContractError = GatewayError


def validate_findings(arguments: Mapping[str, Any]) -> list[dict[str, str]]:
    """Findings as `{code, path, severity}`, sorted by path then code: the order is not part of
    the contract, so every implementation reports them in this one."""
    findings = validate(arguments["document"], arguments.get("type"))
    rows = [{"code": f.code, "path": f.path, "severity": f.severity or "error"} for f in findings]
    return sorted(rows, key=lambda row: (row["path"], row["code"]))


FUNCTIONS: Final[Mapping[str, Callable[[Mapping[str, Any]], Any]]] = {
    **GATEWAY_FUNCTIONS,
    "validate": validate_findings,
}
