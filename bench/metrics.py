"""What /metrics costs: the web load (bench/web.py's ``measure``: 32 clients on 16 two-player Dice 1000 tables,
SQLite) with the metrics counted (the default) and with ``metrics = off`` (nothing counted), alternated so that a
drift of the machine falls on both; moves/s and p99 of each, and the cost in per cent (issue 27: < 5 %). On a
shared machine that difference is mostly other processes' noise, so the counting itself is timed too: the
microseconds one commit's counting takes (``Metrics.committed``, labels, counters, histogram), and that as a share
of a move's server time at the measured rate (an upper bound of the cost: one server process, one core).

``run(quick=False) -> dict``; run alone with ``python -m bench.metrics [--quick]``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

from bench.web import measure


def counting_us(calls: int = 200_000) -> float:
    """Microseconds one commit's counting takes (a move and a roll, as most commits are)."""
    from dicehall.web.metrics import Metrics

    m = Metrics()
    started = time.perf_counter()
    for _ in range(calls):
        m.committed("thousand", 1, 1, 0.001)
    return 1e6 * (time.perf_counter() - started) / calls


def run(quick: bool = False) -> dict[str, Any]:
    duration, warmup, pairs = (3.0, 1.0, 1) if quick else (10.0, 2.0, 3)
    runs: dict[str, list[dict[str, Any]]] = {"on": [], "off": []}
    for _ in range(pairs):
        for mode in ("off", "on"):
            runs[mode].append(
                measure(
                    32, duration, warmup, settings={"metrics": '"off"' if mode == "off" else '"loopback"'}
                )
            )
    out: dict[str, Any] = {}
    for mode, got in runs.items():
        out[f"metrics_{mode}_moves_per_s"] = round(statistics.median(r["moves_per_s"] for r in got), 1)
        out[f"metrics_{mode}_p99_ms"] = round(statistics.median(r["p99_ms"] for r in got), 2)
        out[f"metrics_{mode}_persisted"] = float(all(r["persisted"] for r in got))
    off, on = out["metrics_off_moves_per_s"], out["metrics_on_moves_per_s"]
    out["metrics_cost_pct"] = round(100 * (off - on) / off, 2) if off else 0.0
    us = counting_us(20_000 if quick else 200_000)
    out["metrics_us_per_commit"] = round(us, 2)
    out["metrics_counting_pct_of_a_move"] = round(100 * us * on / 1e6, 3) if on else 0.0
    return out


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv), indent=1))
