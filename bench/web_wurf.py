"""A live Der große Wurf table in a real browser: a throw from the release of the drag to the settled dice on
screen, the motion payload per throw, and the frame rate at 1280×800 (Debian's Chromium, software WebGL).

Needs the built front end (``make web``), Playwright for Python and ``/usr/bin/chromium``; without them the part
is reported as skipped. Run alone: ``python -m bench --only wurf-web``.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

import dicehall.web
from tools.server import start_server, stop_server

CHROMIUM = "/usr/bin/chromium"
STATIC = Path(dicehall.web.__file__).resolve().parent / "static" / "index.html"  # the built front end
SETTINGS = {
    "tables_per_hour": 100_000,
    "unfinished_per_client": 100_000,
    "tables_per_hour_per_address": 10_000_000,
    "unfinished_per_address": 10_000_000,
}

_SCREEN_JS = """([x, y, z]) => { const s = document.querySelector('[data-testid=wurf-stage]');
  const r = s.wurf.canvas.getBoundingClientRect(); const q = s.wurf.screenOf(x, y, z);
  return [r.left + q.x, r.top + q.y]; }"""
_CAN_THROW = """() => { const b = document.querySelector('[data-testid=wurf-throw]');
  return !!b && !b.disabled && !document.querySelector('[data-testid=wurf-aim]').hidden; }"""
_FRAMES = "() => document.querySelector('[data-testid=wurf-stage]').wurf.framesDrawn"
_SETTLED = "() => document.querySelector('[data-testid=wurf-caption]').textContent.length > 0"
"""The caption appears when the flight has ended and the dice at rest are marked (removed red, taken gold)."""


def _tree_cpu(marker: str) -> float:
    """CPU seconds used so far by the browser whose command line holds ``marker`` and all its child processes
    (renderer, GPU process with SwiftShader): read from /proc, so it works without extra packages."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    root = None
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / tick
        if marker.encode() in cmd:
            root = pid
    if root is None:
        return 0.0
    tree = {root}
    grew = True
    while grew:
        new = {p for p, pp in parent.items() if pp in tree} - tree
        tree |= new
        grew = bool(new)
    return sum(cpu.get(p, 0.0) for p in tree)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _payload(frame: Any, sizes: list[int]) -> None:
    """The size of a throw's motion (as JSON) in an event the server pushed."""
    if isinstance(frame, str) and '"motion"' in frame:
        msg = json.loads(frame)
        if msg.get("type") == "event" and "motion" in msg:
            sizes.append(len(json.dumps(msg["motion"], separators=(",", ":"))))


def _throw(page: Any, x: float, y: float, run_up: float) -> float:
    """Drag from the thrower's edge to (x, y) and release; seconds from the release to the dice at rest on screen
    (the flight played, the dice marked and the caption shown)."""
    sx, sy = page.evaluate(_SCREEN_JS, [x, -run_up, 30.0])
    ex, ey = page.evaluate(_SCREEN_JS, [x, y, 0.0])
    page.mouse.move(sx, sy)
    page.mouse.down()
    for k in range(1, 7):
        page.mouse.move(sx + (ex - sx) * k / 6, sy + (ey - sy) * k / 6)
    page.evaluate("() => { document.querySelector('[data-testid=wurf-caption]').textContent = ''; }")
    t0 = time.perf_counter()
    page.mouse.up()
    page.wait_for_function(_SETTLED, timeout=60_000)
    return time.perf_counter() - t0


def run(quick: bool = False) -> dict[str, Any]:
    """Median/max release-to-settled seconds over a few drag throws against a bot, payload sizes from the
    events, and frames drawn per second during a replay at 1280×800."""
    if not STATIC.is_file() or not Path(CHROMIUM).exists():
        return {"skipped": "needs the built front end (make web) and /usr/bin/chromium"}
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"skipped": "needs playwright"}
    throws = 3 if quick else 8
    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(f"sqlite:///{tmp}/bench.sqlite", port, settings=SETTINGS, bot_delay=0.3)
        try:
            base = f"http://127.0.0.1:{port}"
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "cautious"}]
            body = {"game": "wurf", "preset": None, "overrides": {"dice_per_player": 15}, "seats": seats}
            table = httpx.post(f"{base}/api/tables", json=body, timeout=10).json()
            payloads: list[int] = []
            times: list[float] = []
            with sync_playwright() as p:
                marker = f"--dicehall-bench={uuid.uuid4().hex}"  # finds this browser's processes in /proc
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu", marker]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.on("websocket", lambda ws: ws.on("framereceived", lambda f: _payload(f, payloads)))
                page.goto(base + table["seats"][0]["invite"])
                page.wait_for_selector("[data-testid=wurf-stage][data-state='3d']")
                aims = [(100, 110, 30), (80, 130, 40), (120, 90, 20), (100, 150, 10)]
                while len(times) < throws:
                    page.wait_for_function(_CAN_THROW, timeout=60_000)
                    x, y, run_up = aims[len(times) % len(aims)]
                    times.append(_throw(page, x, y, run_up))
                    if page.locator("[data-testid=gameover]").count():
                        break
                    end = page.get_by_test_id("wurf-end")
                    if not end.is_disabled():
                        end.click()
                cpu0, frames0 = _tree_cpu(marker), page.evaluate(_FRAMES)
                fps = page.evaluate(
                    "() => { const s = document.querySelector('[data-testid=wurf-stage]'); return s.wurf.measure(3000); }"
                )
                frames = page.evaluate(_FRAMES) - frames0
                cpu = _tree_cpu(marker) - cpu0
                browser.close()
        finally:
            stop_server(proc)
    return {
        "throws": len(times),
        "release_to_settled_median_s": round(statistics.median(times), 2),
        "release_to_settled_max_s": round(max(times), 2),
        "motion_payload_median_bytes": int(statistics.median(payloads)) if payloads else 0,
        "motion_payload_max_bytes": max(payloads) if payloads else 0,
        "frames_per_second_1280x800": round(float(fps), 1),
        # Load-independent: frames the browser draws per CPU-second of all its processes (one core's worth).
        "frames_per_cpu_second_1280x800": round(frames / cpu, 1) if cpu > 0 else None,
    }


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=2))
