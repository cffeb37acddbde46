"""The built documentation site, in a real browser.

One `mkdocs build --strict` per session into a temporary directory, served on 127.0.0.1 by
`http.server`, opened in headless Chromium (Debian's package, driven by Playwright; no browser
download). The pages must load without a JavaScript error or a request leaving localhost,
search must answer, every schema must be served at the path its `$id` names, and no internal
link or anchor may point nowhere. Screenshots land in `build/screenshots/`.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request, Route, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from generator.paths import ROOT

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCREENSHOTS = ROOT / "build" / "screenshots"
SITE_URI = "https://interlingua.dev/"


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once from the repository's docs/ exactly as `make run` builds it."""
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}{done.stderr}"
    return target


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output clean."""


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# Module-scoped: Playwright's sync API marks its event loop as running in this thread while it
# is open, so a later test of the same worker could start none (anyio.run, asyncio.run).
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"the browser test needs Chromium at {CHROMIUM}: install Debian's package with "
            "`apt-get update && apt-get install -y chromium` (.ci/run does this)",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


class _Visit:
    """A page that records JavaScript errors and refuses every request leaving localhost."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        host = urlsplit(base_url).netloc
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("requestfailed", lambda request: self.failed.append(request.url))

        def guard(route: Route, request: Request) -> None:
            if urlsplit(request.url).netloc == host:
                route.continue_()
            else:
                self.outside.append(request.url)
                route.abort()

        self.page.route("**/*", guard)

    def check(self) -> None:
        assert not self.errors, f"JavaScript errors: {self.errors}"
        assert not self.outside, f"requests leaving localhost: {self.outside}"
        assert not self.failed, f"failed requests: {self.failed}"

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser: Browser, base_url: str) -> Iterator[_Visit]:
    opened = _Visit(browser, base_url)
    try:
        yield opened
    finally:
        opened.close()


def _heading(page: Page) -> str:
    """The page's title heading, without the permalink sign."""
    return page.locator("article h1").first.inner_text().removesuffix("¶").strip()


def _screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)


def test_home_page(visit: _Visit, base_url: str) -> None:
    page = visit.page
    page.goto(base_url, wait_until="networkidle")
    assert "interlingua" in page.title()
    assert _heading(page) == "interlingua"
    diagram = page.locator("article img[src$='architecture.svg']")
    assert diagram.count() == 1
    assert diagram.evaluate("img => img.complete && img.naturalWidth > 0")
    nav = page.locator("nav.md-nav--primary").inner_text()
    for section in ("The canonical format", "Validation", "Conformance\n", "Reference"):
        assert section in nav
    _screenshot(page, "home")
    visit.check()


def test_type_reference_page(visit: _Visit, base_url: str) -> None:
    page = visit.page
    page.goto(urljoin(base_url, "reference/types/Message/"), wait_until="networkidle")
    assert _heading(page) == "Message"
    fields = page.locator("article table").first.inner_text()
    for expected in ("role", "content", "immutable", "Role"):
        assert expected in fields
    examples = page.locator("article h3", has_text="system_prompt")
    assert examples.count() == 1
    assert "You are a careful coding assistant" in page.locator("article").inner_text()
    page.locator("article a", has_text="Role").first.click()
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("/reference/types/Role/")
    _screenshot(page, "reference-role")
    page.goto(urljoin(base_url, "reference/types/Message/"), wait_until="networkidle")
    _screenshot(page, "reference-message")
    visit.check()


def test_wire_format_page(visit: _Visit, base_url: str) -> None:
    page = visit.page
    page.goto(urljoin(base_url, "reference/formats/anthropic/"), wait_until="networkidle")
    assert _heading(page) == "Wire format: anthropic"
    text = page.locator("article").inner_text()
    assert "Anthropic Messages: request body" in text
    assert "Anthropic Messages: response body" in text
    _screenshot(page, "format-anthropic")
    visit.check()


def test_search_finds_a_type(visit: _Visit, base_url: str) -> None:
    page = visit.page
    page.goto(base_url, wait_until="networkidle")
    search = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item")
    search.fill("ToolCallPart")
    # The index loads in a web worker; should the query have been typed before it was ready,
    # retype its last letter until results appear (at most ~15 s).
    for _ in range(15):
        try:
            results.first.wait_for(state="visible", timeout=1_000)
            break
        except PlaywrightTimeout:
            search.press("Backspace")
            search.type("t")
    assert results.count() > 0, "search returned no result for ToolCallPart"
    links = page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    assert any("reference/types/ToolCallPart/" in str(href) for href in links), links
    _screenshot(page, "search")
    visit.check()


def test_every_schema_is_served_at_its_id(site: Path, base_url: str) -> None:
    served = sorted((site / "schemas").rglob("*.json"))
    ids = set()
    for path in served:
        relative = path.relative_to(site).as_posix()
        with urllib.request.urlopen(urljoin(base_url, relative)) as response:
            schema = json.loads(response.read())
        assert schema["$id"] == SITE_URI + relative
        ids.add(schema["$id"])
    expected = {
        json.loads(p.read_text(encoding="utf-8"))["$id"]
        for p in [*ROOT.glob("schemas/v1/*.json"), *ROOT.glob("schemas/formats/*/*.json")]
    }
    expected.add(json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())["$id"])
    assert expected <= ids, sorted(expected - ids)


class _Links(HTMLParser):
    """Every link and resource reference of a page, and every id in it."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for attribute in ("href", "src"):
            value = values.get(attribute)
            if value and not (tag == "link" and values.get("rel") in ("canonical", "alternate")):
                self.targets.append(value)


def _fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url) as response:
            kind = response.headers.get_content_type()
            body = response.read().decode("utf-8", "replace") if kind == "text/html" else ""
            return response.status, kind, body
    except urllib.error.HTTPError as error:
        return error.code, "", ""


def test_no_internal_link_is_broken(base_url: str) -> None:
    """Crawl every page reachable from the home page; every local target and anchor exists."""
    pages: dict[str, _Links] = {}
    broken: list[str] = []
    queue = [base_url]
    statuses: dict[str, int] = {}
    anchors: list[tuple[str, str, str]] = []  # (from page, target page, fragment)
    while queue:
        url = queue.pop()
        if url in statuses:
            continue
        status, kind, body = _fetch(url)
        statuses[url] = status
        if status != 200 or kind != "text/html":
            continue
        parser = _Links()
        parser.feed(body)
        pages[url] = parser
        for raw in parser.targets:
            target, fragment = urldefrag(urljoin(url, raw))
            if not target.startswith(base_url):
                continue
            if fragment:
                anchors.append((url, target, fragment))
            if target not in statuses:
                queue.append(target)
    for url, status in statuses.items():
        if status != 200:
            broken.append(f"{url}: HTTP {status}")
    for source, target, fragment in anchors:
        if target in pages and fragment not in pages[target].ids:
            broken.append(f"{source} links to {target}#{fragment}, which has no such anchor")
    assert len(pages) > 100, f"the crawl reached only {len(pages)} pages"
    assert not broken, "\n".join(sorted(set(broken))[:50])
