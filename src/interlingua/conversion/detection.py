"""What :func:`interlingua.detect` answers: a detected (format, kind), the candidates it could
not tell apart, or each schema's rejection.

These are the public answer types, kept apart from the detector so they stay plain Python
dataclasses wherever the detector itself is compiled: an answer pickles (a worker process or a
dataset pool hands it back) and compares as any frozen dataclass does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["detected", "ambiguous", "unknown"]


@dataclass(frozen=True)
class Candidate:
    """A (format, kind) the body validates against, with the evidence it was chosen on."""

    format: str
    kind: str
    evidence: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"format": self.format, "kind": self.kind, "evidence": list(self.evidence)}


@dataclass(frozen=True)
class Rejection:
    """Why the body is not a (format, kind): the first error from that schema."""

    format: str
    kind: str
    code: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.format} {self.kind}: {self.code} at {self.pointer or '/'}: {self.message}"

    def as_json(self) -> dict[str, str]:
        return {
            "format": self.format,
            "kind": self.kind,
            "code": self.code,
            "path": self.pointer,
            "message": self.message,
        }


@dataclass(frozen=True)
class Detection:
    """What :func:`detect` found.

    ``status`` is ``detected`` (``format`` and ``kind`` set), ``ambiguous`` (``candidates``
    holds the (format, kind) pairs that could not be told apart) or ``unknown``
    (``rejections`` holds each schema's first error). ``reason`` is one human sentence;
    ``summary`` is the same without the leading verdict, for a ``<format> <kind>: …`` line.
    """

    status: Status
    reason: str
    summary: str
    format: str | None = None
    kind: str | None = None
    candidates: tuple[Candidate, ...] = ()
    rejections: tuple[Rejection, ...] = field(default=(), repr=False)

    @property
    def detected(self) -> bool:
        return self.status == "detected"

    def line(self) -> str:
        """One line for a terminal: ``anthropic request: …``, ``ambiguous: a, b: …``."""
        if self.status == "detected":
            return f"{self.format} {self.kind}: {self.summary}"
        if self.status == "ambiguous":
            names = ", ".join(f"{c.format} {c.kind}" for c in self.candidates)
            return f"ambiguous: {names}: {self.summary}"
        return f"unknown: {self.summary}"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "reason": self.reason}
        if self.format is not None:
            out["format"] = self.format
            out["kind"] = self.kind
        if self.candidates:
            out["candidates"] = [c.as_json() for c in self.candidates]
        if self.rejections:
            out["rejections"] = [r.as_json() for r in self.rejections]
        return out
