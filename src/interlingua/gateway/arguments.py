"""Argument handling for tool_execute (seed 002 §4.4-§4.6).

An :class:`ArgumentValidator` holds the input schema of every catalogued tool. Schemas are
trust-checked when registered (SCHEMA_INVALID: raised in ``raise`` mode, otherwise recorded in
``findings`` and reported when the tool is executed), and each tool's validator is compiled
once, on first use, and kept under its tool id. Patterns in the schemas are matched by RE2 in
linear time (:mod:`interlingua.gateway.linear_validator`), never by Python's backtracking
``re``; one RE2 cannot run is SCHEMA_INVALID (``pattern_unsupported``). Validation failures
are ARGS_INVALID and never reach upstream; an id that is not (or no longer) in the catalog is
HYDRATE_FAILED, so a renamed or removed tool fails closed. Tolerant normalization (§4.4) is
opt-in per call, and its repairs come back with the arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from jsonschema.exceptions import UnknownType
from referencing.exceptions import Unresolvable

from interlingua.gateway._text import cap, shown
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.linear_validator import LinearValidator
from interlingua.gateway.normalize import normalize_arguments
from interlingua.gateway.patterns import PatternRefused
from interlingua.gateway.schema_trust import DEFAULT_LIMITS, SchemaLimits, check_schema_trust
from interlingua.gateway.tool_id import input_schema_of, tool_id_of
from interlingua.generated.models import (
    ArgRepair,
    DryRunCheck,
    DryRunReport,
    GatewayTool,
    SchemaTrustFinding,
    ToolAnnotations,
    ValidatedArguments,
)

#: At most this many validation errors are reported, each message at most this long.
MAX_REPORTED_ERRORS: Final = 20
_ERROR_MESSAGE_LIMIT: Final = 200


def _pointer(path: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@dataclass
class _Tool:
    upstream_name: str
    input_schema: Mapping[str, Any]
    annotations: ToolAnnotations | None
    problem: GatewayError | None
    validator: Any = None  # a LinearValidator, compiled on first use


class ArgumentValidator:
    """The input schemas of a catalog, with one compiled validator per tool id."""

    def __init__(
        self,
        limits: SchemaLimits = DEFAULT_LIMITS,
        on_invalid: Literal["flag", "raise"] = "flag",
    ) -> None:
        self.limits = limits
        self.on_invalid = on_invalid
        self.findings: list[SchemaTrustFinding] = []
        #: How many validators were compiled (once per tool id between registrations).
        self.compilations = 0
        self._tools: dict[str, _Tool] = {}

    def register(
        self,
        tool_id: str,
        upstream_name: str,
        input_schema: object,
        annotations: ToolAnnotations | None = None,
    ) -> SchemaTrustFinding | None:
        """Add (or replace) a tool; returns the finding when its schema fails the trust checks
        (in ``raise`` mode the SCHEMA_INVALID error is raised instead). ``findings`` keeps one
        entry per tool id that currently fails."""
        problem: GatewayError | None = None
        finding: SchemaTrustFinding | None = None
        self.findings = [f for f in self.findings if f.tool_id != tool_id]
        try:
            check_schema_trust(input_schema, self.limits)
        except GatewayError as exc:
            if self.on_invalid == "raise":
                raise
            problem = exc
            finding = SchemaTrustFinding(
                tool_id=tool_id, reason=(exc.details or {})["reason"], message=exc.message
            )
            self.findings.append(finding)
        schema = input_schema if isinstance(input_schema, Mapping) else {}
        self._tools[tool_id] = _Tool(upstream_name, schema, annotations, problem)
        return finding

    def register_tool(self, tool: GatewayTool) -> str:
        """Add a catalogued tool under its derived id, and return the id."""
        tool_id = tool_id_of(tool)
        self.register(
            tool_id, tool.definition.name, input_schema_of(tool.definition), tool.annotations
        )
        return tool_id

    def clear(self) -> None:
        """Forget every tool, compiled validator and finding (a catalog refresh)."""
        self._tools.clear()
        self.findings.clear()

    def _tool(self, tool_id: str) -> _Tool:
        tool = self._tools.get(tool_id)
        if tool is None:
            raise GatewayError("HYDRATE_FAILED", f"no tool {shown(tool_id)} in the catalog")
        if tool.problem is not None:
            raise GatewayError(
                "SCHEMA_INVALID",
                f"the input schema of {tool_id} failed ingest: {tool.problem.message}",
                details={"tool_id": tool_id, **(tool.problem.details or {})},
            )
        return tool

    def _compiled(self, tool: _Tool) -> Any:
        if tool.validator is None:
            tool.validator = LinearValidator(tool.input_schema)
            self.compilations += 1
        return tool.validator

    def validate(self, tool_id: str, args: object, *, tolerant: bool = False) -> ValidatedArguments:
        """The arguments to dispatch, or ARGS_INVALID (SCHEMA_INVALID, HYDRATE_FAILED)."""
        tool = self._tool(tool_id)
        repairs: list[ArgRepair] = []
        if tolerant:
            args, repairs = normalize_arguments(args, tool.input_schema)
        validator = self._compiled(tool)
        try:
            errors = sorted(
                (_pointer(e.absolute_path), cap(e.message, _ERROR_MESSAGE_LIMIT))
                for e in validator.iter_errors(args)
            )
        except Unresolvable as exc:
            raise GatewayError(
                "SCHEMA_INVALID",
                f"the input schema of {tool_id} has a reference that cannot be resolved: {exc}",
                details={"tool_id": tool_id, "reason": "meta_invalid"},
            ) from None
        except PatternRefused as refused:
            raise GatewayError(
                "SCHEMA_INVALID",
                f"the input schema of {tool_id} has a pattern that cannot run: {refused.message}",
                details={"tool_id": tool_id, "reason": refused.reason},
            ) from None
        except (TypeError, AttributeError, LookupError, ValueError, UnknownType) as exc:
            # Only a `$ref` into data (a `const` or `default` holding a malformed "schema")
            # reaches this: meta-validation vetted every real subschema at ingest.
            raise GatewayError(
                "SCHEMA_INVALID",
                f"the input schema of {tool_id} cannot be evaluated: {type(exc).__name__}",
                details={"tool_id": tool_id, "reason": "meta_invalid"},
            ) from None
        except RecursionError:
            errors = [("", "the arguments nest too deeply to validate")]
        if not errors and not isinstance(args, dict):
            errors = [("", f"arguments are a JSON object, not {type(args).__name__}")]
        if errors or not isinstance(args, dict):
            raise GatewayError(
                "ARGS_INVALID",
                f"arguments for {tool_id} do not match its input schema: "
                f"{errors[0][0] or '/'}: {errors[0][1]}",
                details={
                    "errors": [{"path": p, "message": m} for p, m in errors[:MAX_REPORTED_ERRORS]],
                    "arg_repairs": [r.model_dump(mode="json", exclude_none=True) for r in repairs],
                },
            )
        return ValidatedArguments(args=args, arg_repairs=repairs)

    def dry_run(
        self,
        tool_id: str,
        args: object,
        *,
        tolerant: bool = False,
        quota: Callable[[str], bool] | None = None,
    ) -> DryRunReport:
        """What executing would do, without dispatching (§4.5).

        Hydration and validation fail exactly as a real call does. ``quota``, when given, says
        whether a call to ``tool_id`` is within its rate limits; it must evaluate without
        consuming. A breach is RATE_LIMITED; without ``quota`` the check is ``skipped``.
        """
        self.validate(tool_id, args, tolerant=tolerant)
        tool = self._tools[tool_id]
        if quota is not None and not quota(tool_id):
            raise GatewayError(
                "RATE_LIMITED",
                f"a call to {tool_id} would exceed its rate limit",
                details={"scope": tool_id},
            )
        declared = (
            tool.annotations.model_dump(mode="json", exclude_none=True) if tool.annotations else {}
        )
        return DryRunReport(
            dry_run=True,
            tool_id=tool_id,
            upstream_name=tool.upstream_name,
            args_valid=True,
            annotations=ToolAnnotations.model_validate({**declared, "verified": False}),
            checks=[
                DryRunCheck(name="schema_validation", status="pass"),
                DryRunCheck(name="rate_limit", status="skipped" if quota is None else "pass"),
            ],
        )
