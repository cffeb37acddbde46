"""Canonical model ids, ``<provider>:<model>`` (seed 001 §6.3), and their aliases.

The provider key of each format is declared once, in its mapping file (`provider:`), and
reaches code through the generator (:data:`interlingua.generated.providers.PROVIDER_KEYS`).
Aliases (`sonnet`, a dated snapshot name) are listed with the prices in the price table.
Model ids are filled in by the store when it imports a document, and on request here: reading
a body with `convert` leaves its canonical document as it was, so conversions and their
round trips do not change.
"""

from __future__ import annotations

import re
from typing import Any

from interlingua.generated.providers import PROVIDER_KEYS

# The `ModelId` pattern of schemas/v1/extensions.json.
_CANONICAL = re.compile(r"^[a-z0-9][a-z0-9_.-]*:[^\s]+$")


def provider_of(fmt: str) -> str | None:
    """The provider key of a format (`anthropic` → `anthropic`, `gemini` → `google`), or None
    for a format that is no single provider's API (UMF, ChatML, MCP, canonical …)."""
    return PROVIDER_KEYS.get(fmt)


def model_id(model: str, provider: str | None) -> str | None:
    """The canonical id of ``model`` as ``provider`` names it, or None when no provider is
    known and the name is not canonical already.

    >>> model_id("claude-sonnet-4-6", "anthropic")
    'anthropic:claude-sonnet-4-6'
    >>> model_id("llama3.3:70b", "ollama")   # Ollama's tags hold a colon of their own
    'ollama:llama3.3:70b'
    >>> model_id("openai:gpt-5", None)
    'openai:gpt-5'
    """
    if provider:
        prefix = provider + ":"
        return model if model.startswith(prefix) else prefix + model
    return model if _CANONICAL.match(model) else None


def message_model(message: Any, fmt: str | None, envelope_model: Any = None) -> str | None:
    """The canonical id of the model that wrote ``message`` (a canonical message), from what
    its document says: `extensions.completion.model` (canonical already), else
    `extensions.llm` (model and provider), else the model a response body names, under the
    provider of its format ``fmt``."""
    extensions = message.get("extensions") if type(message) is dict else None
    extensions = extensions if type(extensions) is dict else {}
    completion = extensions.get("completion")
    if type(completion) is dict and isinstance(completion.get("model"), str):
        return str(completion["model"])
    llm = extensions.get("llm")
    if type(llm) is dict and isinstance(llm.get("model_id"), str):
        provider = llm.get("provider")
        return model_id(llm["model_id"], provider if isinstance(provider, str) else None)
    if isinstance(envelope_model, str) and envelope_model != "unknown" and fmt is not None:
        return model_id(envelope_model, provider_of(fmt))
    return None


def with_model_ids(document: Any, fmt: str) -> Any:
    """A copy of a canonical Response read from ``fmt`` whose message names its model by
    canonical id (`extensions.completion.model`), the explicit step that fills model ids on
    read. ``convert`` itself leaves documents as they were read, so its outputs and round
    trips do not depend on it. Documents that name no model come back unchanged.

    >>> response = {"schema_version": 1, "model": "gpt-5", "stop_reason": "end",
    ...             "message": {"role": "assistant", "content": []}}
    >>> with_model_ids(response, "openai-chat")["message"]["extensions"]
    {'completion': {'model': 'openai:gpt-5'}}
    """
    if type(document) is not dict or type(document.get("message")) is not dict:
        return document
    message = document["message"]
    if message_model(message, None) is not None:  # it names its model already
        return document
    model = message_model(message, fmt, document.get("model"))
    if model is None:
        return document
    extensions = dict(message.get("extensions") or {})
    extensions["completion"] = {**(extensions.get("completion") or {}), "model": model}
    return {**document, "message": {**message, "extensions": extensions}}
