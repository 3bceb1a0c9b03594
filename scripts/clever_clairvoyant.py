"""The headroom above bot:master solo: a clairvoyant search that knows every future roll (docs/clever-training.md,
"Headroom").

At each decision every legal action is tried on a copy of the game and played to the end by the network's plain
argmax with the dice the game will really roll (a copy of the dice generator: roll k of the game shows the same
six faces whatever was chosen before it); the action with the best final score is played. That is a one-step
search over rollouts that see the future — a lower bound of what a player who knew all the dice could score,
far above any fair player. The same games (dice from ``game_seed(SEED, i)``) are played by bot:master's plain
argmax and with its look-ahead, so the differences are paired.

Usage: python scripts/clever_clairvoyant.py [--games 200] [--seed 8081] [--weights package] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1])
)  # the repository root, for tools/ (not installed)

from dicehall.clever import sheet as S
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel import search as SR
from dicehall.clever.master import LOOKAHEAD, load_weights
from dicehall.core.game import TERMINAL
from dicehall.core.rng import game_seed, seeded_rng


def _copy(rng: np.random.Generator) -> np.random.Generator:
    twin = np.random.Generator(type(rng.bit_generator)())
    twin.bit_generator.state = rng.bit_generator.state
    return twin


def _new() -> np.ndarray:
    return K.new_game(1, S.ROUNDS_BY_PLAYERS[1], True, True)


def clairvoyant(seed: int, weights: list[np.ndarray]) -> int:
    """The solo score of the clairvoyant search on the dice of ``seed``."""
    g, rng = _new(), seeded_rng(seed)
    out = np.empty(K.MAX_LEGAL, np.int64)
    while net.roll_to_decision(g, rng) != TERMINAL:
        k = K.legal(g, out)
        best, pick = -1, int(out[0])
        for a in out[:k].tolist():
            trial = g.copy()
            K.apply(trial, a)
            net.play_greedy(trial, _copy(rng), *weights)
            score = int(K.total(trial, 0))
            if score > best:
                best, pick = score, a
        K.apply(g, pick)
    return int(K.total(g, 0))


def plain(seed: int, weights: list[np.ndarray], lookahead: bool) -> int:
    g, rng = _new(), seeded_rng(seed)
    if lookahead:
        SR.play_search(g, rng, *weights, *LOOKAHEAD.args())
    else:
        net.play_greedy(g, rng, *weights)
    return int(K.total(g, 0))


def _ci(x: np.ndarray) -> list[float]:
    half = 1.96 * float(x.std(ddof=1)) / np.sqrt(x.size)
    return [round(float(x.mean()) - half, 2), round(float(x.mean()) + half, 2)]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=8081)
    parser.add_argument("--weights", default="package")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    weights = load_weights(None if args.weights == "package" else Path(args.weights))[0]
    rows = {"clairvoyant": [], "plain": [], "lookahead": []}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as bar:
        task = bar.add_task("clairvoyant games", total=args.games)
        for i in range(args.games):
            s = game_seed(args.seed, i)
            rows["clairvoyant"].append(clairvoyant(s, weights))
            rows["plain"].append(plain(s, weights, False))
            rows["lookahead"].append(plain(s, weights, True))
            bar.advance(task)
    x = {k: np.array(v, float) for k, v in rows.items()}
    out: dict[str, object] = {"games": args.games, "seed": args.seed, "weights": args.weights}
    for k, v in x.items():
        out[k] = {"mean": round(float(v.mean()), 2), "ci95": _ci(v), "sd": round(float(v.std(ddof=1)), 1)}
    for k in ("plain", "lookahead"):
        d = x["clairvoyant"] - x[k]
        out[f"clairvoyant_minus_{k}"] = {"mean": round(float(d.mean()), 2), "ci95": _ci(d)}
    # the low tail: is a bad game bad dice? the clairvoyant score on the dice of bot:master's worst tenth
    worst = x["lookahead"] <= np.quantile(x["lookahead"], 0.1)
    out["worst_tenth"] = {
        "games": int(worst.sum()),
        "lookahead_mean": round(float(x["lookahead"][worst].mean()), 2),
        "clairvoyant_mean": round(float(x["clairvoyant"][worst].mean()), 2),
        "clairvoyant_mean_other_games": round(float(x["clairvoyant"][~worst].mean()), 2),
    }
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps({**out, "per_game": rows}, indent=1))


if __name__ == "__main__":
    main()
