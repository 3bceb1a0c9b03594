"""What a player waits for in the browser (issue 24): the bytes of a first visit, and the first answers that need
the solvers.

- ``first_visit_bytes``: the home page and everything it loads, as Chromium received them on a first visit
  (Resource Timing ``transferSize``: headers and compressed bodies), ``first_visit_body_bytes`` the bodies alone
  and ``first_visit_plain_bytes`` the same files uncompressed; ``repeat_visit_bytes`` a second visit (the hashed
  assets come from the cache); ``encoding`` what the browser was sent.
- ``wurf3d_plain_bytes``, ``wurf3d_gzip_bytes``, ``wurf3d_br_bytes``: the 3D chunk (three.js, loaded only at a Der
  große Wurf table) as sent plain, gzip and brotli.
- ``worker_install_bytes`` / ``_files``: what the service worker keeps after a first visit has loaded (the other
  languages, the offline page, icons), fetched once in the background, brotli where it applies.

- ``{before,after}_first_hint_s``: the first hint of a Dice 1000 table (classic, a player against a bot) on a
  server that has been up a while (its warm-up done: ``GET /api/warm-up``), through HTTP; ``before_`` with the
  warm-up off (``DICEHALL_WARM_UP=0``, as the server was), ``after_`` with it on; ``*_second_hint_s`` the next one.
- ``{before,after}_analysis_page_s_{thousand,clever}``: what the analysis page asks for (``/analysis`` and
  ``/positions``, one after the other) of a two-bot game, asked the moment it finished, on a server that had made no
  analysis before; ``after_..._later``: asked once the warm-up is idle (a player who looks at the end first).

``run(quick) -> dict`` (``make bench``, part ``page``; ``python -m bench.web_page [--quick]``). Needs the built front
end (``make web``) and Chromium (``make system-deps``).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


def _worker_install_bytes(base: str) -> dict[str, int]:
    """What the service worker fetches once, after the first visit's page has loaded (its list in ``/sw.js``),
    as sent to a browser that accepts brotli: the price of opening fast and of the offline page later."""
    with httpx.Client(timeout=30) as client:
        listed = re.search(r"const PRECACHE = (\[.*?\]);", client.get(f"{base}/sw.js").text)
        assert listed, "sw.js lists the files it keeps"
        total = 0
        for path in json.loads(listed.group(1)):
            with client.stream("GET", base + path, headers={"accept-encoding": "br, gzip"}) as r:
                r.raise_for_status()
                total += sum(len(chunk) for chunk in r.iter_raw())
    return {"worker_install_bytes": total, "worker_install_files": len(json.loads(listed.group(1)))}


def _wait_warm(http: httpx.Client, base: str) -> None:
    """The server has made what it makes ahead (polled: it is the server's own state, in another process)."""
    end = time.monotonic() + 300
    while not http.get(f"{base}/api/warm-up").json()["idle"]:
        if time.monotonic() > end:
            raise RuntimeError("the server's warm-up did not finish in 300 s")
        time.sleep(0.05)


def _to_move(base: str, table: dict[str, Any], seat: int) -> None:
    """Play the table's chance and other seats until ``seat`` decides (the bot moves by itself)."""
    from websockets.sync.client import connect

    url = base.replace("http", "ws", 1) + "/ws"
    with connect(url) as ws:
        ws.send(
            json.dumps(
                {"type": "join", "table": table["table_id"], "tokens": [table["seats"][seat]["token"]]}
            )
        )
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg.get("type") in ("event", "snapshot") and msg["state"]["current_player"] == seat:
                return


def _finished(http: httpx.Client, base: str, game: str, bots: list[str]) -> str:
    seats = [{"kind": "bot", "bot": b} for b in bots]
    table_id = str(http.post(f"{base}/api/tables", json={"game": game, "seats": seats}).json()["table_id"])
    end = time.monotonic() + 300
    while http.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        if time.monotonic() > end:
            raise RuntimeError(f"the {game} bot game did not finish in 300 s")
        time.sleep(0.05)
    return table_id


def _timed(call: Any) -> float:
    start = time.perf_counter()
    r = call()
    r.raise_for_status()
    return round(time.perf_counter() - start, 3)


@contextmanager
def _server(warm: bool, db: Path) -> Iterator[tuple[httpx.Client, str]]:
    """A fresh server with the warm-up ``warm`` (start_server waits for it: a server that has been up a while)."""
    port = free_port()
    proc = start_server(f"sqlite:///{db}", port, extra_env={"DICEHALL_WARM_UP": "1" if warm else "0"})
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=300) as http:
            yield http, base
    finally:
        stop_server(proc)


def _speed(warm: bool, tmp: Path) -> dict[str, Any]:
    """The first hint (on one fresh server) and the analysis page (on another, cold for it too)."""
    label = "after" if warm else "before"
    out = {}
    with _server(warm, tmp / f"{label}-hint.sqlite") as (http, base):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "expert"}]
        table = http.post(f"{base}/api/tables", json={"game": "thousand", "seats": seats}).json()
        _to_move(base, table, 0)
        ask = {"seat": 0, "token": table["seats"][0]["token"]}
        hint = f"{base}/api/tables/{table['table_id']}/hints"
        out[f"{label}_first_hint_s"] = _timed(lambda: http.post(hint, json=ask))
        out[f"{label}_second_hint_s"] = _timed(lambda: http.post(hint, json=ask))
    with _server(warm, tmp / f"{label}-analysis.sqlite") as (http, base):
        for game, bots in (("thousand", ["cautious", "bold"]), ("clever", ["greedy", "greedy"])):
            for later in (False, True) if warm else (False,):
                table_id = _finished(http, base, game, bots)
                if later:
                    _wait_warm(http, base)
                page = [f"{base}/api/tables/{table_id}/analysis", f"{base}/api/tables/{table_id}/positions"]
                took = sum(_timed(lambda u=u: http.get(u)) for u in page)
                out[f"{label}_analysis_page_s_{game}" + ("_later" if later else "")] = round(took, 3)
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
            figures = {**_visit(base), **_chunk_sizes(base), **_worker_install_bytes(base)}
        finally:
            stop_server(proc)
        for warm in (False, True):
            figures.update(_speed(warm, Path(tmp)))
    return figures


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
