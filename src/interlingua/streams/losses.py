"""A translated stream that tells its reader what it lost, in the stream itself.

Every conversion returns its output and a report of what it could not carry. A translated
stream's output goes to a client as it is made, so its report goes the same way: each loss is
written into the stream as soon as the translator meets it, in the order it met them, and in
the place the target's own readers pass over, so that the provider's SDK still reads the
stream unchanged. The place is a fact of the format (`loss_notes` in the `stream` section of
its mapping file, schemas/meta/mapping.json says what each means):

- ``canonical``: a `LossEvent` (``{"type": "loss", "loss": {...}}``, schemas/v1/stream.json)
  before the events of the same input; canonical readers pass it by.
- ``comment`` (Anthropic, OpenAI Chat, OpenAI Responses): an SSE comment line
  ``: loss {"pointer": ..., "code": ..., "reason": ...}`` before the chunks of the same input
  (a blank line closes the comments). Every conforming SSE parser skips comment lines; the
  openai and anthropic SDKs do.
- ``member`` (Gemini, Ollama, Bedrock): an array ``interlingua_losses`` of those objects
  added as the last member of the next chunk written. NDJSON has no comments, and google-genai
  reads every non-blank line that does not start with ``data: `` as JSON, so a comment would
  break it; these readers keep only the members they know (google-genai, ollama's pydantic
  models). A loss met while nothing is written waits for the next chunk (the stream's last
  chunk, or its error chunk, always comes after every loss).

Each loss is the object `Loss.as_json` gives (`pointer`, `code`, `reason`, and `part_type`
where known), the shape of a conversion report's losses and of the CLI's `--report`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final

from interlingua.conversion import Loss
from interlingua.streams.engine import StreamTranslator, pieces
from interlingua.streams.framing import dumps

#: The word after the colon of an SSE loss comment (``: loss {...}``).
COMMENT: Final = "loss"
#: The member a chunk carries its losses in, where the format has no comments.
MEMBER: Final = "interlingua_losses"


def loss_event(loss: Loss) -> dict[str, Any]:
    """The canonical `LossEvent` of one loss."""
    return {"type": "loss", "loss": loss.as_json()}


def with_member(text: str, losses: list[dict[str, Any]]) -> str | None:
    """``text`` (whole frames of compact JSON chunks) with ``losses`` added to its first chunk
    that is a JSON object, as its last member; None when no chunk is one."""
    end = text.find("}\n")  # compact JSON holds no raw line break: an object's end
    if end < 0:
        return None
    comma = "" if text[end - 1] == "{" else ","
    return f"{text[:end]}{comma}{dumps(MEMBER)}:{dumps(losses)}{text[end:]}"


class LossNotes:
    """A :class:`StreamTranslator` whose text tells its losses (feed and close as the
    translator's; `translator` is the one wrapped: its `failed`, `ended` and `losses`)."""

    def __init__(self, translator: StreamTranslator) -> None:
        self.translator = translator
        target = translator.target
        self.place = "event" if target is None else target.loss_notes
        self._told = 0
        self._held: list[dict[str, Any]] = []  # `member`: losses waiting for a chunk
        self.wrote = False  # whether the translator has written anything yet

    def feed(self, line: str | bytes) -> str:
        return self._told_with(self.translator.feed(line))

    def close(self) -> str:
        return self._told_with(self.translator.close())

    @property
    def ended(self) -> bool:
        """Whether the stream has ended (its end marker, or an error)."""
        return self.translator.ended

    @property
    def held(self) -> int:
        """How many losses wait for a chunk to carry them (`member` only)."""
        return len(self._held)

    def _told_with(self, text: str) -> str:
        """``text`` with the losses met since the last call, in their place."""
        losses = self.translator.losses
        new, self._told = losses[self._told :], len(losses)
        self.wrote = self.wrote or bool(text)
        if self.place == "event":
            return "".join(dumps(loss_event(loss)) + "\n" for loss in new) + text
        if self.place == "comment":
            if not new:
                return text
            lines = "".join(f": {COMMENT} {dumps(loss.as_json())}\n" for loss in new)
            return lines + "\n" + text
        self._held += [loss.as_json() for loss in new]
        if not self._held or not text:
            return text
        told = with_member(text, self._held)
        if told is None:
            return text
        self._held = []
        return told


def told_stream(
    lines: Iterable[str],
    source: str,
    target: str,
    *,
    source_endpoint: str | None = None,
    target_endpoint: str | None = None,
) -> Iterator[str]:
    """`translate_stream`, telling its losses: the text `POST /v1/stream` answers."""
    translator = StreamTranslator(
        source, target, source_endpoint=source_endpoint, target_endpoint=target_endpoint
    )
    return pieces(LossNotes(translator), lines)
