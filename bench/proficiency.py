"""The bots' own proficiency figures, on which the bands of ``dicehall/core/proficiency.py`` are set.

Each bot plays ``--games`` seeded games (Dice 1000: classic against ``bot:optimal``, seats alternating, win %
from the shipped table; Clever: two players against ``bot:master``, seats alternating, expected points from
``bot:master``'s value) and every game is analysed; a bot's figure is its mean loss per decision over all its
decisions (each decision weighs the same, as in a player's own figure), with a 95 % interval over games.

    python -m bench.proficiency thousand --games 200 --seed 1
    python -m bench.proficiency clever --games 200 --seed 1
    python -m bench.proficiency thousand --preset classic-nobarrel --against expert --bots expert,cautious,bold,random

(``classic-nobarrel`` has no table here: the analysis is in turn points, the bands of that unit.)
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dicehall.core.agents import make_bot
from dicehall.core.analysis import analyze, evaluator_for
from dicehall.core.game import get_game
from dicehall.core.proficiency import band
from dicehall.core.record import GameRecord
from dicehall.core.rules import RuleSet

BOTS = {
    "thousand": ["optimal", "expert", "cautious", "bold", "random"],
    "clever": ["master", "expert", "greedy", "random"],
}
OPPONENT = {"thousand": "optimal", "clever": "master"}


def play(game: str, rules: RuleSet, bots: list[str], rng: np.random.Generator) -> GameRecord:
    agents = [make_bot(game, b, rules) for b in bots]
    state = get_game(game).new_initial_state(rules, len(bots))
    record = GameRecord.start(game, rules, bots)
    while not state.is_terminal():
        seat = state.current_player()
        action = state.sample_chance(rng) if seat < 0 else agents[seat].choose(state, rng)
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record


def measure(
    game: str, bot: str, games: int, seed: int, preset: str | None = None, against: str | None = None
) -> dict[str, float]:
    rules = get_game(game).rules_type.from_preset(preset)
    opponent = against or OPPONENT[game]
    evaluator = evaluator_for(game, rules, 2)
    rng = np.random.default_rng([seed, BOTS[game].index(bot)])
    loss = 0.0
    decisions = 0
    per_game: list[float] = []
    for i in range(games):
        seat = i % 2
        bots = [bot, opponent] if seat == 0 else [opponent, bot]
        totals = analyze(play(game, rules, bots, rng), evaluator).totals[seat]
        loss += totals.loss
        decisions += totals.decisions
        if totals.decisions:
            per_game.append(totals.mean_loss)
    mean = loss / decisions
    sd = float(np.std(per_game, ddof=1)) if len(per_game) > 1 else 0.0
    return {"mean": mean, "half": 1.96 * sd / math.sqrt(len(per_game)), "decisions": decisions / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(BOTS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="", help="comma-separated (default: all of the game's)")
    parser.add_argument("--preset", default=None, help="the rules (default: the game's default preset)")
    parser.add_argument("--against", default=None, help="the opponent bot (default: the game's best)")
    args = parser.parse_args()
    evaluator = evaluator_for(args.game, get_game(args.game).rules_type.from_preset(args.preset), 2)
    unit = {"win%": "win-% points", "points": "points"}[evaluator.unit]
    against = args.against or OPPONENT[args.game]
    print(
        f"{args.game} ({args.preset or 'default rules'}) against bot:{against}: mean loss per decision ({unit}),"
        f" {args.games} games per bot, seed {args.seed}"
    )
    for bot in args.bots.split(",") if args.bots else BOTS[args.game]:
        t0 = time.perf_counter()
        m = measure(args.game, bot, args.games, args.seed, args.preset, args.against)
        said = band(args.game, evaluator.unit, m["mean"])
        print(
            f"  bot:{bot:9} {m['mean']:8.3f} ± {m['half']:.3f}  ({m['decisions']:.1f} decisions a game)"
            f"  band {said}  [{time.perf_counter() - t0:.0f} s]",
            flush=True,
        )


if __name__ == "__main__":
    main()
