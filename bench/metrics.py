"""What /metrics costs: the web load (bench/web.py's ``measure``: 32 clients on 16 two-player Dice 1000 tables,
SQLite) with the metrics counted (the default) and with ``metrics = off`` (nothing counted), alternated so that a
drift of the machine falls on both; moves/s and p99 of each, and the cost in per cent (issue 27: < 5 %).

``run(quick=False) -> dict``; run alone with ``python -m bench.metrics [--quick]``.
"""

from __future__ import annotations

import json
import statistics
import sys
from typing import Any

from bench.web import measure


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
    return out


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv), indent=1))
