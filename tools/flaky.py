"""Run CI's whole test job (``bash .ci/run``) from fresh clones of HEAD, N times in a row, and print a table of
the failures: ``make flaky N=5`` (``LOADED=2``: that many of the runs, the first ones, with one core kept busy).

A test that fails in one run and passes in another fails by chance: find its race (docs/CONTRIBUTING.md).
Each run's whole output is kept in test-artifacts/flaky/run-K.log.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)
# pytest's closing line, with or without its ===== frame (-q leaves it out)
SUMMARY = re.compile(r"^(?:=+ )?(\d+ (?:passed|failed|errors?)\b.*? in [\d.]+s.*?)(?: =+)?$", re.M)


def busy_core() -> subprocess.Popen[bytes]:
    """One core kept busy for the run: stress-ng where installed (make system-deps), else a Python loop."""
    if shutil.which("stress-ng"):
        return subprocess.Popen(["stress-ng", "--cpu", "1", "--quiet"])
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def one_run(k: int, loaded: bool, logs: Path) -> tuple[bool, float, list[str], str]:
    # A clone beside the project, so that ../shared is the same as for CI's clone.
    where = Path(tempfile.mkdtemp(prefix=f"dicehall-flaky-{k}-", dir=ROOT.parent))
    load = busy_core() if loaded else None
    start = time.monotonic()
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
        log = logs / f"run-{k}.log"
        with log.open("wb") as out:
            rc = subprocess.run(
                ["bash", ".ci/run"],
                cwd=where,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "CI": "true"},
            ).returncode
    finally:
        if load is not None:
            load.terminate()
            load.wait()
    took = time.monotonic() - start
    shutil.rmtree(where, ignore_errors=True)
    text = log.read_text(errors="replace")
    summary = SUMMARY.findall(text)
    return rc == 0, took, FAILED.findall(text), summary[-1] if summary else f"exit {rc}, no pytest summary"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="how many runs in a row (default 5)")
    parser.add_argument(
        "--loaded", type=int, default=2, help="how many of them with one core busy (default 2)"
    )
    args = parser.parse_args()
    if not 1 <= args.runs <= 100 or not 0 <= args.loaded <= args.runs:
        parser.error("--runs must be 1..100 and --loaded between 0 and --runs")
    logs = ROOT / "test-artifacts" / "flaky"
    logs.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    print(
        f"{args.runs} runs of bash .ci/run from fresh clones of {head.stdout.strip()}, {args.loaded} under load"
    )
    rows, failures = [], Counter[str]()
    for k in range(1, args.runs + 1):
        loaded = k <= args.loaded
        ok, took, failed, summary = one_run(k, loaded, logs)
        failures.update(failed)
        rows.append((k, "one core busy" if loaded else "quiet", "green" if ok else "RED", took, summary))
        print(f"run {k}: {rows[-1][2]} in {took / 60:.1f} min ({rows[-1][1]}): {summary}", flush=True)
    print("\n| run | load | result | time | pytest |\n| --- | --- | --- | --- | --- |")
    for k, load, result, took, summary in rows:
        print(f"| {k} | {load} | {result} | {int(took) // 60} min {int(took) % 60:02d} s | {summary} |")
    if failures:
        print("\n| failed test | runs |\n| --- | --- |")
        for name, count in failures.most_common():
            print(f"| {name} | {count} of {args.runs} |")
    green = sum(r[2] == "green" for r in rows)
    print(f"\n{green} of {args.runs} green; logs in {logs.relative_to(ROOT)}")
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
