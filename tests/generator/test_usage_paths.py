"""Usage table paths: dotted, or JSON pointers for keys that hold dots (OpenTelemetry)."""

from generator.adapters import _segments


def test_a_dotted_path_is_nested_keys() -> None:
    assert _segments("usage.prompt_tokens_details.cached_tokens") == (
        "usage",
        "prompt_tokens_details",
        "cached_tokens",
    )


def test_a_pointer_keeps_dots_inside_keys_and_unescapes() -> None:
    assert _segments("/gen_ai.usage.input_tokens") == ("gen_ai.usage.input_tokens",)
    assert _segments("/a~1b/c~0d") == ("a/b", "c~d")
