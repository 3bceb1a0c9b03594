"""`make bench`: run every part's benchmark and print (and save) the measured figures.

Usage (from the repository root): python -m bench [--quick] [--solve-classic] [--only thousand,clever,...]
                                  [--out FILE] [--cluster-games 100000]
(``make bench ARGS="--solve-classic"``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

MODULES = {
    "thousand": "bench.thousand",
    "clever": "bench.clever",
    "wurf": "bench.wurf",
    "web": "bench.web",
    "wurf-web": "bench.web_wurf",
    "envs": "bench.envs",
    "cluster": "bench.cluster",
    "shared": "bench.web_shared",
    "page": "bench.web_page",
    "players": "bench.players",
    "ratings": "bench.ratings",
    "verify": "bench.verify",
    "strategy": "bench.strategy",
    "metrics": "bench.metrics",
    "backup": "bench.backup",
}
PARTS = list(MODULES)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test of the benchmarks)")
    parser.add_argument(
        "--solve-classic",
        action="store_true",
        help="also solve classic Dice 1000 for two players (about 8 CPU-minutes; resumes its checkpoint)",
    )
    parser.add_argument("--only", default="", help="comma-separated parts to run (default: all)")
    parser.add_argument(
        "--cluster-games",
        type=int,
        default=None,
        help="games of the cluster part (default 20,000; the issue: 100,000)",
    )
    parser.add_argument("--out", default="bench-results/latest.json", help="where to write the JSON figures")
    args = parser.parse_args()
    parts = [p for p in args.only.split(",") if p] or PARTS
    if args.solve_classic:
        os.environ["DICEHALL_BENCH_CLASSIC"] = "1"  # read by bench.thousand_solver
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown part(s): {', '.join(unknown)}; known: {', '.join(PARTS)}")
    results: dict[str, object] = {
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
    }
    failed = False
    for part in parts:
        print(f"== {part} ==", flush=True)
        start = time.perf_counter()
        try:
            module = importlib.import_module(MODULES[part])
            if part == "cluster" and args.cluster_games:
                figures = module.run(quick=args.quick, games=args.cluster_games)
            else:
                figures = module.run(quick=args.quick)
        except Exception as exc:  # a broken benchmark must not hide the others' figures
            failed = True
            figures = {"error": f"{type(exc).__name__}: {exc}"}
        figures["bench_seconds"] = round(time.perf_counter() - start, 2)
        results[part] = figures
        for key, value in figures.items():
            print(f"  {key:<40} {value}", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"figures written to {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
