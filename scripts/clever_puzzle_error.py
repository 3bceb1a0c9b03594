"""How far the Clever puzzle evaluator's margin (best − second option, expected final points) is from the truth.

For a seeded sample of decisions from the miner's own mix of games (``dicehall/clever/puzzles.py``), each
evaluator's two top options are played on by ``bot:master``'s solo network (with its look-ahead) in every seat,
with fresh dice, ``--rollouts`` games each; the two options of a position share their dice seeds (common random
numbers: the noise of the difference is smaller than either mean's). The evaluator's error is the standard
deviation of (its difference − the rollouts' difference) over the sample, with the rollouts' own noise (the mean
of their squared standard errors) subtracted. Printed for the look-ahead evaluator the puzzles use and for the
analysis's plain afterstate values, overall and by table size.

    .venv/bin/python scripts/clever_puzzle_error.py --positions 200 --rollouts 200 --out /tmp/error.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from dicehall.clever.kernel import bridge as B
from dicehall.clever.master import LOOKAHEAD, load_weights
from dicehall.clever.puzzles import (
    MAX_OPTIONS,
    PLAYERS,
    Miner,
    PuzzleEvaluator,
    is_decision,
    position_json,
    state_from,
)
from dicehall.clever.state import CleverState
from dicehall.core.rng import game_rng


def sample_positions(
    count: int, seed: int, players: tuple[int, ...] = PLAYERS
) -> list[tuple[CleverState, int]]:
    """``count`` decisions (the real position, the game) drawn one in eight from the games of ``seed`` (the
    miner's mix of bots; table sizes drawn from ``players``)."""
    miner = Miner(margin=math.inf)
    pick = np.random.default_rng(seed)
    out: list[tuple[CleverState, int]] = []
    game = 0
    while len(out) < count:
        seats = miner.table(seed, game, players)
        dice = game_rng(seed, game)
        bot_rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, 1)))
        s = CleverState(miner.rules, len(seats))
        while not s.is_terminal() and len(out) < count:
            if s.is_chance_node():
                s.apply_action(s.sample_chance(dice))
                continue
            if is_decision(s) and 2 <= len(s.legal_actions()) <= MAX_OPTIONS and pick.random() < 1 / 8:
                out.append((s.clone(), game))
            s.apply_action(miner.bots[seats[s.current_player()]].choose(s, bot_rng))
        game += 1
    return out


def rollouts(s: CleverState, action: int, seeds: list[int], lookahead: bool = True) -> np.ndarray:
    """The mover's final points after ``action``, one game per seed, ``bot:master`` (solo network) in every seat
    (``lookahead=False``: without its look-ahead, 15 times faster)."""
    weights = load_weights()[0]
    mover = s.current_player()
    points = np.empty(len(seeds))
    for i, seed in enumerate(seeds):
        c = s.clone()
        c.apply_action(action)
        if not c.is_terminal():
            B.finish_master(c, np.random.default_rng(seed), weights, LOOKAHEAD.args() if lookahead else None)
        points[i] = c.sheets[mover].total()
    return points


def top_two(values: dict[int, float]) -> tuple[int, int, float]:
    ranked = sorted(values.items(), key=lambda kv: -kv[1])
    return ranked[0][0], ranked[1][0], ranked[0][1] - ranked[1][1]


def summary(rows: list[dict[str, Any]], name: str) -> dict[str, float]:
    gap = np.array([r[name]["diff"] - r[name]["rollout_diff"] for r in rows])
    noise = np.array([r[name]["rollout_se"] ** 2 for r in rows])
    var = float(gap.var(ddof=1) - noise.mean())
    return {
        "positions": len(rows),
        "gap_mean": round(float(gap.mean()), 3),
        "gap_sd": round(float(gap.std(ddof=1)), 3),
        "rollout_se_rms": round(float(math.sqrt(noise.mean())), 3),
        "error_sd": round(math.sqrt(max(var, 0.0)), 3),
        "best_confirmed": round(float(np.mean([r[name]["rollout_diff"] > 0 for r in rows])), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument(
        "--seed", type=int, default=1000, help="seed of the sampled games (the shipped batch uses 0)"
    )
    ap.add_argument("--players", default="1,2,3,4", help="table sizes sampled, e.g. 1 (solo only)")
    ap.add_argument("--plain-rollouts", action="store_true", help="play on without the look-ahead (faster)")
    ap.add_argument("--out", type=Path, default=None, help="write every position's figures here (JSON)")
    args = ap.parse_args()
    evaluators = {"lookahead": PuzzleEvaluator(lookahead=True), "plain": PuzzleEvaluator(lookahead=False)}
    rows: list[dict[str, Any]] = []
    columns = (TextColumn("positions"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as bar:
        task = bar.add_task("sample", total=args.positions)
        sample = sample_positions(args.positions, args.seed, tuple(int(x) for x in args.players.split(",")))
        for k, (real, game) in enumerate(sample):
            shown = state_from(position_json(real))
            seeds = [int(x) for x in np.random.SeedSequence((args.seed, k)).generate_state(args.rollouts)]
            points: dict[int, np.ndarray] = {}
            row: dict[str, Any] = {"game": game, "players": real.n, "round": real.round}
            for name, ev in evaluators.items():
                best, second, diff = top_two(ev.values(shown))
                for a in (best, second):
                    if a not in points:
                        points[a] = rollouts(real, a, seeds, not args.plain_rollouts)
                d = points[best] - points[second]  # paired by seed
                row[name] = {
                    "diff": round(diff, 3),
                    "rollout_diff": round(float(d.mean()), 3),
                    "rollout_se": round(float(d.std(ddof=1) / math.sqrt(len(d))), 3),
                }
            rows.append(row)
            bar.update(task, advance=1)
    report: dict[str, Any] = {"rollouts": args.rollouts, "lookahead_rollouts": not args.plain_rollouts}
    report["players"] = args.players
    report.update({name: summary(rows, name) for name in evaluators})
    for n in (1, 2, 3, 4):
        part = [r for r in rows if r["players"] == n]
        if len(part) >= 10:
            report[f"lookahead, {n} players"] = summary(part, "lookahead")
    for low in (4.0, 8.0):
        big = [r for r in rows if r["lookahead"]["diff"] >= low]
        if len(big) >= 10:
            report[f"lookahead, margin >= {low:g}"] = summary(big, "lookahead")
    for rounds in ((1, 2), (3, 4), (5, 6)):
        part = [r for r in rows if r["round"] in rounds]
        if len(part) >= 10:
            report[f"lookahead, rounds {rounds[0]}-{rounds[1]}"] = summary(part, "lookahead")
    print(json.dumps(report, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"report": report, "rows": rows}, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
