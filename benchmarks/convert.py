"""Conversion throughput: interlingua against LiteLLM's own converters, and the orjson floor.

Every converter turns the same corpus of OpenAI Chat Completions request bodies
(``openai_corpus.py``: seeded, ≈5 KiB each, tools, parallel calls, images, multi-turn) into an
Anthropic Messages and a Gemini generateContent request body, in one process, and the report
gives ratios:

* interlingua dict → dict: ``convert(body, source="openai-chat", target=...)``, against
  LiteLLM's request translation for the same provider (target ≥ 10x for Anthropic, ≥ 15x for
  Gemini);
* interlingua bytes → bytes: ``orjson.loads``, ``convert``, ``orjson.dumps``, against the floor,
  ``orjson.loads`` + ``orjson.dumps`` of the same lines with no conversion at all (target: at
  least 50 % of the floor's throughput, as issue 16 asks); and the same with
  ``interlingua.read_json`` in place of ``orjson.loads`` (what the service and the command
  line do: a repeated key refused rather than resolved by the parser; no target).

LiteLLM runs offline (local model cost map and beta-header table, no network) and only its
translation: for each provider, the steps ``litellm.completion`` takes before the HTTP call:
``translate_developer_role_to_system_role``, ``map_openai_params``, then
``AnthropicConfig.transform_request`` or the Gemini ``transform_request_body``. Its logging,
``get_optional_params`` bookkeeping and the handlers' deep copies are left out, so the ratios
are conservative. LiteLLM is optional at run time (``pip install -e '.[bench]'`` brings it):
without it, its rows are skipped.

Beside it, a corpus of long conversations (``long_corpus``: 30 messages and more, images,
rounds of parallel tool calls, ≈ 28 KiB), where a converter's per-turn cost shows; the two
corpora are timed interleaved and reported apart.

Before any timing, every converter runs over the whole corpus: one that raises is reported and
left out of the timing (the run then exits 1), and so is one that loses a tool call, a tool
result or an image; a slice of each one's outputs is checked against the target's wire schema.
The timing goes round robin over slices of the corpora, every converter on every slice, and
keeps each one's median time per slice. Dict converters get freshly parsed bodies each time
(untimed), because LiteLLM's Gemini path edits the messages list it is given. Each dict → dict
row for Anthropic and Gemini is timed twice: on a slice parsed before its timing starts (the
bodies' objects out of the cache by the time each is converted: a caller converting a list of
bodies it loaded earlier) and, as "just parsed", on each body parsed right before it is
converted (a service or a JSONL pipeline converting what it just read). Both converters read
the same objects; the first adds what reading them back from memory costs.

    python benchmarks/convert.py [--size 2000] [--long 200] [--repeat 5]

A Bedrock Converse section follows (openai-chat → bedrock, dict → dict): interlingua with its
fused pass, the same without it, and LiteLLM's Converse translation, checked and timed the same way.
An OpenAI Responses section likewise (openai-chat → openai-responses): LiteLLM's row is its
chat-to-Responses bridge (``LiteLLMResponsesTransformationHandler.transform_request``, what
``litellm.completion`` runs for a Responses-only model) and the Responses request transform it
hands the result to.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import importlib.metadata
import inspect
import itertools
import json
import logging
import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import jsonschema_rs
import orjson
from openai_corpus import corpus, long_corpus

Json = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent
FORMATS_DIR = ROOT / "schemas" / "formats"
SOURCE = "openai-chat"
TARGETS = ("anthropic", "gemini")
# What the issue asks of interlingua: dict → dict this many times LiteLLM, bytes → bytes at
# least this share of the orjson floor.
VS_LITELLM = {"anthropic": 10.0, "gemini": 15.0}
VS_FLOOR = 0.50
FLOOR = "floor: orjson loads + dumps"
# The model LiteLLM is told it is translating for (it reads capabilities from its cost map).
LITELLM_MODELS = {"anthropic": "claude-sonnet-4-5", "gemini": "gemini-2.5-flash"}
# Set before LiteLLM is imported: read its bundled tables, never fetch them.
LITELLM_OFFLINE = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "True",
    "LITELLM_LOCAL_BLOG_POSTS": "True",
}


class ConvertResult(Protocol):
    """What ``interlingua.conversion.converter`` returns: the wire body and what it could not
    carry."""

    @property
    def output(self) -> Json: ...

    @property
    def losses(self) -> tuple[Any, ...]: ...


class Convert(Protocol):
    def __call__(
        self,
        payload: Json,
        *,
        source: str,
        target: str,
        fused: bool = True,
        _data_checked: bool = False,
    ) -> ConvertResult: ...


def load_interlingua() -> Convert | str:
    """``interlingua.conversion.converter``, or why it cannot be had."""
    try:
        module = importlib.import_module("interlingua")
    except ImportError as error:
        return f"interlingua is not importable ({error}); pip install -e '.[bench]'"
    convert = getattr(module, "convert", None)
    # absent, or the submodule `interlingua.conversion.converter` not re-exported
    if not callable(convert):
        return (
            "interlingua.conversion.converter is not importable yet: the benchmark calls "
            "`from interlingua import convert; convert(body, source='openai-chat', "
            "target='anthropic' | 'gemini')` and reads `.output` and `.losses`"
        )
    # Losses are logged at DEBUG only; keep the logger quiet all the same (a root logger an
    # embedding application configured must not time its handlers): the report counts them.
    logging.getLogger("interlingua").setLevel(logging.ERROR)
    return cast(Convert, convert)


def _litellm_steps(config: Any, body: Json, model: str, *, drop_params: bool) -> tuple[Any, Json]:
    """The steps ``litellm.completion`` takes before a provider's request transform: the
    developer role as system, the OpenAI parameters mapped."""
    messages = config.translate_developer_role_to_system_role(messages=body["messages"])
    optional_params = config.map_openai_params(
        non_default_params=_params(body),
        optional_params={},
        model=model,
        drop_params=drop_params,
    )
    return messages, optional_params


def load_litellm() -> tuple[str, dict[str, Callable[[Json], Json]]] | str:
    """LiteLLM's version and its request translation per target, or why it cannot be had."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        anthropic = importlib.import_module("litellm.llms.anthropic.chat.transformation")
        gemini_chat = importlib.import_module("litellm.llms.gemini.chat.transformation")
        gemini_body = importlib.import_module("litellm.llms.vertex_ai.gemini.transformation")
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its rows are skipped"

    anthropic_config = anthropic.AnthropicConfig()
    gemini_config = gemini_chat.GoogleAIStudioGeminiConfig()
    transform_request_body = gemini_body.transform_request_body

    def to_anthropic(body: Json) -> Json:
        model = LITELLM_MODELS["anthropic"]
        messages, optional_params = _litellm_steps(anthropic_config, body, model, drop_params=False)
        optional_params.pop("json_mode", None)  # the handler pops it before transforming
        request: Json = anthropic_config.transform_request(
            model=model,
            messages=messages,
            optional_params=optional_params,
            litellm_params={},
            headers={},
        )
        return request

    def to_gemini(body: Json) -> Json:
        model = LITELLM_MODELS["gemini"]
        messages, optional_params = _litellm_steps(gemini_config, body, model, drop_params=False)
        optional_params.pop("stream", None)  # the handler pops it: it picks the endpoint
        request: Json = transform_request_body(
            messages=messages,
            model=model,
            optional_params=optional_params,
            custom_llm_provider="gemini",
            litellm_params={},
            cached_content=None,
        )
        return request

    return version, {"anthropic": to_anthropic, "gemini": to_gemini}


def _params(body: Json) -> Json:
    """The OpenAI parameters other than the model and the messages, as LiteLLM takes them."""
    return {key: value for key, value in body.items() if key not in ("model", "messages")}


# --- what the outputs carry ------------------------------------------------------------------


def walk(node: Any) -> Iterator[Json]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def carried(body: Json) -> Counter[str]:
    """Tool calls, tool results and images in an OpenAI request body."""
    counts: Counter[str] = Counter()
    for message in body["messages"]:
        counts["tool calls"] += len(message.get("tool_calls") or ())
        counts["tool results"] += message["role"] == "tool"
        content = message.get("content")
        if isinstance(content, list):
            counts["images"] += sum(part["type"] == "image_url" for part in content)
    return counts


def carried_out(target: str, output: Json) -> Counter[str]:
    """The same three counts in a converted body (camelCase or snake_case Gemini keys)."""
    counts: Counter[str] = Counter()
    for node in walk(output.get("messages" if target == "anthropic" else "contents")):
        if target == "anthropic":
            kind = node.get("type")
            counts["tool calls"] += kind == "tool_use"
            counts["tool results"] += kind == "tool_result"
            counts["images"] += kind == "image"
        else:
            counts["tool calls"] += "functionCall" in node or "function_call" in node
            counts["tool results"] += "functionResponse" in node or "function_response" in node
            counts["images"] += "inlineData" in node or "inline_data" in node
    return counts


# --- timing --------------------------------------------------------------------------------


# What a timed row is given:
# - PARSED: the slice's bodies, all parsed before its timing starts. A long body's objects
#   have left the processor's cache by the time it is converted (a slice of 50 long bodies is
#   megabytes), so the row also times reading them back from memory: what a caller converting
#   a list of bodies loaded earlier pays.
# - LINES: the JSON lines, for the bytes → bytes rows, which parse them in their own time.
# - JUST_PARSED: each line parsed, untimed, right before its conversion: the body still in
#   the cache, as a service or a JSONL pipeline has it when it converts what it just read.
PARSED, LINES, JUST_PARSED = "parsed", "lines", "just parsed"
JUST = ", just parsed"  # the name of a dict → dict row's JUST_PARSED twin
Row = tuple[str, Callable[[Any], object], str]  # name, function, what it is given


def seconds(fn: Callable[[Any], object], inputs: list[Any] | list[bytes]) -> float:
    start = time.perf_counter()
    for item in inputs:
        fn(item)
    return time.perf_counter() - start


def seconds_just_parsed(fn: Callable[[Any], object], lines: list[bytes]) -> float:
    """The time ``fn`` takes over bodies each parsed (untimed) right before it runs."""
    clock = time.perf_counter
    loads = orjson.loads
    spent = 0.0
    for line in lines:
        body = loads(line)
        start = clock()
        fn(body)
        spent += clock() - start
    return spent


Corpus = tuple[str, list[Json], list[bytes]]  # what it is, its bodies, their JSON lines


def check_converters(
    dict_converters: list[tuple[str, str, Callable[[Json], tuple[Json, tuple[Any, ...]]]]],
    corpora: list[Corpus],
    wire: dict[str, Any],
    check_slice: int,
) -> tuple[dict[str, str], dict[tuple[str, str], Counter[str]], list[str], set[str]]:
    """Every converter on every body of every corpus, untimed: the wire-schema note of each,
    its losses by code per corpus, what failed, and the converters left out of the timing
    (one that raises, or loses a tool call, a tool result or an image)."""
    notes: dict[str, str] = {}
    losses: dict[tuple[str, str], Counter[str]] = {}
    failed: list[str] = []
    left_out: set[str] = set()
    for name, target, to_wire in dict_converters:
        for label, bodies, lines in corpora:
            missing: Counter[str] = Counter()
            valid = 0
            checked = min(check_slice, len(lines))
            counts = losses.setdefault((label, name), Counter())
            for index, line in enumerate(lines):
                try:
                    output, lost = to_wire(orjson.loads(line))
                except Exception as error:
                    failed.append(
                        f"{name} failed on {label} body {index}: {type(error).__name__}: {error}"
                    )
                    break
                counts.update(_loss_code(loss) for loss in lost)
                missing += carried(bodies[index]) - carried_out(target, output)
                valid += index < checked and wire[target].is_valid(output)
            else:
                if not missing:
                    notes.setdefault(name, f"{valid}/{checked} valid")
                    continue
                drops = ", ".join(f"{count} {what}" for what, count in missing.items())
                failed.append(f"{name} drops {drops} ({label} corpus)")
            left_out.add(name)
    return notes, losses, failed, left_out


def slice_size(bodies: int, chunk: int) -> int:
    """Bodies timed at a time: ``chunk``, or a quarter of a smaller corpus (200 long
    conversations in one slice swung their rows by a quarter from one run to the next)."""
    return max(1, min(chunk, bodies // 4))


def time_rows(
    rows: list[Row],
    corpora: list[Corpus],
    chunk: int,
    repeat: int,
) -> dict[tuple[str, str], float]:
    """Bodies a second of every row on every corpus: round robin over slices of the corpora
    (the two interleaved), every row on every slice, each slice's median over the passes (a
    burst of machine load spoils one slice of one pass, not a row). Dict converters get freshly
    parsed bodies each time (untimed): LiteLLM edits its input. What is alive now (LiteLLM's
    modules, the corpora) is frozen out of the collector, and each timing starts collected."""
    gc.collect()
    gc.freeze()
    per_corpus = [
        [(label, slice(start, start + size)) for start in range(0, len(lines), size)]
        for label, _bodies, lines in corpora
        for size in [slice_size(len(lines), chunk)]
    ]
    slices = [s for group in itertools.zip_longest(*per_corpus) for s in group if s is not None]
    lines_of = {label: lines for label, _bodies, lines in corpora}
    times: dict[tuple[str, str, int], list[float]] = {}
    for _ in range(repeat):
        for index, (label, part) in enumerate(slices):
            for name, fn, given in rows:
                inputs: list[Any] = lines_of[label][part]
                if given == PARSED:
                    inputs = [orjson.loads(line) for line in inputs]
                gc.collect()
                timer = seconds_just_parsed if given == JUST_PARSED else seconds
                times.setdefault((label, name, index), []).append(timer(fn, inputs))
    spent: dict[tuple[str, str], float] = {}
    for (label, name, _index), passes in times.items():
        spent[label, name] = spent.get((label, name), 0.0) + statistics.median(passes)
    return {key: len(lines_of[key[0]]) / total for key, total in spent.items()}


def report(
    label: str,
    corpus_line: str,
    best: dict[str, float],
    notes: dict[str, str],
    litellm: tuple[str, dict[str, Callable[[Json], Json]]] | str,
) -> None:
    """One corpus's table and ratios."""
    floor = best[FLOOR]
    print(corpus_line + "\n")
    print("| converter | bodies/s | µs/body | share of the floor | wire schema |")
    print("|---|---:|---:|---:|---|")
    for name, rate in best.items():
        print(
            f"| {name} | {rate:,.0f} | {1e6 / rate:,.1f} | {rate / floor:.1%} "
            f"| {notes.get(name, '') if label == 'short' else ''} |"
        )
    print()
    where = "" if label == "short" else f" ({label} conversations)"
    for target in TARGETS:
        theirs = "" if isinstance(litellm, str) else f"LiteLLM {litellm[0]} {target}, dict → dict"
        mine = f"interlingua {target}, dict → dict"
        if theirs in best and mine in best:
            print(
                f"{target}: interlingua vs LiteLLM, dict → dict{where}: "
                f"{best[mine] / best[theirs]:.2f}x (target >= {VS_LITELLM[target]:.0f}x)"
            )
            if theirs + JUST in best and mine + JUST in best:
                print(
                    f"{target}: the same, each body converted just parsed{where}: "
                    f"{best[mine + JUST] / best[theirs + JUST]:.2f}x"
                )
        elif theirs in best:
            needed = best[theirs] * VS_LITELLM[target]
            print(
                f"{target}: interlingua dict → dict{where} needs >= {needed:,.0f} bodies/s "
                f"({VS_LITELLM[target]:.0f}x LiteLLM)"
            )
        mine = f"interlingua {target}, bytes → bytes"
        if mine in best:
            print(
                f"{target}: interlingua bytes → bytes vs the orjson floor{where}: "
                f"{best[mine] / floor:.1%} (target >= {VS_FLOOR:.0%})"
            )
        else:
            print(
                f"{target}: interlingua bytes → bytes{where} needs >= {floor * VS_FLOOR:,.0f} "
                f"bodies/s ({VS_FLOOR:.0%} of the floor)"
            )
    print()


def main() -> None:  # noqa: C901 - the report, section by section, in the order it prints
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="request bodies in the corpus")
    parser.add_argument(
        "--long", type=int, default=200, help="long conversations (>= 30 messages) beside them"
    )
    parser.add_argument("--repeat", type=int, default=5, help="median of this many passes")
    parser.add_argument("--chunk", type=int, default=250, help="bodies timed at a time")
    parser.add_argument("--seed", type=int, default=0, help="seed of the corpora")
    parser.add_argument(
        "--check-slice", type=int, default=200, help="outputs checked against the wire schemas"
    )
    parser.add_argument(
        "--reverse-only",
        action="store_true",
        help="only the anthropic → openai-chat section (benchmarks/reverse_anthropic.py)",
    )
    parser.add_argument(
        "--responses-reverse-only",
        action="store_true",
        help="only the openai-responses → openai-chat section (benchmarks/reverse_responses.py)",
    )
    parser.add_argument(
        "--bedrock-reverse-only",
        action="store_true",
        help="only the bedrock → openai-chat section (benchmarks/reverse_bedrock.py)",
    )
    parser.add_argument(
        "--gemini-reverse-only",
        action="store_true",
        help="only the gemini → openai-chat section (benchmarks/reverse_gemini.py)",
    )
    args = parser.parse_args()

    corpora: list[Corpus] = []
    for label, bodies in (
        ("short", corpus(args.size, args.seed)),
        ("long", long_corpus(args.long, args.seed)),
    ):
        if bodies:
            corpora.append((label, bodies, [orjson.dumps(body) for body in bodies]))
    wire = {
        target: jsonschema_rs.validator_for(
            json.loads((FORMATS_DIR / target / "request.json").read_text(encoding="utf-8"))
        )
        for target in TARGETS
    }

    convert = load_interlingua()
    # The reverse sections live in modules of their own, which import this one.
    import reverse_anthropic  # noqa: PLC0415
    import reverse_bedrock  # noqa: PLC0415
    import reverse_gemini  # noqa: PLC0415
    import reverse_responses  # noqa: PLC0415

    reverses = (reverse_anthropic, reverse_responses, reverse_bedrock, reverse_gemini)
    only = [args.reverse_only, args.responses_reverse_only]
    only += [args.bedrock_reverse_only, args.gemini_reverse_only]
    for asked, section in zip(only, reverses, strict=True):
        if asked:
            sys.exit(1 if section.section(convert, corpora, args) else 0)
    litellm = load_litellm()
    for problem in (convert, litellm):
        if isinstance(problem, str):
            print(problem, file=sys.stderr)
    # Converters from a parsed body to the target's wire body and interlingua's losses.
    dict_converters: list[tuple[str, str, Callable[[Json], tuple[Json, tuple[Any, ...]]]]] = []
    # Every timed row: name, function, what it is given (PARSED, LINES or JUST_PARSED).
    rows: list[Row] = []
    if not isinstance(convert, str):
        for target in TARGETS:
            name = f"interlingua {target}, dict → dict"
            dict_converters.append((name, target, _interlingua(convert, target)))
            to_target = _dict_to_dict(convert, target)
            rows.append((name, to_target, PARSED))
            rows.append((name + JUST, to_target, JUST_PARSED))
            rows.append(
                (f"interlingua {target}, bytes → bytes", _bytes_to_bytes(convert, target), LINES)
            )
            # What the service and the command line do: the body read by interlingua's
            # rules (a repeated key refused, not resolved by the parser) before converting,
            # and `convert` told so (the data is not checked again).
            rows.append(
                (
                    f"interlingua {target}, bytes → bytes, read_json",
                    _bytes_to_bytes(convert, target, read_json(), data_checked=True),
                    LINES,
                )
            )
            # The same conversion without the fused pair converter (issue 16): what the
            # one-pass code gains over reading into the canonical form and writing from it.
            if takes_fused(convert):
                two_step = functools.partial(convert, fused=False)
                rows.append(
                    (
                        f"interlingua {target}, two-step dict → dict",
                        _dict_to_dict(two_step, target),
                        PARSED,
                    )
                )
    if not isinstance(litellm, str):
        version, translators = litellm
        for target in TARGETS:
            name = f"LiteLLM {version} {target}, dict → dict"
            dict_converters.append((name, target, _no_losses(translators[target])))
            rows.append((name, translators[target], PARSED))
            rows.append((name + JUST, translators[target], JUST_PARSED))
    bedrock = bedrock_rows(convert, corpora, args.check_slice)  # its own row, checked apart
    rows += bedrock.rows
    responses = responses_rows(convert, corpora, args.check_slice)
    rows += responses.rows
    rows.append((FLOOR, _floor, LINES))

    # Before any timing: every converter takes every body and keeps every tool call, tool
    # result and image (a fast converter that drops content measures nothing). The report
    # says how many of a slice of outputs the target's wire schema accepts, and counts
    # interlingua's losses by code.
    notes, losses, failed, left_out = check_converters(
        dict_converters, corpora, wire, args.check_slice
    )
    for name in left_out:  # neither it nor its bytes → bytes twin is timed
        group = name.removesuffix("dict → dict")
        rows = [row for row in rows if not row[0].startswith(group)]
    rates = time_rows(rows, corpora, args.chunk, args.repeat)

    print(
        f"# Conversion throughput, {platform.python_implementation()} {platform.python_version()}"
    )
    for label, bodies, lines in corpora:
        size_kb = sum(map(len, lines)) / len(lines) / 1024
        what = (
            "OpenAI Chat request bodies"
            if label == "short"
            else "long OpenAI Chat conversations (images, parallel tool calls), "
            f"{min(len(b['messages']) for b in bodies)}+ messages"
        )
        line = (
            f"{len(bodies)} {what} (seed {args.seed}), mean {size_kb:.1f} KiB of JSON; "
            f"median of {args.repeat} passes over each slice of "
            f"{slice_size(len(bodies), args.chunk)}, interleaved"
        )
        best = {name: rates[label, name] for name, _fn, _b in rows}
        report(label, line, best, notes, litellm)
        if not isinstance(convert, str) and takes_fused(convert) and not failed:
            print(fused_share(convert, label, bodies))
    print(bedrock.report(rates))
    failed += bedrock.failed
    print(responses.report(rates))
    failed += responses.failed
    for section in reverses:
        failed += section.section(convert, corpora, args)
    if not isinstance(convert, str) and takes_fused(convert):
        print(recorded_share(convert))
    print(
        "wire schema: outputs accepted by schemas/formats/<target>/request.json. Gemini's is "
        "camelCase only;\nLiteLLM writes the snake_case proto names (system_instruction, "
        "function_response), which the API also takes.\n"
    )
    if isinstance(litellm, str):
        print(litellm)
    for (label, name), counts in losses.items():
        if counts and name not in left_out:
            top = ", ".join(f"{code} {n}" for code, n in counts.most_common(6))
            over = "the corpus" if label == "short" else f"the {label} corpus"
            print(f"{name}: {sum(counts.values())} losses over {over} ({top})")
    for problem in failed:
        print(problem)
    if isinstance(convert, str):
        print(f"interlingua rows skipped: {convert}")
    if failed or isinstance(convert, str):
        sys.exit(1)


def takes_fused(convert: Convert) -> bool:
    """Whether ``convert`` has the fused pair converters (and the option to go without)."""
    try:
        return "fused" in inspect.signature(convert).parameters
    except (TypeError, ValueError):
        return False


def fused_share(convert: Convert, label: str, bodies: list[Json]) -> str:
    """How many bodies of a corpus the fused pair converters took (the rest: the two-step
    path, for a shape outside theirs)."""
    shares = []
    for target in TARGETS:
        taken = sum(
            bool(getattr(convert(b, source=SOURCE, target=target), "fused", False)) for b in bodies
        )
        shares.append(f"{target} {taken}/{len(bodies)}")
    return f"fused pair converters took ({label}): " + ", ".join(shares) + "\n"


def recorded_share(convert: Convert) -> str:
    """How many of the recorded request bodies (the real-traffic corpus, conformance/real) of
    each fused pair's source format the pair took; the rest took the two-step path, for a
    shape outside the pass (or were refused for the target). The corpus was recorded by
    others' test suites, so it leans to the unusual: documents, provider tools, reasoning."""
    from conformance.real import load_real_cases  # noqa: PLC0415 (the checkout's, not a wheel's)
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.generated.pairs import PAIRS  # noqa: PLC0415

    bodies: dict[str, dict[str, Json]] = {}
    for case in load_real_cases():
        given = case.input
        if case.function == "convert_many" and given["kind"] == "request":
            key = json.dumps(given["payload"], sort_keys=True)
            bodies.setdefault(given["source"], {})[key] = given["payload"]

    def taken(body: Json, source: str, target: str) -> bool:
        try:
            result = convert(body, source=source, target=target)
        except ConversionError:
            return False  # refused for the target
        return bool(getattr(result, "fused", False))

    shares = []
    for source, target in PAIRS:
        mine = list(bodies.get(source, {}).values())
        count = sum(taken(body, source, target) for body in mine)
        shares.append(f"{source} → {target} {count}/{len(mine)}")
    return "fused pair converters took (recorded traffic): " + ", ".join(shares) + "\n"


def _interlingua(convert: Convert, target: str) -> Callable[[Json], tuple[Json, tuple[Any, ...]]]:
    def run(body: Json) -> tuple[Json, tuple[Any, ...]]:
        result = convert(body, source=SOURCE, target=target)
        return result.output, tuple(result.losses)

    return run


def _no_losses(translate: Callable[[Json], Json]) -> Callable[[Json], tuple[Json, tuple[Any, ...]]]:
    def run(body: Json) -> tuple[Json, tuple[Any, ...]]:
        return translate(body), ()

    return run


def _dict_to_dict(convert: Convert, target: str) -> Callable[[Json], ConvertResult]:
    def run(body: Json) -> ConvertResult:
        return convert(body, source=SOURCE, target=target)

    return run


def _bytes_to_bytes(
    convert: Convert,
    target: str,
    loads: Callable[[bytes], Any] = orjson.loads,
    *,
    data_checked: bool = False,
) -> Callable[[bytes], bytes]:
    dumps = orjson.dumps
    if data_checked:  # `loads` is read_json: what the service passes

        def checked(line: bytes) -> bytes:
            return dumps(
                convert(loads(line), source=SOURCE, target=target, _data_checked=True).output
            )

        return checked

    def run(line: bytes) -> bytes:
        return dumps(convert(loads(line), source=SOURCE, target=target).output)

    return run


def read_json() -> Callable[[bytes], Any]:
    """interlingua's reader of untrusted JSON (`interlingua.read_json`)."""
    return cast(Callable[[bytes], Any], importlib.import_module("interlingua").read_json)


def _floor(line: bytes) -> bytes:
    return orjson.dumps(orjson.loads(line))


def _loss_code(loss: Any) -> str:
    code = getattr(loss, "code", None)
    if code is None and isinstance(loss, dict):
        code = loss.get("code")
    return str(code)


# --- Bedrock Converse: its own row beside the two above --------------------------------------

BEDROCK = "bedrock"
# The Bedrock model id LiteLLM is told it translates for (Claude: the most common Converse use).
LITELLM_BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"


@dataclass
class TargetRows:
    """The rows of one more target (interlingua fused and two-step, LiteLLM's translation),
    what their check before the timing found, and the report of their ratios."""

    target: str
    rows: list[Row]
    names: dict[str, str]  # role (fused, two-step, litellm) -> row name
    notes: list[str]
    failed: list[str]

    def report(self, rates: dict[tuple[str, str], float]) -> str:
        lines = [f"## openai-chat → {self.target}, dict → dict\n"]
        labels = sorted({label for label, _name in rates}, key=("short", "long").index)
        for label in labels:
            got = {role: rates.get((label, name)) for role, name in self.names.items()}
            cells = ", ".join(f"{role} {1e6 / r:,.1f} µs/body" for role, r in got.items() if r)
            lines.append(f"{label}: {cells}")
            ratios = [
                f"{a} vs {b} {got[a] / got[b]:.2f}x"  # type: ignore[operator]
                for a, b in (("fused", "two-step"), ("fused", "litellm"), ("two-step", "litellm"))
                if got.get(a) and got.get(b)
            ]
            if ratios:
                lines.append(f"{label}: " + ", ".join(ratios))
        return "\n".join([*lines, *self.notes, ""])


def load_litellm_bedrock() -> tuple[str, Callable[[Json], Json]] | str:
    """LiteLLM's translation of an OpenAI body into a Converse request, the steps
    ``litellm.completion`` takes for a `bedrock/converse` model before signing the HTTP call:
    ``translate_developer_role_to_system_role``, ``AmazonConverseConfig.map_openai_params``
    (with ``drop_params``: it refuses ``tool_choice: none`` otherwise), then
    ``AmazonConverseConfig._transform_request``, which the Converse handler calls."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        module = importlib.import_module("litellm.llms.bedrock.chat.converse_transformation")
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its Bedrock row is skipped"
    config = module.AmazonConverseConfig()

    def to_bedrock(body: Json) -> Json:
        messages, optional_params = _litellm_steps(
            config, body, LITELLM_BEDROCK_MODEL, drop_params=True
        )
        optional_params.pop("stream", None)  # the handler pops it: it picks the endpoint
        request: Json = config._transform_request(
            model=LITELLM_BEDROCK_MODEL,
            messages=messages,
            optional_params=optional_params,
            litellm_params={},
            headers={},
        )
        return request

    return version, to_bedrock


def carried_out_bedrock(output: Json) -> Counter[str]:
    """Tool calls, tool results and images in a Converse request body."""
    counts: Counter[str] = Counter()
    for node in walk(output.get("messages")):
        counts["tool calls"] += "toolUse" in node
        counts["tool results"] += "toolResult" in node
        counts["images"] += "image" in node
    return counts


def bedrock_rows(convert: Convert | str, corpora: list[Corpus], check_slice: int) -> TargetRows:
    """The Bedrock rows, against LiteLLM's Converse translation."""
    litellm = load_litellm_bedrock()
    return target_rows(
        convert, corpora, check_slice, target=BEDROCK, litellm=litellm, litellm_way="Converse"
    )


def target_rows(
    convert: Convert | str,
    corpora: list[Corpus],
    check_slice: int,
    *,
    target: str,
    litellm: tuple[str, Callable[[Json], Json]] | str,
    litellm_way: str,
) -> TargetRows:
    """The rows of ``target``, each checked on every body first (it must not raise nor lose a
    tool call, a result or an image; a slice of its outputs goes to the target's wire schema):
    a row that fails is left out of the timing and reported."""
    candidates: list[tuple[str, str, Callable[[Json], Any]]] = []
    if not isinstance(convert, str) and takes_fused(convert):  # the fused pass and without it
        fused = functools.partial(convert, source=SOURCE, target=target)
        candidates.append(("fused", f"interlingua {target}, dict → dict", fused))
        two_step = functools.partial(fused, fused=False)
        candidates.append(("two-step", f"interlingua {target}, two-step dict → dict", two_step))
    if not isinstance(litellm, str):
        name = f"LiteLLM {litellm[0]} {target} ({litellm_way}), dict → dict"
        candidates.append(("litellm", name, litellm[1]))
    schema = json.loads((FORMATS_DIR / target / "request.json").read_text(encoding="utf-8"))
    wire = jsonschema_rs.validator_for(schema)
    kind = WIRE_NAMES[target]
    found = TargetRows(target, [], {}, [] if not isinstance(litellm, str) else [litellm], [])
    return check_rows(
        found,
        candidates,
        corpora,
        check_slice,
        wire=wire,
        kind=kind,
        carried_in=carried,
        carried_out=CARRIED_OUT[target],
    )


def check_rows(
    found: TargetRows,
    candidates: list[tuple[str, str, Callable[[Json], Any]]],
    corpora: list[Corpus],
    check_slice: int,
    *,
    wire: Any,
    kind: str,
    carried_in: Callable[[Json], Counter[str]],
    carried_out: Callable[[Json], Counter[str]],
) -> TargetRows:
    """``found`` with each candidate (role, name, converter) checked on every body first: it
    must not raise nor lose a tool call, a result or an image (``carried_in`` counts them in
    a body, ``carried_out`` in its output); a slice of its outputs goes to the target's wire
    schema. A candidate that passes becomes a row; one that fails is left out and reported."""
    for role, name, run in candidates:
        problem, valid, checked, fused_taken = None, 0, 0, 0
        for label, bodies, lines in corpora:
            for index, line in enumerate(lines):
                try:
                    result = run(orjson.loads(line))
                except Exception as error:
                    problem = f"{name} failed on {label} body {index}: {type(error).__name__}"
                    break
                output = getattr(result, "output", result)
                fused_taken += bool(getattr(result, "fused", False))
                if carried_in(bodies[index]) - carried_out(output):
                    problem = f"{name} drops a tool call, result or image ({label} body {index})"
                    break
                if index < check_slice:
                    checked += 1
                    valid += wire.is_valid(output)
            if problem:
                break
        if problem:
            found.failed.append(problem)
            continue
        found.rows.append((name, run, PARSED))
        found.names[role] = name
        taken = f", fused pass took {fused_taken}" if role == "fused" else ""
        found.notes.append(f"{name}: {valid}/{checked} outputs valid {kind} requests{taken}")
    return found


# --- OpenAI Responses: its own rows, as Bedrock's ------------------------------------------

RESPONSES = "openai-responses"
# The model LiteLLM is told it translates for: one served by the Responses API only, for which
# `litellm.completion` takes its chat-to-Responses bridge.
LITELLM_RESPONSES_MODEL = "o3-pro"


def load_litellm_responses() -> tuple[str, Callable[[Json], Json]] | str:
    """LiteLLM's translation of an OpenAI Chat body into a Responses request, the steps
    ``litellm.completion`` takes for a Responses-only model before the HTTP call:
    ``translate_developer_role_to_system_role`` and ``map_openai_params`` of the OpenAI chat
    config, ``LiteLLMResponsesTransformationHandler.transform_request`` (the bridge), then
    ``OpenAIResponsesAPIConfig.transform_responses_api_request`` on what the bridge gives
    ``litellm.responses`` (its logging object and client left out)."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        bridge = importlib.import_module(
            "litellm.completion_extras.litellm_responses_transformation.transformation"
        )
        responses = importlib.import_module("litellm.llms.openai.responses.transformation")
        chat = importlib.import_module("litellm.llms.openai.chat.gpt_transformation")
        router = importlib.import_module("litellm.types.router")
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its Responses row is skipped"
    handler = bridge.LiteLLMResponsesTransformationHandler()
    config = responses.OpenAIResponsesAPIConfig()
    chat_config = chat.OpenAIGPTConfig()
    model = LITELLM_RESPONSES_MODEL

    class _Logging:  # the bridge records the call type on it
        call_type = ""

    def to_responses(body: Json) -> Json:
        messages, optional_params = _litellm_steps(chat_config, body, model, drop_params=False)
        data = handler.transform_request(
            model=model,
            messages=messages,
            optional_params=optional_params,
            litellm_params={},
            headers={},
            litellm_logging_obj=_Logging(),
        )
        for key in ("litellm_logging_obj", "client", "model"):
            data.pop(key, None)
        items = data.pop("input")
        request: Json = config.transform_responses_api_request(
            model=model,
            input=items,
            response_api_optional_request_params=data,
            litellm_params=router.GenericLiteLLMParams(),
            headers={},
        )
        return request

    return version, to_responses


def carried_out_responses(output: Json) -> Counter[str]:
    """Tool calls, tool results and images in a Responses request body (items and blocks)."""
    counts: Counter[str] = Counter()
    for node in walk(output.get("input")):
        kind = node.get("type")
        counts["tool calls"] += kind == "function_call"
        counts["tool results"] += kind == "function_call_output"
        counts["images"] += kind == "input_image"
    return counts


def responses_rows(convert: Convert | str, corpora: list[Corpus], check_slice: int) -> TargetRows:
    """The OpenAI Responses rows, against LiteLLM's chat-to-Responses bridge."""
    litellm = load_litellm_responses()
    return target_rows(
        convert, corpora, check_slice, target=RESPONSES, litellm=litellm, litellm_way="chat bridge"
    )


# How each of these targets' requests are named, and what they carry of a body's content.
WIRE_NAMES: dict[str, str] = {BEDROCK: "Converse", RESPONSES: "Responses"}
CARRIED_OUT: dict[str, Callable[[Json], Counter[str]]] = {
    BEDROCK: carried_out_bedrock,
    RESPONSES: carried_out_responses,
}


if __name__ == "__main__":
    main()
