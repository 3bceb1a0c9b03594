"""What a player waits for in the browser (issue 24): the bytes of a first visit, and the first answers that need
the solvers.

- ``first_visit_bytes``: the home page and everything it loads, as Chromium received them on a first visit
  (Resource Timing ``transferSize``: headers and compressed bodies), ``first_visit_body_bytes`` the bodies alone
  and ``first_visit_plain_bytes`` the same files uncompressed; ``repeat_visit_bytes`` a second visit (the hashed
  assets come from the cache); ``encoding`` what the browser was sent.
- ``wurf3d_plain_bytes``, ``wurf3d_gzip_bytes``, ``wurf3d_br_bytes``: the 3D chunk (three.js, loaded only at a Der
  große Wurf table) as sent plain, gzip and brotli.

``run(quick) -> dict`` (``make bench``, part ``page``; ``python -m bench.web_page [--quick]``). Needs the built front
end (``make web``) and Chromium (``make system-deps``).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from dicehall.web.app import STATIC_DIR
from tools.server import free_port, start_server, stop_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

TRANSFERS = """() => {
  const all = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  return all.map((e) => ({ name: e.name, transfer: e.transferSize, body: e.encodedBodySize, plain: e.decodedBodySize }));
}"""


def _visit(base: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    encodings: dict[str, str] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.on(
                "response",
                lambda r: encodings.__setitem__(r.url, r.headers.get("content-encoding", "none")),
            )
            page.goto(base + "/")
            page.wait_for_selector("[data-start=clever-solo]")
            page.wait_for_load_state("networkidle")
            first = page.evaluate(TRANSFERS)
            page.reload()
            page.wait_for_selector("[data-start=clever-solo]")
            page.wait_for_load_state("networkidle")
            repeat = page.evaluate(TRANSFERS)
        finally:
            browser.close()
    assets = sorted({e for url, e in encodings.items() if "/assets/" in url})
    return {
        "first_visit_bytes": sum(e["transfer"] for e in first),
        "first_visit_body_bytes": sum(e["body"] for e in first),
        "first_visit_plain_bytes": sum(e["plain"] for e in first),
        "first_visit_requests": len(first),
        "repeat_visit_bytes": sum(e["transfer"] for e in repeat),
        "encoding": ",".join(assets),
    }


def _chunk_sizes(base: str) -> dict[str, int]:
    """The 3D chunk's size as sent plain, gzip-encoded and brotli-encoded (the raw bytes on the wire)."""
    name = next(p.name for p in (STATIC_DIR / "assets").glob("wurf-scene-*.js"))
    out = {}
    with httpx.Client(timeout=30) as client:
        for label, accept in (("plain", "identity"), ("gzip", "gzip"), ("br", "br")):
            with client.stream("GET", f"{base}/assets/{name}", headers={"accept-encoding": accept}) as r:
                r.raise_for_status()
                out[f"wurf3d_{label}_bytes"] = sum(len(chunk) for chunk in r.iter_raw())
    return out


def run(quick: bool = False) -> dict[str, Any]:
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        raise RuntimeError("the front end is not built: run `make web`")
    assert re.search(r"/assets/index-[\w-]+\.js", index.read_text()), "index.html names its hashed script"
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="dicehall-page-") as tmp:
        proc = start_server(f"sqlite:///{Path(tmp) / 'bench.sqlite'}", port)
        try:
            base = f"http://127.0.0.1:{port}"
            return {**_visit(base), **_chunk_sizes(base)}
        finally:
            stop_server(proc)


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
