"""ChatML text: the one place that knows how a ChatML conversation is written as text.

A conversation is a run of turns, each ``<|im_start|>{role}\\n{body}<|im_end|>\\n`` (OpenAI's
ChatML note). Tool calls follow the Qwen2.5 chat template: an assistant body is its text, then
each call as ``<tool_call>\\n{"name": …, "arguments": …}\\n</tool_call>``, a newline before every
call but one opening the body. Tool results follow Hermes 2 Pro: a ``tool`` turn per result whose
body is ``<tool_response>\\n{"name": …, "content": …}\\n</tool_response>`` (the name is how a
result finds its call: the convention has no call ids). The Qwen2.5 chat template writes results
otherwise: the results of consecutive tool messages as one ``user`` turn of
``<tool_response>\\n{content}\\n</tool_response>`` blocks, a newline between them, without the
tool's name; such a turn reads as one nameless tool turn per block (paired with the calls by
order), and consecutive nameless tool turns are written back that way.

:func:`parse` reads text into the JSON shape ``schemas/formats/chatml/*.json`` describe (a
request ``{"messages": [turn, …]}``; a response one assistant turn); :func:`render` writes that
shape back. A turn is ``{"role", "content"}`` with ``content`` a string; an assistant turn may add
``tool_calls`` (``[{"name", "arguments"}]``); a tool turn ``name``. A request may end with an open
assistant turn, ``<|im_start|>assistant\\n`` (the generation prompt): ``"generation_prompt": true``.
A system, user or assistant role line may name the speaker, ``system name=example_user`` (the
few-shot examples of OpenAI's note): the turn's ``name``. A response may be the continuation a
model generates after the generation prompt, the turn's body and ``<|im_end|>`` without its role
line (a decoded generation): ``"continuation": true``, written back the same way.

Decisions:

- Parsing is total: any text gives the shape or a :class:`ConversionError` coded
  ``invalid_text`` (its pointer names the turn). Text outside a turn, an unterminated turn, a turn
  without a role line, and a malformed ``<tool_call>`` / ``<tool_response>`` body are refused;
  a missing newline after the last ``<|im_end|>`` is accepted (and written back).
- ChatML has no escapes. Rendering refuses (``invalid_text``) any value that would not read back
  as itself: content holding ``<|im_start|>`` or ``<|im_end|>`` (it would forge turns), a role
  with a newline, text that would read back as a tool call. So ``parse(render(x)) == x`` always.
- A call's JSON is written as ``json.dumps`` writes it (the templates' ``tojson``); a text whose
  calls are spaced otherwise reads the same, but is written back in that spelling.
"""

from __future__ import annotations

import json
import re
from typing import Any

from interlingua.conversion import ConversionError
from interlingua.conversion.reading import InputError, read_json

START = "<|im_start|>"
END = "<|im_end|>"
CALL_OPEN, CALL_CLOSE = "<tool_call>\n", "\n</tool_call>"
RESULT_OPEN, RESULT_CLOSE = "<tool_response>\n", "\n</tool_response>"
CALL_ROLE = "assistant"  # whose bodies hold tool calls
RESULT_ROLE = "tool"  # whose bodies are one tool response
CODE = "invalid_text"

# The calls closing an assistant body: each on one line (JSON written without indentation has
# no raw newline), the first opening the body or after a newline that ends some text (a body
# opening with a newline and then a call is text: nothing writes it that way).
_CALLS = re.compile(
    rf"(?P<calls>(?:\A|(?<=[\s\S])\n){re.escape(CALL_OPEN)}[^\n]*{re.escape(CALL_CLOSE)}"
    rf"(?:\n{re.escape(CALL_OPEN)}[^\n]*{re.escape(CALL_CLOSE)})*)\Z"
)
_CALL = re.compile(rf"{re.escape(CALL_OPEN)}(?P<json>[^\n]*){re.escape(CALL_CLOSE)}")
_RESULT = re.compile(rf"\A{re.escape(RESULT_OPEN)}(?P<json>[^\n]*){re.escape(RESULT_CLOSE)}\Z")
RESULTS_ROLE = "user"  # whose bodies hold Qwen2.5's nameless results
NAMED = " name="  # a role line naming the speaker: `system name=example_user`
_NAME = re.compile(r"[^\s]+")
_RESULTS = re.compile(rf"\A{re.escape(RESULT_OPEN)}(?P<all>[\s\S]*){re.escape(RESULT_CLOSE)}\Z")
_BETWEEN = RESULT_CLOSE + "\n" + RESULT_OPEN  # between two results of one Qwen2.5 user turn


def _fail(at: str, message: str) -> ConversionError:
    return ConversionError(CODE, at, f"not ChatML text: {message}")


def _line(text: str, offset: int) -> str:
    return f"line {text.count(chr(10), 0, offset) + 1}"


def parse_turns(text: str) -> tuple[list[dict[str, Any]], bool]:
    """The turns of a ChatML text, and whether it ends with an open assistant turn."""
    if not isinstance(text, str):
        raise _fail("", "expected text")
    turns: list[dict[str, Any]] = []
    pos = 0
    while pos < len(text):
        at = f"/messages/{len(turns)}"
        if not text.startswith(START, pos):
            raise _fail(
                at, f"text outside a turn at {_line(text, pos)} (a turn opens with {START})"
            )
        begin = pos + len(START)
        end = text.find(END, begin)
        if end == -1 and text[begin:] == CALL_ROLE + "\n":
            return turns, True  # the generation prompt
        if end == -1:
            raise _fail(at, f"the turn opened at {_line(text, pos)} never ends with {END}")
        following = text.find(START, begin, end)
        if following != -1:
            raise _fail(at, f"the turn opened at {_line(text, pos)} has no {END} before the next")
        role, newline, body = text[begin:end].partition("\n")
        if not newline or not role:
            raise _fail(at, f"the turn at {_line(text, pos)} has no role line")
        role, named, name = role.partition(NAMED)
        if named and (role == RESULT_ROLE or not _NAME.fullmatch(name)):
            role += named + name  # not a speaker's name: the role line as it is (refused)
        elif named:
            turns.append({**_turn(role, body, at), "name": name})
            pos = _after(text, end, len(turns))
            continue
        turns.extend(_turns_of(role, body, at))
        pos = _after(text, end, len(turns))
    return turns, False


def _after(text: str, end: int, count: int) -> int:
    """Where the next turn starts after the ``<|im_end|>`` at ``end`` (and its newline)."""
    pos = end + len(END)
    if text.startswith("\n", pos):
        return pos + 1
    if pos < len(text):
        raise _fail(f"/messages/{count}", f"text outside a turn at {_line(text, pos)}")
    return pos


def _continuation(text: str) -> dict[str, Any]:
    """A response that is what a model generates after the generation prompt: the assistant
    turn's body and its ``<|im_end|>``, without the role line."""
    end = text.find(END)
    if end == -1:
        raise _fail("", f"a response is an assistant turn, or its body ending with {END}")
    if START in text[:end]:
        where = _line(text, text.find(START))
        raise _fail("", f"text outside a turn before the {START} at {where}")
    after = _after(text, end, 1)
    if after < len(text):
        raise _fail("", f"text outside a turn at {_line(text, after)}")
    turn = _turn(CALL_ROLE, text[:end], "")
    return {**turn, "continuation": True}


def _json(raw: str, at: str, what: str) -> dict[str, Any]:
    try:
        value = read_json(raw)
    except InputError as exc:
        raise _fail(at, f"the {what} is not JSON: {exc.message}") from None
    if type(value) is not dict:
        raise _fail(at, f"the {what} is not a JSON object")
    return value


def _turns_of(role: str, body: str, at: str) -> list[dict[str, Any]]:
    """The turns one ChatML turn reads as: itself, or a Qwen2.5 user turn of results as one
    nameless tool turn per result."""
    if role == RESULTS_ROLE:
        found = _RESULTS.search(body)
        if found is not None:
            return [{"role": RESULT_ROLE, "content": c} for c in found["all"].split(_BETWEEN)]
    return [_turn(role, body, at)]


def _turn(role: str, body: str, at: str) -> dict[str, Any]:
    if role == CALL_ROLE:
        found = _CALLS.search(body)
        if found is not None:
            calls = []
            for k, match in enumerate(_CALL.finditer(found["calls"])):
                call = _json(match["json"], f"{at}/tool_calls/{k}", "tool call")
                if set(call) != {"name", "arguments"} or not isinstance(call["name"], str):
                    raise _fail(f"{at}/tool_calls/{k}", 'a tool call is {"name", "arguments"}')
                if type(call["arguments"]) is not dict:
                    raise _fail(f"{at}/tool_calls/{k}/arguments", "arguments are an object")
                calls.append({"name": call["name"], "arguments": call["arguments"]})
            return {"role": role, "content": body[: found.start()], "tool_calls": calls}
    if role == RESULT_ROLE:
        found = _RESULT.search(body)
        if found is not None:
            result = _json(found["json"], f"{at}/content", "tool response")
            if set(result) != {"name", "content"} or not all(
                isinstance(v, str) for v in result.values()
            ):
                raise _fail(f"{at}/content", 'a tool response is {"name", "content"}, both text')
            return {"role": role, "name": result["name"], "content": result["content"]}
        # (A nameless result is Qwen2.5's, inside a user turn: a tool turn is Hermes'.)
        raise _fail(f"{at}/content", "a tool turn is one <tool_response> naming its tool")
    return {"role": role, "content": body}


def render_turn(turn: dict[str, Any]) -> str:
    role, body = turn["role"], turn["content"]
    line = role + NAMED + turn["name"] if "name" in turn and role != RESULT_ROLE else role
    if role == RESULT_ROLE and "name" in turn:
        result = json.dumps({"name": turn["name"], "content": body}, ensure_ascii=False)
        body = RESULT_OPEN + result + RESULT_CLOSE
    for call in turn.get("tool_calls", ()):
        spelled = json.dumps(
            {"name": call["name"], "arguments": call["arguments"]}, ensure_ascii=False
        )
        body += ("\n" if body else "") + CALL_OPEN + spelled + CALL_CLOSE
    return f"{START}{line}\n{body}{END}\n"


def _nameless_result(turn: dict[str, Any]) -> bool:
    return turn.get("role") == RESULT_ROLE and "name" not in turn


def _groups(turns: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The turns as ChatML turns take them, with the index of each group's first: a run of
    nameless results is one (Qwen2.5's user turn of results), any other turn one of its own."""
    out: list[tuple[int, list[dict[str, Any]]]] = []
    for i, turn in enumerate(turns):
        if out and _nameless_result(turn) and _nameless_result(out[-1][1][-1]):
            out[-1][1].append(turn)
        else:
            out.append((i, [turn]))
    return out


def _render_group(group: list[dict[str, Any]]) -> str:
    if _nameless_result(group[0]):
        body = "\n".join(RESULT_OPEN + turn["content"] + RESULT_CLOSE for turn in group)
        return f"{START}{RESULTS_ROLE}\n{body}{END}\n"
    return render_turn(group[0])


def render_turns(turns: list[dict[str, Any]], generation_prompt: bool = False) -> str:
    """The text of ``turns``; refused (``invalid_text``) when it would not read back as them."""
    pieces = []
    for i, group in _groups(turns):
        text = _render_group(group)
        try:
            back, _ = parse_turns(text)
        except ConversionError as exc:
            raise _fail(f"/messages/{i}", f"cannot be written: {exc.message}") from None
        if back != group:
            raise _fail(
                f"/messages/{i}",
                "cannot be written: ChatML has no escapes, and this turn would read back "
                f"otherwise (its content holds {START}, {END} or a tool-call tag)",
            )
        pieces.append(text)
    if generation_prompt:
        pieces.append(f"{START}{CALL_ROLE}\n")
    return "".join(pieces)


def parse(text: str, kind: str) -> Any:
    """The JSON shape of a ChatML ``kind`` document (request, response or messages)."""
    if kind == "response" and isinstance(text, str) and not text.startswith(START):
        return _continuation(text)
    turns, prompt = parse_turns(text)
    if kind == "response":
        if prompt or len(turns) != 1:
            raise _fail("", f"a response is one turn, not {len(turns) + prompt}")
        return turns[0]
    document: dict[str, Any] = {"messages": turns}
    if prompt and kind == "request":
        document["generation_prompt"] = True
    elif prompt:
        raise _fail(f"/messages/{len(turns)}", "stored messages hold no open turn")
    return document


def render(document: Any, kind: str) -> str:
    """The ChatML text of a ``kind`` document in the JSON shape."""
    if kind == "response" and type(document) is dict and document.get("continuation") is True:
        turn = {k: v for k, v in document.items() if k != "continuation"}
        header = f"{START}{turn['role']}\n"
        text = render_turns([turn])
        if turn["role"] != CALL_ROLE or "name" in turn or not text.startswith(header):
            raise _fail("/continuation", "a continuation is an assistant's, unnamed")
        return text[len(header) :]
    if kind == "response" or (type(document) is dict and "messages" not in document):
        return render_turns([document])
    if type(document) is list:
        return render_turns(document)
    return render_turns(document["messages"], bool(document.get("generation_prompt")))
