"""Real-browser fixtures: the real server as a subprocess on a free loopback port, Debian's Chromium via Playwright.

The front end must be built (``make web``, which ``make test`` runs first); if it is not, it is built here once.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC_INDEX = ROOT / "dicehall" / "web" / "static" / "index.html"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BOT_DELAY = "0.02"  # seconds; bots still move asynchronously, just quickly


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _ensure_built() -> None:
    if STATIC_INDEX.is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("the front end is not built and npm is missing: run `make web`")
    web = ROOT / "web"
    if subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=web).returncode != 0:
        subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=web, check=True)
    subprocess.run([npm, "run", "build"], cwd=web, check=True)


class Server:
    """The real server (``python -m dicehall.web``, same as ``dicehall serve``) on its own SQLite database."""

    def __init__(self, db: Path, log: Path, bot_delay: str = BOT_DELAY) -> None:
        self.db = db
        self.log = log
        self.bot_delay = bot_delay
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        # `python -m dicehall.web` is `dicehall serve` without the games' CLI modules in the way.
        cmd = [
            sys.executable,
            "-m",
            "dicehall.web",
            "--port",
            str(self.port),
            "--db",
            f"sqlite:///{self.db}",
            "--bot-delay",
            self.bot_delay,
            "--settings",
            str(self._settings()),
        ]
        env = dict(os.environ, DICEHALL_BOT_DELAY=self.bot_delay)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not come up in 30 s")

    def _settings(self) -> Path:
        """Every test creates tables from 127.0.0.1 and many stay unfinished: lift the per-client limits that a
        public server keeps (docs/web.md), the rest of the settings are the defaults."""
        path = self.db.with_suffix(".settings.toml")
        path.write_text(
            "[server]\ntables_per_hour = 100000\nunfinished_per_client = 100000\n"
            "tables_per_hour_per_address = 1000000\nunfinished_per_address = 1000000\n"
        )
        return path

    def kill(self) -> None:
        """kill -9: no shutdown at all, as in a crash."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def get(self, path: str, timeout: float = 10) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=timeout) as r:
            return json.load(r)

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (run `make system-deps`)")
    external = os.environ.get("DICEHALL_BROWSER_BASE")
    if external:  # run against a server you started yourself (e.g. while developing the front end)
        srv = Server(Path("/nonexistent"), Path("/nonexistent"))
        srv.base = external.rstrip("/")
        yield srv
        return
    _ensure_built()
    tmp = tmp_path_factory.mktemp("browser")
    srv = Server(tmp / "dicehall.sqlite", tmp / "server.log")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser(server: Server) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));"""


NAME_ASKED = "try { localStorage.setItem('dicehall.name_asked', '1') } catch (e) {}"
"""The name prompt counts as answered (me.ts): pages of tests that do not test it start tables at once."""


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Any]:
    """``new_page(width, height, locale)`` → a page in a fresh browser context (its own localStorage and cookies =
    its own player).

    Page errors fail the test: a broken script must not pass unnoticed. The name prompt before a first table
    (web/src/me.ts) is marked as answered, so that one-click starts start at once, unless ``ask_name=True``.
    """
    contexts = []
    errors: list[str] = []

    def make(width: int = 1100, height: int = 820, locale: str = "en-US", ask_name: bool = False) -> Any:
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=server.base, locale=locale
        )
        ctx.set_default_timeout(30000)  # generous: the suite often runs on a loaded 2-core machine
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # The server sends a strict content security policy: anything it blocks fails the test.
        page.add_init_script(CSP_WATCH)
        if not ask_name:
            page.add_init_script(NAME_ASKED)
        page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
