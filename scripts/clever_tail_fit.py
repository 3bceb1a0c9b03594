"""Where bot:master's value is off, by the fox product: its solo games' chosen afterstates with the network's
value and the game's final score (docs/clever-training.md, "The low tail").

Usage: python scripts/clever_tail_fit.py [--games 1000] [--seed 9301] [--out rows.npz] [--rows rows.npz]

Each row: rounds left, foxes, each area's points, the network's value and the final score (points). Prints the
mean residual (final − value) by foxes × lowest area and rounds left, and a least-squares fit of the residual on
the low-tail terms. Play is bot:master's (look-ahead 24 : 3 : 2), in the kernel.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel import search as SR
from dicehall.clever.kernel.layout import FOX, ROUND, ROUNDS, SHEETS
from dicehall.clever.master import LOOKAHEAD, load_weights
from dicehall.clever.rules import CleverRules
from dicehall.core.game import TERMINAL
from dicehall.core.rng import game_seed, seeded_rng

AREAS = ("yellow", "blue", "green", "orange", "purple")


def rows_of_game(seed: int, weights: list[np.ndarray]) -> list[list[float]]:
    g = B.new_array(CleverRules.from_preset(), 1)
    rng = seeded_rng(seed)
    out, values = net.decision_scratch()
    x, a1, a2 = net.value_scratch(weights[1], weights[3])
    rows = []
    while net.roll_to_decision(g, rng) != TERMINAL:
        pick = SR.choose_search(g, *weights, out, values, *LOOKAHEAD.args())
        K.apply(g, out[pick])
        if g[4] == K.PH_OVER:
            continue
        v = net.afterstate_value(g, 0, *weights, x, a1, a2) * net.SCALE
        areas = [K.area_score(g, 0, a) for a in range(5)]
        rows.append([g[ROUNDS] - g[ROUND] + 1, g[SHEETS + FOX], *areas, v])
    final = K.total(g, 0)
    return [[*r, final] for r in rows]


def report(rows: np.ndarray) -> None:
    left, fox, areas, v, z = rows[:, 0], rows[:, 1], rows[:, 2:7], rows[:, 7], rows[:, 8]
    low = areas.min(axis=1)
    res = z - v
    print(f"{len(rows)} afterstates, mean residual (final − value) {res.mean():+.2f} (sd {res.std():.1f})")
    for r in range(6, 0, -1):
        on = left == r
        shares = " ".join(f"{AREAS[a]} {np.mean(areas[on].argmin(axis=1) == a):.0%}" for a in range(5))
        print(f"rounds left {r}: foxes {fox[on].mean():.2f}; lowest area: {shares}")
        if r > 3:
            continue
        for f in range(6):
            cells = []
            for lo, hi in ((0, 10), (10, 20), (20, 30), (30, 999)):
                m = on & (fox == f) & (low >= lo) & (low < hi)
                if m.sum() >= 100:
                    se2 = 2 * res[m].std() / np.sqrt(m.sum())
                    cells.append(f"lowest {lo}-{min(hi, 99)}: {res[m].mean():+5.1f} ± {se2:.1f} ({m.sum()})")
            if cells:
                print(f"  {f} foxes  " + " | ".join(cells))
    terms = {
        "low": low,
        "foxes": fox,
        "foxes*low": fox * low,
        "low*left": low * left,
        "2nd-low − low": np.sort(areas, axis=1)[:, 1] - low,
    }
    a = np.column_stack([np.ones(len(rows)), *terms.values()])
    coef, *_ = np.linalg.lstsq(a, res, rcond=None)
    print("fit of the residual:", {k: round(float(c), 3) for k, c in zip(["1", *terms], coef, strict=True)})
    print(f"residual sd {res.std():.2f} → {(res - a @ coef).std():.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=9301)
    parser.add_argument("--out", type=Path, help="keep the rows (.npz)")
    parser.add_argument("--rows", type=Path, help="report on rows kept before instead of playing")
    args = parser.parse_args()
    if args.rows:
        rows = np.load(args.rows)["rows"]
    else:
        weights = load_weights()[0]
        rows = np.array(
            [r for i in range(args.games) for r in rows_of_game(game_seed(args.seed, i), weights)]
        )
    if args.out:
        np.savez_compressed(args.out, rows=rows)
    report(rows)


if __name__ == "__main__":
    main()
