"""`interlingua store import|query|export` and `interlingua cost`, in process."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from interlingua.cli.commands import main

from .test_store import ANTHROPIC_RESPONSE, TRANSCRIPT


def _files(tmp_path: Path) -> tuple[Path, Path]:
    lines = tmp_path / "t.jsonl"
    lines.write_text("\n".join(json.dumps(m) for m in TRANSCRIPT) + "\n{broken\n")
    response = tmp_path / "r.json"
    response.write_text(json.dumps(ANTHROPIC_RESPONSE))
    return lines, response


def test_import_query_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, response = _files(tmp_path)
    db = str(tmp_path / "s.db")
    assert main(["store", "import", str(lines), str(response), "--db", db]) == 1  # a line refused
    out, err = capsys.readouterr()
    assert "4 messages, 3 tool calls" in out and "1 messages, 0 tool calls" in out
    assert "error: line 5: invalid_json at /:" in err
    assert main(["store", "import", str(response), "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skipped"] is True
    assert main(["store", "import", str(response), "--db", db]) == 0
    assert "skipped, imported before" in capsys.readouterr().out

    assert main(["store", "query", "unanswered", "--db", db, "--json"]) == 0
    calls = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(c["provider_id"] for c in calls) == ["call_2", "call_3"]
    session = calls[0]["session_id"]
    assert main(["store", "query", "unanswered", "--session", session, "--db", db]) == 0
    assert "read_file" not in capsys.readouterr().out
    assert main(["store", "query", "failed", "--db", db]) == 0
    assert capsys.readouterr().out == ""

    assert main(["store", "query", "cost", "--db", db]) == 0
    assert "$0.000654  (1 priced turns; prices" in capsys.readouterr().out
    assert main(["store", "query", "cost", "--db", db, "--json"]) == 0
    costs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [c["cost_usd"] for c in costs] == ["0.000654"]

    assert main(["store", "export", "--session", session, "--db", db]) == 0
    exported = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert exported == TRANSCRIPT
    priced = costs[0]["session"]
    assert main(["store", "export", "--session", priced, "--db", db]) == 0
    assert json.loads(capsys.readouterr().out) == ANTHROPIC_RESPONSE
    assert main(["store", "export", "--session", priced, "--to", "openai-chat", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["choices"][0]["message"]["content"].startswith("A ULID")
    assert main(["store", "export", "--session", "nope", "--db", db]) == 2
    assert "unknown_document" in capsys.readouterr().err


def test_import_of_an_unreadable_file_is_a_coded_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.db")
    assert main(["store", "import", str(tmp_path / "missing.json"), "--db", db, "--json"]) == 2
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "unreadable_input"
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["store", "import", str(bad), "--db", db]) == 2
    assert "invalid_json" in capsys.readouterr().err


def test_cost_of_a_usage_and_of_a_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = tmp_path / "u.json"
    usage.write_text(json.dumps({"input_tokens": 8, "output_tokens": 42}))
    assert main(["cost", str(usage), "--model", "sonnet"]) == 0
    out = capsys.readouterr().out
    assert "anthropic:claude-sonnet-4-6  $0.000654" in out and "total  $0.000654" in out
    response = tmp_path / "r.json"
    response.write_text(json.dumps(ANTHROPIC_RESPONSE))
    assert main(["cost", str(response), "--json"]) == 0
    [turn] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert turn["cost_usd"] == "0.000654" and turn["model"] == "anthropic:claude-sonnet-4-6"
    prices = tmp_path / "p.json"
    prices.write_text(
        json.dumps(
            {
                "pricing_version": "mine",
                "models": {
                    "anthropic:claude-sonnet-4-6": {
                        "input_per_mtok_usd": "1",
                        "output_per_mtok_usd": "1",
                        "source": {"document": "test", "as_of": "2026-11-25"},
                    }
                },
            }
        )
    )
    assert main(["cost", str(response), "--prices", str(prices)]) == 0
    assert "$0.00005" in capsys.readouterr().out
    assert main(["cost", str(usage)]) == 1  # a bare Usage names no model
    assert "unpriced_model" in capsys.readouterr().err


def test_cost_refuses_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cost", str(tmp_path / "missing.json")]) == 2
    assert "unreadable_input" in capsys.readouterr().err
    prices = tmp_path / "p.json"
    prices.write_text(json.dumps({"pricing_version": "x", "models": {"no-colon": {}}}))
    usage = tmp_path / "u.json"
    usage.write_text(json.dumps({"input_tokens": 1, "output_tokens": 1}))
    assert main(["cost", str(usage), "--prices", str(prices)]) == 2
    assert "error:" in capsys.readouterr().err
    other = tmp_path / "o.json"
    other.write_text(json.dumps({"what": "ever"}))
    assert main(["cost", str(other)]) == 2
    assert "unknown_format" in capsys.readouterr().err


def test_refusals_and_losses_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines, _ = _files(tmp_path)
    lossy = tmp_path / "lossy.json"
    lossy.write_text(
        json.dumps(
            {"model": "m", "temperature": "hot", "messages": [{"role": "user", "content": "x"}]}
        )
    )
    db = str(tmp_path / "s.db")
    assert main(["store", "import", str(lines), "--db", db, "--json"]) == 1
    [error] = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert error["error"]["line"] == 5 and error["error"]["code"] == "invalid_json"
    assert main(["store", "import", str(lossy), "--from", "openai-chat", "--db", db]) == 0
    err = capsys.readouterr().err
    assert "loss: field_dropped at /model:" in err and "loss: field_dropped at /temperature:" in err


def test_a_store_that_cannot_be_used_is_a_coded_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = str(tmp_path / "no" / "such" / "dir" / "s.db")
    assert main(["store", "query", "failed", "--db", missing]) == 2
    assert "error: store_unavailable at /: cannot use the database" in capsys.readouterr().err
    # Without the `store` extra (its modules cannot be imported): the same code, and how to
    # install it.
    monkeypatch.setitem(sys.modules, "sqlalchemy.exc", None)
    assert main(["store", "export", "--session", "s", "--db", missing, "--json"]) == 2
    error = json.loads(capsys.readouterr().err)["error"]
    assert error["code"] == "store_unavailable" and "interlingua[store]" in error["message"]


def test_export_to_a_text_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, response = _files(tmp_path)
    db = str(tmp_path / "s.db")
    main(["store", "import", str(response), "--db", db, "--json"])
    session = json.loads(capsys.readouterr().out)["session"]
    assert main(["store", "export", "--session", session, "--to", "chatml", "--db", db]) == 0
    assert "<|im_start|>assistant" in capsys.readouterr().out


def test_query_cost_with_another_price_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, response = _files(tmp_path)
    db = str(tmp_path / "s.db")
    main(["store", "import", str(response), "--db", db])
    prices = tmp_path / "p.json"
    entry = {
        "input_per_mtok_usd": "1",
        "output_per_mtok_usd": "1",
        "source": {"document": "t", "as_of": "2026-11-25"},
    }
    prices.write_text(
        json.dumps({"pricing_version": "later", "models": {"anthropic:claude-sonnet-4-6": entry}})
    )
    capsys.readouterr()
    assert main(["store", "query", "cost", "--prices", str(prices), "--db", db]) == 0
    assert "$0.00005  (1 priced turns; prices later)" in capsys.readouterr().out
    assert (
        main(["store", "query", "cost", "--prices", str(tmp_path / "none.json"), "--db", db]) == 2
    )
    assert "unreadable_input" in capsys.readouterr().err
    prices.write_text("{")
    assert main(["store", "query", "cost", "--prices", str(prices), "--db", db]) == 2
    assert "invalid_json" in capsys.readouterr().err


def test_cost_from_stdin_and_unreadable_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    stdin = io.TextIOWrapper(
        io.BytesIO(json.dumps({"input_tokens": 8, "output_tokens": 42}).encode())
    )
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["cost", "-", "--model", "sonnet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cost_usd"] == "0.000654"
    broken = tmp_path / "b.json"
    broken.write_text("{")
    assert main(["cost", str(broken)]) == 2
    assert "invalid_json" in capsys.readouterr().err
