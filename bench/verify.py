"""Dice anyone can verify (docs/fair-dice.md): how long ``verify_record`` takes per 1,000 chance events, by game, on
records made through the table manager (``tools/fairgames.py``: a SQLite store, the manager's own dice). Der große
Wurf's live tables throw with the MuJoCo arena, so its check recomputes each throw's physics.

``run(quick=False) -> dict``; run alone with ``python -m bench.verify [--quick]``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dicehall.core.fairdice import verify_record
from tools.fairgames import manager_on, play_table

GAMES = {"thousand": 20, "clever": 40, "wurf": 20}
"""Records per game (a Dice 1000 game has ~600 rolls, Clever ~35, a Wurf game ~25 throws)."""


def run(quick: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, manager_on(Path(tmp) / "verify.sqlite") as manager:
        for game, n in GAMES.items():
            records = [
                manager.record(play_table(manager, game, seed=i))
                for i in range(max(2, n // 5) if quick else n)
            ]
            rolls = 0
            start = time.perf_counter()
            for record in records:
                verdict = verify_record(record)
                assert verdict.ok, (game, verdict)
                rolls += verdict.rolls
            seconds = time.perf_counter() - start
            out[f"verify_{game}_rolls"] = rolls
            out[f"verify_{game}_s_per_1000_rolls"] = round(seconds / rolls * 1000, 4)
    return out


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv[1:]), indent=1))
