"""Synthetic OpenAI Chat Completions request bodies: realistic, valid, reproducible from a seed.

The corpus the conversion benchmark (``benchmarks/convert.py``) feeds to every converter. Each
body is a plain dict, valid against ``schemas/formats/openai-chat/request.json``, and a mix of
what a gateway sees: a system or developer prompt, user text and small ``image_url`` parts
(base64 data URLs), multi-turn history, assistant turns with parallel ``tool_calls`` whose
``arguments`` are JSON strings, the ``role: tool`` results answering them, ``tools``
definitions, and sometimes ``tool_choice``, ``parallel_tool_calls``, ``response_format``,
``max_tokens`` / ``max_completion_tokens``, ``temperature``, ``top_p``, ``stop`` and ``stream``.

Everything comes from one ``random.Random(seed)``, so ``corpus(n)`` is the same list on every
run and machine, and ``corpus(k) == corpus(n)[:k]`` for ``k <= n``. Pure Python, no imports
beyond the standard library.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Any

Json = dict[str, Any]

MODELS = ("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "o3", "o4-mini", "gpt-5")
# Reasoning models take a developer message where older ones take a system message.
DEVELOPER_MODELS = frozenset({"o3", "o4-mini", "gpt-5"})

_WORDS = (
    "the a an of to in for on with from by about after before between through during "
    "model agent user request response answer summary report result status error warning "
    "file folder path record table query index column row value field schema document page "
    "invoice order customer account payment refund shipment address ticket incident deploy "
    "service cluster region latency throughput budget quarter revenue forecast metric trend "
    "please check find read write update compare explain list show fetch compute translate "
    "draft review summarise verify confirm schedule cancel retry escalate archive restore "
    "quickly carefully again only also still already never always usually roughly exactly "
    "new old large small recent pending failed missing duplicate current previous final "
    "first second third last next every each some many few several all none both either "
    "is are was were be been has have had will would can could should must may might "
    "customer's team's project's week's "
).split()
# A few words outside ASCII: real traffic has them, and they exercise the JSON escaping paths.
_UNICODE_WORDS = ("café", "naïve", "Zürich", "São Paulo", "東京", "données", "😀", "→", "€120")
_LANGUAGES = ("French", "German", "Japanese", "Portuguese", "Spanish", "Korean")
_IMAGE_TYPES = ("png", "jpeg", "webp", "gif")
# Leading bytes of each image type, so a decoded data URL at least starts like the real thing.
_MAGIC = {
    "png": b"\x89PNG\r\n\x1a\n",
    "jpeg": b"\xff\xd8\xff\xe0",
    "webp": b"RIFF\x00\x00\x00\x00WEBPVP8 ",
    "gif": b"GIF89a",
}
_ID_ALPHABET = string.ascii_letters + string.digits

# name, description, parameters (JSON Schema). Argument values are drawn from the schema.
_TOOLS: tuple[tuple[str, str, Json], ...] = (
    (
        "get_weather",
        "Get the current weather for a city.",
        {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "City and country"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["location"],
            "additionalProperties": False,
        },
    ),
    (
        "search_web",
        "Search the web and return the top results with titles, URLs and snippets.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "max_results": {"type": "integer", "minimum": 1, "maximum": 20},
                "recency_days": {"type": "integer"},
            },
            "required": ["query"],
        },
    ),
    (
        "read_file",
        "Read a UTF-8 text file from the workspace.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "start_line": {"type": "integer"},
                "end_line": {"type": "integer"},
            },
            "required": ["path"],
        },
    ),
    (
        "write_file",
        "Write text to a file in the workspace, replacing its content.",
        {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    ),
    (
        "run_sql",
        "Run a read-only SQL query against the analytics warehouse.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "database": {"type": "string", "enum": ["analytics", "billing", "crm"]},
                "timeout_seconds": {"type": "number"},
            },
            "required": ["query", "database"],
        },
    ),
    (
        "send_email",
        "Send an email on behalf of the user.",
        {
            "type": "object",
            "properties": {
                "to": {"type": "array", "items": {"type": "string"}},
                "subject": {"type": "string"},
                "body": {"type": "string"},
                "cc": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["to", "subject", "body"],
        },
    ),
    (
        "create_calendar_event",
        "Create an event in the user's calendar.",
        {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "start": {"type": "string", "format": "date-time"},
                "duration_minutes": {"type": "integer"},
                "attendees": {"type": "array", "items": {"type": "string"}},
                "online": {"type": "boolean"},
            },
            "required": ["title", "start"],
        },
    ),
    (
        "lookup_order",
        "Look an order up by its id and return its status, items and shipping details.",
        {
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "include_history": {"type": "boolean"},
            },
            "required": ["order_id"],
        },
    ),
    (
        "get_stock_price",
        "Get the latest price of a stock by ticker symbol.",
        {
            "type": "object",
            "properties": {"ticker": {"type": "string"}},
            "required": ["ticker"],
        },
    ),
    (
        "translate_text",
        "Translate text into another language.",
        {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "target_language": {"type": "string", "enum": list(_LANGUAGES)},
            },
            "required": ["text", "target_language"],
        },
    ),
    (
        "list_directory",
        "List the entries of a directory in the workspace.",
        {
            "type": "object",
            "properties": {"path": {"type": "string"}, "recursive": {"type": "boolean"}},
            "required": ["path"],
        },
    ),
    (
        "create_ticket",
        "Open a support ticket.",
        {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "priority": {"type": "string", "enum": ["low", "normal", "high", "urgent"]},
                "labels": {"type": "array", "items": {"type": "string"}},
                "details": {
                    "type": "object",
                    "properties": {
                        "component": {"type": "string"},
                        "customer_impact": {"type": "boolean"},
                    },
                },
            },
            "required": ["title", "priority"],
        },
    ),
)

_EXTRACTION_SCHEMA: Json = {
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "sentiment": {"type": "string", "enum": ["positive", "neutral", "negative"]},
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "kind": {"type": "string"}},
                "required": ["name", "kind"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["summary", "sentiment", "entities"],
    "additionalProperties": False,
}


class _Builder:
    """One conversation at a time, all drawn from the same random stream."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # --- text ---------------------------------------------------------------------------

    def words(self, low: int, high: int) -> str:
        rng = self.rng
        out = [
            rng.choice(_UNICODE_WORDS) if rng.random() < 0.01 else rng.choice(_WORDS)
            for _ in range(rng.randint(low, high))
        ]
        return " ".join(out)

    def sentence(self) -> str:
        text = self.words(5, 22)
        return text[:1].upper() + text[1:] + self.rng.choice(".....?!")

    def paragraph(self, low: int, high: int) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(low, high)))

    def pasted(self) -> str:
        """Something a user pastes: a log excerpt, a CSV or a code block, a few KiB at most."""
        rng = self.rng
        kind = rng.choice(("log", "csv", "code"))
        rows = rng.randint(8, 60)
        if kind == "log":
            lines = [
                f"2026-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:"
                f"{rng.randint(10, 59)}:{rng.randint(10, 59)}Z "
                f"{rng.choice(('INFO', 'WARN', 'ERROR', 'DEBUG'))} {self.words(4, 12)}"
                for _ in range(rows)
            ]
        elif kind == "csv":
            lines = ["id,name,amount,status"] + [
                f"{rng.randint(1000, 9999)},{rng.choice(_WORDS)},"
                f"{rng.randint(1, 99999) / 100:.2f},{rng.choice(('paid', 'open', 'void'))}"
                for _ in range(rows)
            ]
        else:
            lines = ["```python", "def handler(event, context):"] + [
                f"    {rng.choice(_WORDS)}_{i} = {rng.choice(('None', '[]', '{}', str(i)))}"
                f"  # {self.words(2, 6)}"
                for i in range(rows)
            ]
            lines.append("```")
        return "\n".join(lines)

    def ident(self, prefix: str, length: int) -> str:
        return prefix + "".join(self.rng.choices(_ID_ALPHABET, k=length))

    # --- content ------------------------------------------------------------------------

    def image_part(self) -> Json:
        rng = self.rng
        kind = rng.choices(_IMAGE_TYPES, weights=(6, 3, 1, 1))[0]
        raw = _MAGIC[kind] + rng.randbytes(rng.randint(96, 1536))
        image: Json = {"url": f"data:image/{kind};base64,{base64.b64encode(raw).decode()}"}
        if rng.random() < 0.4:
            image["detail"] = rng.choice(("auto", "low", "high"))
        return {"type": "image_url", "image_url": image}

    def system_message(self, model: str) -> Json:
        rng = self.rng
        developer = model in DEVELOPER_MODELS and rng.random() < 0.8
        text = f"You are a helpful assistant for the {rng.choice(_WORDS)} team. " + self.paragraph(
            2, 14
        )
        content: Any = text
        if rng.random() < 0.15:
            content = [{"type": "text", "text": text}]
            if rng.random() < 0.5:
                content.append({"type": "text", "text": self.paragraph(1, 4)})
        return {"role": "developer" if developer else "system", "content": content}

    def user_message(self) -> Json:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            text = f"{self.sentence()}\n\n{self.pasted()}\n\n{self.sentence()}"
        else:
            text = self.paragraph(1, 5)
        if roll < 0.6:
            return {"role": "user", "content": text}
        parts: list[Json] = [{"type": "text", "text": text}]
        if roll < 0.8:
            images = rng.choices((1, 2, 3), weights=(7, 2, 1))[0]
            for _ in range(images):
                parts.insert(rng.randint(0, len(parts)), self.image_part())
        elif rng.random() < 0.5:
            parts.append({"type": "text", "text": self.paragraph(1, 3)})
        return {"role": "user", "content": parts}

    def assistant_text(self) -> Json:
        text = self.paragraph(1, 8)
        if self.rng.random() < 0.1:
            return {"role": "assistant", "content": [{"type": "text", "text": text}]}
        return {"role": "assistant", "content": text}

    # --- tools --------------------------------------------------------------------------

    def value(self, name: str, schema: Json) -> Any:
        rng = self.rng
        kind = schema.get("type")
        if "enum" in schema:
            return rng.choice(schema["enum"])
        if kind == "integer":
            return rng.randint(schema.get("minimum", 1), schema.get("maximum", 500))
        if kind == "number":
            return round(rng.uniform(0.5, 120.0), 1)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "array":
            return [self.value(name, schema["items"]) for _ in range(rng.randint(1, 4))]
        if kind == "object":
            return self.arguments(schema)
        if name in {"to", "cc", "attendees"}:
            return f"{rng.choice(_WORDS)}.{rng.choice(_WORDS)}@example.com"
        if name == "path":
            return "/".join(["workspace", *rng.choices(_WORDS, k=rng.randint(1, 3))]) + ".txt"
        if name == "start":
            month, day, hour = rng.randint(1, 12), rng.randint(1, 28), rng.randint(8, 18)
            return f"2026-{month:02d}-{day:02d}T{hour:02d}:00:00Z"
        if name == "order_id":
            return self.ident("ORD-", 8)
        if name == "ticker":
            return "".join(rng.choices(string.ascii_uppercase, k=rng.randint(2, 4)))
        if name == "query" and rng.random() < 0.5:
            return f"SELECT {rng.choice(_WORDS)}, count(*) FROM {rng.choice(_WORDS)} GROUP BY 1"
        if name in {"body", "content", "text"}:
            return self.paragraph(1, 6)
        return self.words(1, 8)

    def arguments(self, schema: Json) -> Json:
        required = set(schema.get("required", ()))
        return {
            name: self.value(name, sub)
            for name, sub in schema.get("properties", {}).items()
            if name in required or self.rng.random() < 0.5
        }

    def tool_result(self, call_id: str) -> Json:
        rng = self.rng
        roll = rng.random()
        if roll < 0.55:
            payload = {
                "status": "ok",
                "results": [
                    {"id": rng.randint(1, 10_000), "title": self.words(2, 8), "score": rng.random()}
                    for _ in range(rng.randint(1, 8))
                ],
            }
            content: Any = json.dumps(payload, ensure_ascii=False)
        elif roll < 0.85:
            content = self.paragraph(1, 6)
        elif roll < 0.93:
            content = f"Error: {self.sentence()}"
        else:
            content = [{"type": "text", "text": self.paragraph(1, 4)}]
        return {"role": "tool", "tool_call_id": call_id, "content": content}

    def tool_round(self, tools: list[tuple[str, str, Json]]) -> list[Json]:
        """An assistant turn with one or more parallel calls, then one result per call."""
        rng = self.rng
        count = rng.choices((1, 2, 3, 4), weights=(10, 5, 2, 1))[0]
        calls: list[Json] = []
        ids: list[str] = []
        for _ in range(count):
            name, _description, parameters = rng.choice(tools)
            arguments = json.dumps(self.arguments(parameters), ensure_ascii=False)
            ids.append(self.ident("call_", 24))
            calls.append(
                {
                    "id": ids[-1],
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            )
        assistant: Json = {"role": "assistant", "tool_calls": calls}
        roll = rng.random()
        if roll < 0.6:
            assistant = {"role": "assistant", "content": None, "tool_calls": calls}
        elif roll < 0.85:
            assistant = {"role": "assistant", "content": self.sentence(), "tool_calls": calls}
        return [assistant, *(self.tool_result(call_id) for call_id in ids)]

    # --- the request --------------------------------------------------------------------

    def long_request(self, at_least: int) -> Json:
        """A long conversation: user turns (every third with an image), each answered by a
        round of parallel calls and results or by text, until there are ``at_least``
        messages and the conversation ends on the user's turn."""
        rng = self.rng
        model = rng.choice(MODELS)
        tools = rng.sample(_TOOLS, rng.randint(2, 6))
        messages: list[Json] = [self.system_message(model)]
        turn = 0
        while len(messages) < at_least - 1:
            user = self.user_message()
            if turn % 3 == 0:
                content = user["content"]
                parts = (
                    content if isinstance(content, list) else [{"type": "text", "text": content}]
                )
                user = {"role": "user", "content": [*parts, self.image_part()]}
            messages.append(user)
            if turn % 2 == 0:
                round_ = self.tool_round(tools)
                while len(round_) < 3:  # one call and its result: again, for parallel calls
                    round_ = self.tool_round(tools)
                messages.extend(round_)
            messages.append(self.assistant_text())
            turn += 1
        messages.append(self.user_message())
        body: Json = {
            "model": model,
            "messages": messages,
            "tools": [
                {
                    "type": "function",
                    "function": {"name": name, "description": description, "parameters": params},
                }
                for name, description, params in tools
            ],
        }
        if rng.random() < 0.7:
            key = "max_completion_tokens" if model in DEVELOPER_MODELS else "max_tokens"
            body[key] = rng.choice((1024, 2048, 4096, 8192))
        return body

    def request(self) -> Json:  # noqa: C901 - one weighted draw per optional field, in order
        rng = self.rng
        model = rng.choice(MODELS)
        tools = rng.sample(_TOOLS, rng.randint(1, 6)) if rng.random() < 0.65 else []
        messages: list[Json] = []
        if rng.random() < 0.85:
            messages.append(self.system_message(model))
        turns = rng.choices((1, 2, 3, 4, 5, 6), weights=(5, 4, 3, 2, 1, 1))[0]
        for turn in range(turns):
            messages.append(self.user_message())
            if turn == turns - 1:
                # The request ends on the user's turn, or, in an agent loop, on tool results.
                if tools and rng.random() < 0.35:
                    messages.extend(self.tool_round(tools))
                break
            if tools and rng.random() < 0.6:
                for _ in range(rng.choices((1, 2, 3), weights=(6, 3, 1))[0]):
                    messages.extend(self.tool_round(tools))
            messages.append(self.assistant_text())

        body: Json = {"model": model, "messages": messages}
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {"name": name, "description": description, "parameters": params},
                }
                for name, description, params in tools
            ]
            roll = rng.random()
            if roll < 0.35:
                body["tool_choice"] = "auto"
            elif roll < 0.45:
                body["tool_choice"] = "required"
            elif roll < 0.5:
                body["tool_choice"] = "none"
            elif roll < 0.6:
                body["tool_choice"] = {"type": "function", "function": {"name": tools[0][0]}}
            if rng.random() < 0.2:
                body["parallel_tool_calls"] = rng.random() < 0.3
        elif rng.random() < 0.2:
            if rng.random() < 0.6:
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": "extraction",
                        "schema": _EXTRACTION_SCHEMA,
                        "strict": True,
                    },
                }
            else:
                body["response_format"] = {"type": "json_object"}
        if rng.random() < 0.7:
            key = "max_completion_tokens" if model in DEVELOPER_MODELS else "max_tokens"
            body[key] = rng.choice((256, 512, 1024, 2048, 4096, 8192))
        if rng.random() < 0.5:
            body["temperature"] = rng.choice((0.0, 0.2, 0.3, 0.5, 0.7, 0.8, 1.0))
        if rng.random() < 0.1:
            body["top_p"] = rng.choice((0.5, 0.9, 0.95, 1.0))
        if rng.random() < 0.1:
            body["stop"] = rng.sample(("\n\n###", "END", "</answer>", "Observation:"), 2)
        if rng.random() < 0.1:
            body["stream"] = True
        return body


def long_corpus(size: int, seed: int = 0, messages: int = 30) -> list[Json]:
    """``size`` long agent conversations of at least ``messages`` messages (tools always
    declared, several rounds of parallel calls and their results, images in user turns), the
    same for the same ``seed``: where the per-turn cost of a converter shows."""
    builder = _Builder(seed + 1_000_003)  # a stream of its own: not the short corpus's bodies
    return [builder.long_request(messages) for _ in range(size)]


def corpus(size: int, seed: int = 0) -> list[Json]:
    """``size`` OpenAI Chat Completions request bodies, the same for the same ``seed``."""
    builder = _Builder(seed)
    return [builder.request() for _ in range(size)]
