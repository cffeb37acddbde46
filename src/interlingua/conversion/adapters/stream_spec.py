"""The stream engine: wire chunks ↔ canonical stream events, for any format with a `stream`
section in its mapping file. This module holds what a format's stream is compiled to
(`StreamSpec`) and the helpers the generated code reads chunks with; `stream_reader.py` reads
chunks into events, `stream_writer.py` writes events as chunks.

What the mapping declares compiles to a `StreamSpec` (`generated/python/streams/<format>.py`):
a `read` function that looks at one chunk and calls the `StreamReader` methods below, and the
`w_*` functions that write one canonical event as wire chunks. The engine keeps what lives
between chunks:

- **Part indices.** A wire block index (Anthropic, Bedrock) or tool-call index (OpenAI) is
  the wire's key for a part; the canonical index is the order in which parts first appear, so
  text at block 0 and a call at block 1 are parts 0 and 1 whatever the wire numbered them
  (hard case 49). Text without a key continues the last part when it is of the same kind.
- **Calls.** An id is synthesised (`<format>_call_<seed>_<n>`, as reading a whole response
  does) when the wire gives none; every call still open when the stop reason arrives is
  complete; arguments that never came are `{}` (hard case 51).
- **Usage.** Wire usage objects are merged as they come (Anthropic's input counts at the
  start and output counts at the end; Gemini's cumulative counts on every chunk), and each
  `usage` event carries the canonical totals so far.
- **Signatures on blocks.** Where a signature rides on the block after the reasoning
  (`layout.signature_field`), a thinking part that is nothing but a signature is held back
  when writing and put on the next block written (a whole part, or the first delta of a
  text block); with nothing after it, it goes out on an empty text block of its own.
- **The end.** `message_complete` carries the stop reason (a natural stop with calls is
  `call` where the format infers it) and the final usage. An error chunk ends the stream
  with an `error` event, not a stop reason (hard case 52). A stream that ends before its
  stop reason is reported as `stream_truncated`.

Nothing is dropped silently: a chunk no rule reads, an event the target cannot write, a
placeholder written for a field the stream never carried are all losses on the context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from interlingua.conversion import Context
from interlingua.conversion.adapters.runtime import Adapter, Codec

if TYPE_CHECKING:
    from interlingua.conversion.adapters.stream_reader import StreamReader


Event = dict[str, Any]
Writer = Callable[[dict[str, Any]], list[Any]]


def at(value: Any, path: tuple[str | int, ...]) -> Any:
    """The value at ``path`` (keys and list indices), or None when it is absent or null."""
    for step in path:
        if type(step) is int:
            if type(value) is not list or step >= len(value):
                return None
            value = value[step]
        elif type(value) is dict:
            value = value.get(step)
        else:
            return None
    return value


# A delta event's part kind, and the writer of a delta of each kind (built once, not a chunk).
DELTA_KINDS: Final = {
    "text_delta": "text",
    "thinking_delta": "thinking",
    "refusal_delta": "refusal",
}
DELTA_KEYS: Final = {kind: f"{kind}.delta" for kind in DELTA_KINDS.values()}
DELTA_EVENTS: Final = {kind: event for event, kind in DELTA_KINDS.items()}

# What a chunk that is not an object reads as in the generated `read` functions: nothing is
# ever written to it.
EMPTY: Final[dict[str, Any]] = {}


def get(value: Any, key: str) -> Any:
    """One step of ``at``: ``value[key]`` when ``value`` is an object, else None (the
    generated `read` functions spell paths of keys out in these)."""
    return value.get(key) if type(value) is dict else None


@dataclass(frozen=True)
class StreamSpec:
    """One format's stream translation, as compiled from its mapping file."""

    adapter: Adapter
    framing: str  # sse | ndjson
    done: str | None  # the data that ends a stream ([DONE]), if the format has one
    event_field: str | None  # sse: the chunk field repeated as the `event:` line
    schema: str | None  # wire schema of one chunk, under schemas/
    loss_notes: str  # comment | member: where a translated stream tells its losses
    read: Callable[[StreamReader, Any, str], bool]
    writers: Mapping[str, Writer]
    whole_calls: bool  # calls are written whole once complete (Gemini, Ollama)
    part_types: frozenset[str]  # canonical parts written whole
    defaults: Mapping[str, Any]
    encode_usage: Callable[[Context, Any, str], Any]
    decode_usage: Callable[[Context, Any, str], Any]
    stop_to_canonical: Mapping[Any, str]  # a wire name, or its number (Vertex AI)
    stop_from_canonical: Mapping[str, str]
    stop_approximate: frozenset[str]
    explicit_start: bool = False  # the stream opens with a start chunk of its own
    sequence: str | None = None  # the chunk field numbering every chunk written
    whole_response: bool = False  # the last chunk holds the whole response (`$response`)
    # A block's end repeats its whole text or arguments (`$text` in `close`): kept as it grows
    # (only then: other formats stream in constant memory).
    whole_blocks: bool = False
    # The format's `citation` codec (None: it has none; a `cite` rule or `citation` template
    # needs it), and whether it cites the message's text as a whole (OpenAI Chat's
    # `annotations`: spans count from the start of the content, not of a text part).
    decode_citation: Codec | None = None
    encode_citation: Codec | None = None
    content_citations: bool = False
    # The stream carries grounding beside the message (a `ground` rule, Gemini): its reader
    # keeps the text parts' text, which the grounding's byte offsets count in.
    grounding: bool = False

    @property
    def format(self) -> str:
        return self.adapter.format
