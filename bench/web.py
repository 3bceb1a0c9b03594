"""Web server benchmark: the load generator (a separate process) against the server (another process), both on
loopback, with a fresh SQLite database; then every acknowledged move is looked up in the database.

Also: a four-player online Clever table, one websocket client per seat (``clever4_``, see ``web_clever.py``);
the same load while a pathological bot table (Dice 1000, target 5000 (the largest allowed), expert against expert, bot delay 0)
runs, with ``/api/health`` polled every 20 ms (``patho_``); and a soak (``soak_``): rounds of create/play/finish
cycles against one server, with the resident memory of the server (and of its bot workers) after each round, once
idle tables were unloaded.

``run(quick=False) -> dict``; run alone with ``python -m bench.web [--quick]``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tools import ROOT
from tools.server import free_port, missing_moves, start_server, stop_server


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants (the server, its forkserver, its bot workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total


class HealthProbe:
    """Polls ``/api/health`` every ``period`` seconds in a thread; latencies in ms."""

    def __init__(self, base: str, period: float = 0.02) -> None:
        import threading

        self.base, self.period = base, period
        self.latencies: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self._stop.is_set():
                start = time.perf_counter()
                client.get(f"{self.base}/api/health")
                self.latencies.append((time.perf_counter() - start) * 1000)
                self._stop.wait(self.period)

    def __enter__(self) -> HealthProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> dict[str, float]:
        import numpy as np

        lat = np.array(self.latencies or [0.0])
        return {
            "p50_ms": float(np.percentile(lat, 50)),
            "p99_ms": float(np.percentile(lat, 99)),
            "max_ms": float(lat.max()),
        }


PATHOLOGICAL = {
    "game": "thousand",
    "overrides": {"target": 5000, "barrel_score": 4700},  # the largest allowed
    "seats": [{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "expert"}],
}


def measure(
    clients: int,
    duration: float,
    warmup: float,
    sqlite_sync: str = "NORMAL",
    hot_seat: bool = False,
    pathological: int = 0,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One load run against a fresh server and database; adds the persistence check to the load summary, and
    with ``pathological`` tables running, their progress and the health latency."""
    with tempfile.TemporaryDirectory(prefix="dicehall-bench-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        port = free_port()
        acked_file = Path(tmp) / "acked.json"
        extra: list[str] = []
        if settings:
            (Path(tmp) / "settings.toml").write_text("".join(f"{k} = {v}\n" for k, v in settings.items()))
            extra = ["--settings", str(Path(tmp) / "settings.toml")]
        server = start_server(db_url, port, sqlite_sync, extra_args=extra)
        base = f"http://127.0.0.1:{port}"
        patho = [
            httpx.post(f"{base}/api/tables", json=PATHOLOGICAL, timeout=30).json()["table_id"]
            for _ in range(pathological)
        ]
        rss_start = tree_rss_mb(server.pid)
        cmd = [
            sys.executable,
            "-m",
            "tools.loadgen",
            "--url",
            f"http://127.0.0.1:{port}",
            "--clients",
            str(clients),
            "--duration",
            str(duration),
            "--warmup",
            str(warmup),
            "--acked-out",
            str(acked_file),
        ]
        if hot_seat:
            cmd.append("--hot-seat")
        extra_figures: dict[str, Any] = {}
        try:
            with HealthProbe(base) as probe:
                out = subprocess.run(
                    cmd, capture_output=True, text=True, timeout=duration + warmup + 120, check=True, cwd=ROOT
                )
            extra_figures["health"] = probe.summary()
            extra_figures["rss_start_mb"] = rss_start
            extra_figures["rss_end_mb"] = tree_rss_mb(server.pid)
            if settings and "idle_unload_seconds" in settings:
                time.sleep(settings["idle_unload_seconds"] * 2 + 1)  # idle tables unloaded by the sweep
                extra_figures["rss_idle_mb"] = tree_rss_mb(server.pid)
            for tid in patho:
                info = httpx.get(f"{base}/api/tables/{tid}", timeout=30).json()
                extra_figures.setdefault("patho_seq", []).append(info["seq"])
        finally:
            stop_server(server)
        summary: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        summary.update(extra_figures)
        acked = json.loads(acked_file.read_text())
        summary["not_persisted"] = missing_moves(db_url, acked)
        summary["persisted"] = summary["not_persisted"] == 0 and len(acked) > 0
        return summary


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def soak(clients: int, rounds: int, seconds: float, idle: float = 2.0) -> dict[str, Any]:
    """Create/play/finish cycles against one server: ``rounds`` load runs of ``seconds``, each followed by the
    idle sweep (``idle_unload_seconds`` = ``idle``); resident memory after each round (server alone, and with
    its bot forkserver and workers). Bounded memory shows as a plateau from round to round."""
    with tempfile.TemporaryDirectory(prefix="dicehall-soak-") as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'soak.sqlite'}"
        (Path(tmp) / "settings.toml").write_text(f"idle_unload_seconds = {idle}\n")
        port = free_port()
        server = start_server(db_url, port, extra_args=["--settings", str(Path(tmp) / "settings.toml")])
        base = f"http://127.0.0.1:{port}"
        out: dict[str, Any] = {"soak_rounds": rounds, "soak_round_seconds": seconds}
        server_rss, tree_rss = [_rss_mb(server.pid)], [tree_rss_mb(server.pid)]
        moves = games = tables = 0
        try:
            for _ in range(rounds):
                cmd = [sys.executable, "-m", "tools.loadgen", "--url", base, "--clients", str(clients)]
                cmd += ["--duration", str(seconds), "--warmup", "0.5", "--seed", str(len(server_rss))]
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120, cwd=ROOT)
                if run.returncode:
                    raise RuntimeError(f"load generator failed: {run.stderr[-2000:]}")
                summary = json.loads(run.stdout.strip().splitlines()[-1])
                moves += summary["acked_total"]
                games += summary["games_finished"]
                tables += summary["tables"]
                time.sleep(2 * idle + 1)  # the clients are gone: every table is unloaded by the sweep
                server_rss.append(_rss_mb(server.pid))
                tree_rss.append(tree_rss_mb(server.pid))
        finally:
            stop_server(server)
        out.update(
            soak_moves=moves,
            soak_games_finished=games,
            soak_tables=tables,
            soak_server_rss_mb=[round(x, 1) for x in server_rss],
            soak_total_rss_mb=[round(x, 1) for x in tree_rss],
        )
        return out


def _figures(prefix: str, m: dict[str, Any]) -> dict[str, float]:
    return {
        f"{prefix}moves_per_s": round(m["moves_per_s"], 1),
        f"{prefix}p50_ms": round(m["p50_ms"], 2),
        f"{prefix}p99_ms": round(m["p99_ms"], 2),
        f"{prefix}persisted": 1.0 if m["persisted"] else 0.0,
        f"{prefix}errors": float(m["errors"]),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Sustained moves/s with p50/p99 latency (send → acknowledging event) and the persistence check.

    Main figures: 32 clients, one per seat of 16 two-player Dice 1000 tables (random legal moves), SQLite WAL with
    synchronous=NORMAL. Also: one client per table holding both seats (``hot_``), and synchronous=FULL (``full_``).
    """
    duration, warmup = (4.0, 1.0) if quick else (15.0, 3.0)
    clients = 32
    main = measure(clients, duration, warmup)
    result: dict[str, Any] = _figures("", main)
    result.update(
        max_ms=round(main["max_ms"], 2),
        moves=main["moves"],
        clients=clients,
        acked_total=main["acked_total"],
        not_persisted=main["not_persisted"],
        floor_met=1.0 if main["moves_per_s"] >= 1000 and main["p99_ms"] < 50 and main["persisted"] else 0.0,
    )
    result["health_p99_ms"] = round(main["health"]["p99_ms"], 2)
    patho = measure(clients, duration, warmup, pathological=1)
    result.update(_figures("patho_", patho))
    result.update(
        patho_health_p50_ms=round(patho["health"]["p50_ms"], 2),
        patho_health_p99_ms=round(patho["health"]["p99_ms"], 2),
        patho_health_max_ms=round(patho["health"]["max_ms"], 2),
        patho_bot_events=patho["patho_seq"][0],
    )
    rounds, each = (2, 5.0) if quick else (5, 20.0)
    result.update(soak(clients, rounds, each))
    if not quick:
        result.update(_figures("hot_", measure(clients, duration / 2, warmup, hot_seat=True)))
        result.update(_figures("full_", measure(clients, duration / 2, warmup, "FULL")))
    from tools import abuse  # the abuse mix with the default limits (see abuse.py)

    mix = abuse.run(quick)
    for key in ("normal_p50_ms", "normal_p99_ms", "health_p50_ms", "health_p99_ms", "server_rss_max_mb"):
        result[f"abuse_{key}"] = round(mix[key], 2)
    result["abuse_flood_rate_limited"] = mix["flood_codes"].get("rate_limited", 0)
    result["abuse_flood_closed_1008"] = mix["flood_closes"].get("1008", 0)
    result["abuse_creator_429"] = mix["creator_refused_429"]
    from bench import web_clever  # a four-player Clever table: click → every client (web_clever.py)

    result.update(web_clever.measure(1 if quick else 3))
    result.update(replay_figures())
    return result


def replay_figures() -> dict[str, Any]:
    """The Analysis page's positions (``GET /api/tables/{id}/positions``): seconds and KiB of JSON for a 300-event
    Dice 1000 record and a 4-player Clever game (seeded bot games)."""
    from bench.analysis import _record
    from dicehall.clever.rules import CleverRules
    from dicehall.thousand.rules import ThousandRules
    from dicehall.web.analysis_api import positions

    out: dict[str, Any] = {}
    cases = [
        ("thousand_300", _record("thousand", ThousandRules.from_preset("classic"), ["random"] * 2, 3, 300)),
        ("clever_4p", _record("clever", CleverRules.from_preset(), ["random"] * 4, 3, None)),
    ]
    for name, record in cases:
        start, cpu = time.perf_counter(), time.process_time()
        body = json.dumps(positions(record))
        out[f"replay_{name}_seconds"] = round(time.perf_counter() - start, 3)
        out[f"replay_{name}_cpu_seconds"] = round(time.process_time() - cpu, 3)
        out[f"replay_{name}_kib"] = round(len(body) / 1024, 1)
        out[f"replay_{name}_events"] = len(record.events)
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
