"""Write the compact classic table shipped in the package, from the exact table solved on this machine, and measure it.

Usage:
  python scripts/thousand_ship_table.py [--out PATH] [--bits 16] [--measure] [--games N] [--movers K]

Needs the exact classic table in the user data directory (``dicehall solve thousand --preset classic``). Writes
``dicehall/thousand/solver/data/classic.npz`` by default (``dicehall solve thousand --preset classic
--export-compact PATH`` writes the same file). With ``--measure`` it also reports, against the exact table: the
values' largest and mean error, the decisions (bank or roll) that the compact table makes differently at every
decision point of every ``K``-th mover state (all opponents, all turn totals and dice in hand), and the same over
the decisions met in ``N`` games of ``optimal`` against itself, with the win % the differing decisions lose.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import compact, kernel
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.solve import Table, load_table
from dicehall.thousand.solver.space import Space, dice_table, turn_tables
from dicehall.thousand.state import ThousandState

Values = npt.NDArray[np.floating[Any]]


def roll_values(
    space: Space, C: Values, Z: Values, m: int, points: list[tuple[int, int, int]]
) -> list[float]:
    """The value of rolling at each (turn step, dice, lane) of ``points`` (``C``: the exact turn of mover ``m``)."""
    d = dice_table(space.rules)
    top = int(space.top[m])
    out = []
    for t, n, j in points:
        acc = d.zero[n] * Z[j]
        for g in range(d.first[n], d.first[n + 1]):
            acc += d.prob[g] * C[min(t + int(d.step[g]), top), int(d.left[g]), j]
        out.append(float(acc))
    return out


def all_decisions(space: Space, exact: Values, approx: Values, every: int) -> dict[str, Any]:
    """Bank/roll at every decision point of every ``every``-th mover (all opponents): agreement and loss."""
    tables = turn_tables(space, dice_table(space.rules))
    size, tmax = space.size, int(space.top.max())
    C = np.empty((tmax + 1, 6, size))
    B = np.empty((tmax + 1, size))
    Cq, Bq = np.empty_like(C), np.empty_like(B)
    points = differ = 0
    losses: list[float] = []
    for m in range(0, size, every):
        kernel.turn(m, 0, size, exact, C, B, tables)
        kernel.turn(m, 0, size, approx, Cq, Bq, tables)
        top = int(space.top[m])
        bankable = B[: top + 1, None, :] >= 0
        roll_e = C[: top + 1, 1:, :] > B[: top + 1, None, :]
        roll_q = Cq[: top + 1, 1:, :] > Bq[: top + 1, None, :]
        mask = np.broadcast_to(bankable, roll_e.shape)
        points += int(mask.sum())
        bad = np.argwhere(mask & (roll_e != roll_q))
        differ += len(bad)
        if len(bad):
            Z = 1.0 - exact[space.burn_next[m], :].astype(np.float64)
            pts = [(int(t), int(n) + 1, int(j)) for t, n, j in bad]
            rolls = roll_values(space, C, Z, m, pts)
            losses += [abs(r - float(B[t, j])) for (t, _, j), r in zip(pts, rolls, strict=True)]
    return {
        "movers": len(range(0, size, every)),
        "decision_points": points,
        "differing": differ,
        "agreement": 1 - differ / points,
        "loss_max_pct": 100 * max(losses, default=0.0),
        "loss_mean_pct_over_differing": 100 * float(np.mean(losses)) if losses else 0.0,
        "loss_mean_pct_over_all": 100 * sum(losses) / points,
    }


def game_decisions(rules: ThousandRules, exact: Table, approx: Table, games: int) -> dict[str, Any]:
    """Decisions met in ``games`` games of exact optimal against itself: those the compact table makes otherwise."""
    ref, other = OptimalBot(rules, exact), OptimalBot(rules, approx)
    seen = {"decisions": 0, "differing": 0}
    losses: list[float] = []

    class Checker:
        """Plays the exact table's decision and asks the compact table too."""

        def choose(self, state: Any, rng: np.random.Generator) -> Any:
            action = ref.choose(state, rng)
            if state.pending_roll is None and not state.hot_dice and state.turn_total >= state.min_bank():
                seen["decisions"] += 1
                if other.choose(state, rng) != action:
                    seen["differing"] += 1
                    tv = ref.turn_values(state)
                    bank = tv.bank(state.turn_total) or 0.0
                    roll = tv.roll(state.turn_total, state.in_hand)
                    losses.append(abs(roll - bank))
            return action

    checker = Checker()
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(16, i)
        play_game(ThousandState(rules, 2), [checker, checker], seeded_rng(s), agent_rng(s))
    n = seen["decisions"]
    return {
        "games": games,
        "decisions": n,
        "differing": seen["differing"],
        "agreement": 1 - seen["differing"] / max(n, 1),
        "loss_max_pct": 100 * max(losses, default=0.0),
        "loss_pct_per_game": 100 * sum(losses) / games,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=compact.shipped_path())
    ap.add_argument("--bits", type=int, default=compact.DEFAULT_BITS)
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--movers", type=int, default=10, help="measure every K-th mover state (1: all)")
    args = ap.parse_args()
    rules = ThousandRules.from_preset("classic")
    exact = load_table(rules)
    if exact is None:
        sys.exit("no exact classic table here: run `dicehall solve thousand --preset classic` first")
    header = compact.export(exact.space, exact.values, exact.info, args.out, bits=args.bits)
    report: dict[str, Any] = {k: header[k] for k in ("path", "bytes", "bits", "max_error", "mean_error")}
    timings = []
    for _ in range(3):
        t0 = time.perf_counter()
        values, _ = compact.decode(args.out, exact.space)
        timings.append(1000 * (time.perf_counter() - t0))
    report["decode_ms"] = round(min(timings), 1)
    s = exact.space.start
    report["first_player_exact"] = exact.value(s, s)
    report["first_player_compact"] = float(values[s, s])
    if args.measure:
        approx = Table(exact.space, values, exact.info)
        report["all_decisions"] = all_decisions(exact.space, exact.values, values, args.movers)
        report["game_decisions"] = game_decisions(rules, exact, approx, args.games)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
