"""Synthetic canonical conversations: realistic, valid, and reproducible from a seed.

Used by the benchmarks (a corpus of thousands of conversations) and by property tests (a
known-valid starting point to mutate). Every document this module builds is valid: tool
results answer earlier calls once, ids are unique ULIDs, assistant messages carry complete
metadata.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from ulid import ULID

Json = dict[str, Any]

_WORDS = (
    "the model reads a file and answers with a summary of what it found while the user waits "
    "for results from tools that search query fetch compute and report status back to the agent"
).split()
_TOOLS = ("read_file", "search_web", "run_sql", "send_email", "get_weather", "list_directory")
_PNG_1X1 = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAE"
    "hQGAhKmMIQAAAABJRU5ErkJggg=="
)
_MODELS = (
    ("anthropic", "claude-sonnet-4-6"),
    ("openai", "gpt-5"),
    ("google", "gemini-2.5-pro"),
)


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.clock = (
            1_767_000_000_000 + (seed % 100_000) * 10_000_000
        )  # ms; stays a 48-bit ULID time

    def words(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(_WORDS) for _ in range(self.rng.randint(low, high)))

    def ulid(self) -> str:
        self.clock += self.rng.randint(1, 5000)
        return str(
            ULID.from_bytes(
                self.clock.to_bytes(6, "big") + self.rng.getrandbits(80).to_bytes(10, "big")
            )
        )

    def timestamp(self) -> str:
        moment = datetime.fromtimestamp(self.clock / 1000, UTC)
        return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")

    def user(self) -> Json:
        content: list[Json] = [{"type": "text", "text": self.words(5, 60)}]
        roll = self.rng.random()
        if roll < 0.15:
            content.append(
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": _PNG_1X1},
                }
            )
        elif roll < 0.25:
            content.append(
                {
                    "type": "image",
                    "source": {
                        "type": "url",
                        "url": f"https://example.com/{self.rng.randint(1, 999)}.jpg",
                    },
                }
            )
        elif roll < 0.3:
            content.append(
                {
                    "type": "document",
                    "source": {"type": "file", "file_id": f"file-{self.rng.getrandbits(32):08x}"},
                    "title": "report.pdf",
                }
            )
        return {
            "role": "user",
            "content": content,
            "id": self.ulid(),
            "created_at": self.timestamp(),
        }

    def assistant(self, calls: list[Json]) -> Json:
        provider, model = self.rng.choice(_MODELS)
        content: list[Json] = []
        if self.rng.random() < 0.3:
            content.append(
                {
                    "type": "thinking",
                    "text": self.words(10, 80),
                    "signature": f"sig{self.rng.getrandbits(128):032x}",
                }
            )
        if not calls or self.rng.random() < 0.6:
            content.append({"type": "text", "text": self.words(10, 150)})
        content.extend(calls)
        usage = {
            "input_tokens": self.rng.randint(10, 50_000),
            "output_tokens": self.rng.randint(1, 4000),
            "cost_usd": f"0.{self.rng.randint(0, 999_999):06d}",
            "pricing_version": "2026-05-08",
        }
        return {
            "role": "assistant",
            "content": content,
            "id": self.ulid(),
            "created_at": self.timestamp(),
            "extensions": {
                "completion": {
                    "status": "complete",
                    "model": f"{provider}:{model}",
                    "stop_reason": "call" if calls else "end",
                    "usage": usage,
                    "latency_ms": self.rng.randint(100, 20_000),
                },
                "llm": {"provider": provider, "model_id": model},
                "routing": {
                    "mode": "default",
                    "chosen_model": f"{provider}:{model}",
                    "reason": "workspace default",
                },
            },
        }

    def call(self) -> Json:
        name = self.rng.choice(_TOOLS)
        arguments = {
            "query": self.words(2, 10),
            "limit": self.rng.randint(1, 50),
            "filters": {"recent": self.rng.random() < 0.5},
        }
        return {
            "type": "tool_call",
            "id": f"call_{self.rng.getrandbits(64):016x}",
            "name": name,
            "arguments": arguments,
        }

    def results(self, calls: list[Json]) -> Json:
        parts: list[Json] = []
        for call in calls:
            part: Json = {
                "type": "tool_result",
                "tool_call_id": call["id"],
                "name": call["name"],
                "content": [{"type": "text", "text": self.words(5, 200)}],
            }
            if self.rng.random() < 0.1:
                part["is_error"] = True
            if self.rng.random() < 0.2:
                part["structured_content"] = {"rows": [self.rng.randint(0, 100) for _ in range(5)]}
            parts.append(part)
        return {"role": "tool", "content": parts, "id": self.ulid(), "created_at": self.timestamp()}

    def tool(self, name: str) -> Json:
        return {
            "name": name,
            "description": self.words(5, 20),
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "what to look for"},
                    "limit": {"type": "integer", "minimum": 1},
                    "filters": {"type": "object", "properties": {"recent": {"type": "boolean"}}},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            "side_effects": "read",
        }


def conversation(seed: int, turns: int | None = None) -> Json:
    """One valid Conversation, the same for the same seed and turn count."""
    b = _Builder(seed)
    turns = turns if turns is not None else b.rng.randint(1, 8)
    session = f"sess_{seed}"
    messages: list[Json] = [
        {"role": "system", "content": [{"type": "text", "text": b.words(10, 40)}]}
    ]
    for _ in range(turns):
        messages.append(b.user())
        for _ in range(b.rng.randint(0, 2)):  # tool rounds, with parallel calls
            calls = [b.call() for _ in range(b.rng.randint(1, 3))]
            messages.append(b.assistant(calls))
            messages.append(b.results(calls))
        messages.append(b.assistant([]))
    for message in messages:
        if "id" in message:
            message["session_id"] = session
    return {
        "schema_version": 1,
        "session_id": session,
        "model": "anthropic:claude-sonnet-4-6",
        "messages": messages,
        "tools": [b.tool(name) for name in _TOOLS],
        "tool_choice": {"type": "auto"},
        "parameters": {"max_output_tokens": 4096, "temperature": 0.7},
    }


def corpus(size: int, seed: int = 0) -> list[Json]:
    """``size`` distinct conversations."""
    return [conversation(seed * 1_000_003 + i) for i in range(size)]
