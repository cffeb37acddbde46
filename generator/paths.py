"""Where things live, relative to the repository root."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
EXAMPLES = SCHEMAS / "examples"
SEEDS = SCHEMAS / "seeds"
META = SCHEMAS / "meta"
TEMPLATES = Path(__file__).resolve().parent / "templates"

# Every output path is relative to the repository root; `--check` renders them into a
# temporary root and compares. The generator owns these directories entirely.
OWNED_DIRS = ("generated", "docs/reference", "docs/schemas")
SEED_COVERAGE = "docs/spec/seed-coverage.md"
VERSIONS = ("v1",)
BASE_URI = "https://interlingua.dev/schemas/"
