"""What a whole batch did: lines, converted, failed, losses by code and by format pair."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from interlingua.datasets.lines import Line


class Summary:
    """Counts over every line of a run, whichever process converted it."""

    def __init__(self) -> None:
        self.lines = self.converted = self.failed = 0
        self.losses: Counter[str] = Counter()
        #: Per (source, target) format pair: bodies converted, and their losses by code.
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.pair_losses: dict[tuple[str, str], Counter[str]] = {}

    def add(self, line: Line) -> None:
        if line.status is None:  # a blank line
            return
        self.lines += 1
        if line.status != "converted":
            self.failed += 1
            return
        self.converted += 1
        if line.pair is not None:
            self.pairs[line.pair] += 1
        if not line.losses:  # most lines: nothing more to count (Counter.update is not cheap)
            return
        self.losses.update(line.losses)
        if line.pair is not None:
            self.pair_losses.setdefault(line.pair, Counter()).update(line.losses)

    def merge(self, other: Summary) -> None:
        """Count what ``other`` counted too (a worker's summary of its chunk)."""
        self.lines += other.lines
        self.converted += other.converted
        self.failed += other.failed
        self.losses.update(other.losses)
        self.pairs.update(other.pairs)
        for pair, losses in other.pair_losses.items():
            self.pair_losses.setdefault(pair, Counter()).update(losses)

    def _losses_of(self, pair: tuple[str, str]) -> Counter[str]:
        return self.pair_losses.get(pair, Counter())

    def as_json(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "converted": self.converted,
            "failed": self.failed,
            "losses": dict(sorted(self.losses.items())),
            "pairs": [
                {
                    "source": source,
                    "target": target,
                    "converted": converted,
                    "losses": dict(sorted(self._losses_of((source, target)).items())),
                }
                for (source, target), converted in sorted(self.pairs.items())
            ],
        }

    def text(self) -> str:
        """One line; the losses of each format pair are named when there are several."""
        losses = ", ".join(f"{code} {n}" for code, n in sorted(self.losses.items()))
        text = (
            f"summary: {self.lines} lines, {self.converted} converted, {self.failed} failed"
            f"; losses: {losses or 'none'}"
        )
        if len(self.pairs) > 1:
            each = ", ".join(
                f"{source} → {target} {self._losses_of((source, target)).total()}"
                for source, target in sorted(self.pairs)
            )
            text += f"; losses by pair: {each}"
        return text

    def line(self, as_json: bool) -> str:
        return json.dumps({"summary": self.as_json()}) if as_json else self.text()
