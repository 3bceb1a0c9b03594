"""The Dice 1000 strategy page (docs/strategy.md): the size of its data and how long the page takes to show its map.

- ``strategy_table_load_ms``: the shipped classic table decoded and its space built (once per process, shared with
  ``bot:optimal``, hints and analysis); ``strategy_maps_ms``: the maps computed from it (the first request's work).
- ``strategy_data_bytes`` / ``strategy_data_gzip_bytes``: ``GET /api/strategy/thousand`` plain and as sent gzipped.
- ``strategy_page_first_s``: a browser (Chromium, 1280×800) opening ``/strategy/thousand`` on a server that has
  not computed the maps yet, until the map's cells are drawn; ``strategy_page_again_s`` the same page opened again
  (the maps kept by the server); ``strategy_page_cells``: the cells drawn.

- ``strategy_clever_data_bytes`` / ``strategy_clever_data_gzip_bytes``: ``GET /api/strategy/clever`` (the shipped
  figures of the Clever page) plain and gzipped; ``strategy_clever_page_s``: the Clever page until its tables show.

``run(quick) -> dict`` (``make bench``, part ``strategy``; ``python -m bench.strategy``). Needs the built front end
(``make web``) and Chromium.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dicehall.web.app import STATIC_DIR
from tools.server import free_port, start_server, stop_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
CELLS = "[data-testid=strategy-map] .cell"


def data_figures() -> dict[str, Any]:
    from dicehall.thousand.house_rules import shipped_effects
    from dicehall.thousand.solver import strategy

    start = time.perf_counter()
    table = strategy.classic_table()
    loaded = time.perf_counter()
    maps = strategy.strategy(table)
    done = time.perf_counter()
    raw = json.dumps({**maps, "house_rules": shipped_effects()}, separators=(",", ":")).encode()  # as sent
    return {
        "strategy_table_load_ms": round(1000 * (loaded - start)),
        "strategy_maps_ms": round(1000 * (done - loaded)),
        "strategy_data_bytes": len(raw),
        "strategy_data_gzip_bytes": len(gzip.compress(raw, compresslevel=9, mtime=0)),
        **clever_data_figures(),
    }


def clever_data_figures() -> dict[str, Any]:
    from dicehall.clever.strategy import shipped

    sent = {k: v for k, v in shipped().items() if k != "sample"}
    raw = json.dumps(sent, ensure_ascii=False, separators=(",", ":")).encode()  # as sent
    return {
        "strategy_clever_data_bytes": len(raw),
        "strategy_clever_data_gzip_bytes": len(gzip.compress(raw, compresslevel=9, mtime=0)),
    }


def page_figures() -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    if not (STATIC_DIR / "index.html").is_file():
        raise RuntimeError("the front end is not built: run `make web`")
    port = free_port()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="dicehall-strategy-") as tmp:
        proc = start_server(f"sqlite:///{Path(tmp) / 'bench.sqlite'}", port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for label in ("first", "again"):
                        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                        start = time.perf_counter()
                        page.goto(f"http://127.0.0.1:{port}/strategy/thousand")
                        page.locator(CELLS).first.wait_for(timeout=120_000)
                        out[f"strategy_page_{label}_s"] = round(time.perf_counter() - start, 3)
                        out["strategy_page_cells"] = page.locator(CELLS).count()
                        page.context.close()
                    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                    start = time.perf_counter()
                    page.goto(f"http://127.0.0.1:{port}/strategy/clever")
                    page.locator("[data-testid=clever-first] tbody tr").first.wait_for(timeout=120_000)
                    out["strategy_clever_page_s"] = round(time.perf_counter() - start, 3)
                    page.context.close()
                finally:
                    browser.close()
        finally:
            stop_server(proc)
    return out


def run(quick: bool = False) -> dict[str, Any]:
    return {**data_figures(), **page_figures()}


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
