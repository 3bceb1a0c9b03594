"""Fit the practical rule of Dice 1000 (classic, two players) to the solved table (docs/strategy.md).

Usage: python scripts/thousand_practical_fit.py [--dir build/practical-fit] [--games 4000] [--seed 26]
           [--confirm-games 4000] [--top 8]

The measure: a rule's *regret*, the win chance it gives away against ``bot:optimal`` — at each of its free
roll-or-bank decisions, the solved table's win chance of the best choice minus that of the rule's choice (both
playing on optimally). Summed over a game and averaged over games it is exactly the rule's loss of win chance
against ``bot:optimal`` (against an optimal opponent the table's values are the best reply's), and it varies far
less from game to game than a win does: a few thousand games rank rules that a million wins could not.

1. *Probe positions*: games of the probe (``PRACTICAL``, the form's numbers from an earlier run) against
   ``bot:optimal``, both seats, every free decision kept with the table's win chance of rolling on and of
   banking. Saved per block of games: an interrupted run goes on from there.
2. *Grid*: every combination of numbers of each family (the single "bank at T" threshold of ``ThresholdBot``,
   and the practical rule of three numbers: threshold, few dice, climb) scored on those positions (a first-order estimate: the positions are
   the probe's).
3. *Confirm*: the best ``--top`` of each family play ``--confirm-games`` games of their own against
   ``bot:optimal`` (other seeds, never the measuring seed of ``thousand_practical_eval.py``); their regret per
   game is measured on their own decisions (what the first-order grid cannot see: a rule that rolls where the
   probe banked meets positions the probe never did).
4. *Search*: from the best confirmed practical rule, a local search on those measured regrets (each number one
   step up or down: threshold 25, few dice 1, climb 5) until no neighbour is better.
Results are appended to ``confirm.jsonl``: a candidate already there is not played again.

Run niced (``nice -n 15``): it uses one core.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dicehall.thousand  # noqa: F401  (registers the game)
from dicehall.core.agents import Agent
from dicehall.core.game import State, get_game
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand.bots import PracticalBot, ThresholdBot
from dicehall.thousand.practical import Rule
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.policy import TurnValues
from dicehall.thousand.state import ROLL, ThousandState

BLOCK = 250
PROBE = Rule(threshold=100, few=3, climb=850)  # the form's numbers from an earlier run
FIELDS = ("mover", "opponent", "t", "n", "me", "opp", "rolled", "game", "roll", "bank")

Arr = npt.NDArray[Any]


def progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=False,
    )


class Recorder(Agent):
    """Plays ``bot`` and notes each free roll-or-bank decision: the table's position and the choice made."""

    def __init__(self, bot: Any, optimal: OptimalBot, rows: list[tuple[int, ...]]) -> None:
        self.bot, self.optimal, self.rows = bot, optimal, rows
        self.game = 0  # the game's number, kept with its decisions

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        action = self.bot.choose(state, rng)
        m = state.rules.max_rolls
        if (
            state.pending_roll is None
            and not state.hot_dice
            and state.turn_total >= state.min_bank()
            and not (m and state.free_rolls >= m)
        ):
            me, opp = state.score[state.player], state.score[1 - state.player]
            mover, opponent = self.optimal.position(state)
            self.rows.append(
                (mover, opponent, state.turn_total, state.in_hand, me, opp, action == ROLL, self.game)
            )
        return action


def game_agents(index: int, bot: Any, optimal: OptimalBot) -> tuple[list[Any], int]:
    """Even games: the bot moves first; odd: second. Returns the seats and the bot's seat."""
    return ([bot, optimal], 0) if index % 2 == 0 else ([optimal, bot], 1)


def collect(rules: ThousandRules, out: Path, games: int, seed: int, bot: Any, tag: str) -> Arr:
    """The free decisions of ``bot`` in ``games`` games against ``bot:optimal``: the columns of ``FIELDS``."""
    optimal = OptimalBot(rules)
    game = get_game("thousand")
    blocks = range(0, games, BLOCK)
    with progress() as bar:
        task = bar.add_task(f"{tag}: games", total=games)
        for start in blocks:
            path = out / f"decisions-{tag}-{seed}-{start:06d}.npz"
            if path.exists():
                bar.advance(task, BLOCK)
                continue
            rows: list[tuple[int, ...]] = []
            probe = Recorder(bot, optimal, rows)
            for i in range(start, min(start + BLOCK, games)):
                s = game_seed(seed, i)
                probe.game = i
                agents, _ = game_agents(i, probe, optimal)
                play_game(game.new_initial_state(rules, 2), agents, seeded_rng(s), agent_rng(s))
                bar.advance(task)
            np.savez(path, rows=np.array(rows, dtype=np.int64))
        parts = [np.load(out / f"decisions-{tag}-{seed}-{s:06d}.npz")["rows"] for s in blocks]
        rows_all = np.concatenate(parts)
        # the table's values, one turn's arithmetic per (mover, opponent)
        keys, inverse = np.unique(rows_all[:, :2], axis=0, return_inverse=True)
        inverse = inverse.ravel()
        roll = np.empty(len(rows_all))
        bank = np.empty(len(rows_all))
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(keys) + 1))
        task = bar.add_task(f"{tag}: values", total=len(keys))
        table = optimal.table
        for k, (mover, opponent) in enumerate(keys):
            tv = TurnValues(table.space, table.values, int(mover), int(opponent))
            for j in order[bounds[k] : bounds[k + 1]]:
                t, n = int(rows_all[j, 2]), int(rows_all[j, 3])
                roll[j] = tv.roll(t, n)
                b = tv.bank(t)
                bank[j] = -1.0 if b is None else b
            bar.advance(task)
    keep = bank >= 0
    data = np.column_stack([rows_all, roll, bank])[keep]
    bar.stop()
    bar.console.print(
        f"{tag}: {len(data):,} free decisions in {games:,} games ({len(keys):,} turn positions)"
    )
    return data


BARREL, DUMP = 880, 555


def rolls_single(t: Arr, n: Arr, me: Arr, opp: Arr, threshold: int, few: int) -> Arr:
    """``ThresholdBot``: bank at ``threshold``, or with ``few`` dice or fewer."""
    return (n > few) & (t < threshold)


def rolls_practical(t: Arr, n: Arr, me: Arr, opp: Arr, threshold: int, few: int, climb: int) -> Arr:
    """``PracticalBot`` (:meth:`Rule.rolls` on arrays, with the dump truck)."""
    below: Arr = (me >= climb) & (me + t < BARREL)
    rolls: Arr = below | rolls_single(t, n, me, opp, threshold, few) | (me + t == DUMP)
    return rolls


FAMILIES: dict[str, tuple[Callable[..., Arr], dict[str, list[int]]]] = {
    "single": (rolls_single, {"threshold": list(range(0, 701, 25)), "few": [0, 1, 2, 3]}),
    "practical": (
        rolls_practical,
        {"threshold": list(range(25, 401, 25)), "few": [1, 2, 3], "climb": list(range(700, 881, 10))},
    ),
}


def lost_per_game(data: Arr, games: int, rolls: Arr) -> float:
    """Win chance given away (in points of %) per game at these decisions by rolling where ``rolls`` says."""
    me, roll, bank = data[:, 4], data[:, 8], data[:, 9]
    rolls = rolls & (me < BARREL)  # on the barrel: the win
    chosen = np.where(rolls, roll, bank)
    return float(100 * (np.maximum(roll, bank) - chosen).sum() / games)


def grid(data: Arr, games: int, top: int) -> dict[str, list[dict[str, Any]]]:
    t, n, me, opp = data[:, 2], data[:, 3], data[:, 4], data[:, 5]
    result: dict[str, list[dict[str, Any]]] = {}
    for name, (family, axes) in FAMILIES.items():
        scored = []
        for values in itertools.product(*axes.values()):
            params = dict(zip(axes, values, strict=True))
            scored.append((lost_per_game(data, games, family(t, n, me, opp, **params)), params))
        scored.sort(key=lambda x: x[0])
        result[name] = [{"params": p, "lost_per_game": round(v, 3)} for v, p in scored[:top]]
        for item in result[name]:
            print(name, item)
    return result


def make_bot(rules: ThousandRules, family: str, params: dict[str, int]) -> Any:
    if family == "single":
        bot = ThresholdBot(rules)
        bot.threshold, bot.few_dice = params["threshold"], params["few"]
        return bot
    return PracticalBot(rules, Rule(**params))


def regret_per_game(data: Arr, games: int) -> tuple[float, float]:
    """The mean win chance (points of %) the recorded choices gave away per game, and its standard error."""
    rolled, roll, bank = data[:, 6] > 0, data[:, 8], data[:, 9]
    lost = np.maximum(roll, bank) - np.where(rolled, roll, bank)
    per_game = np.bincount(data[:, 7].astype(np.int64), weights=lost, minlength=games) * 100
    return float(per_game.mean()), float(per_game.std(ddof=1) / np.sqrt(games))


STEPS = {"threshold": 25, "few": 1, "climb": 5}
"""The local search's steps (``--search``)."""


class Judge:
    """Each candidate's own games against ``bot:optimal`` and its regret per game, kept in ``confirm.jsonl``."""

    def __init__(self, rules: ThousandRules, out: Path, games: int, seed: int) -> None:
        self.rules, self.out, self.games, self.seed = rules, out, games, seed
        self.path = out / "confirm.jsonl"
        self.done: dict[tuple[str, str], dict[str, Any]] = {}
        if self.path.exists():
            for text in self.path.read_text().splitlines():
                row = json.loads(text)
                if (row["games"], row["seed"]) == (games, seed):
                    self.done[row["family"], json.dumps(row["params"], sort_keys=True)] = row

    def __call__(self, family: str, params: dict[str, int], estimate: float | None = None) -> dict[str, Any]:
        key = (family, json.dumps(params, sort_keys=True))
        if key in self.done:
            return self.done[key]
        tag = family + "-" + "-".join(str(v) for v in params.values())
        data = collect(self.rules, self.out, self.games, self.seed, make_bot(self.rules, family, params), tag)
        mean, se = regret_per_game(data, self.games)
        row = {
            "family": family,
            "params": params,
            "games": self.games,
            "seed": self.seed,
            "regret_per_game": round(mean, 3),
            "se": round(se, 3),
            "probe_estimate": estimate,
        }
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
        self.done[key] = row
        return row


def confirm(judge: Judge, best: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [
        judge(family, item["params"], item["lost_per_game"])
        for family, items in best.items()
        for item in items
    ]


def search(judge: Judge, family: str, start: dict[str, int]) -> dict[str, Any]:
    """From ``start``, move to the best neighbour (each number one step up or down) while one is better."""
    axes = FAMILIES[family][1]
    here = judge(family, start)
    while True:
        near = []
        for name, step in STEPS.items():
            for sign in (-1, 1):
                params = {**here["params"], name: here["params"][name] + sign * step}
                if min(axes[name]) <= params[name] <= max(axes[name]):
                    near.append(judge(family, params))
        best = min(near, key=lambda r: r["regret_per_game"])
        if best["regret_per_game"] >= here["regret_per_game"]:
            return here
        here = best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dir", type=Path, default=Path("build/practical-fit"))
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--confirm-games", type=int, default=4000)
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    rules = ThousandRules.from_preset("classic")
    probe = "probe-" + "-".join(str(v) for v in PROBE)
    data = collect(rules, args.dir, args.games, args.seed, PracticalBot(rules, PROBE), probe)
    best = grid(data, args.games, args.top)
    (args.dir / "grid.json").write_text(json.dumps(best, indent=1))
    if args.confirm_games:
        judge = Judge(rules, args.dir, args.confirm_games, args.seed + 1)
        rows = confirm(judge, best)
        top = min((r for r in rows if r["family"] == "practical"), key=lambda r: r["regret_per_game"])
        found = search(judge, "practical", top["params"])
        print("search ends at", found["params"], found["regret_per_game"])
        rows = list(judge.done.values())
        for row in sorted(rows, key=lambda r: r["regret_per_game"]):
            print(
                row["family"],
                row["params"],
                f"{row['regret_per_game']:.2f} ± {1.96 * row['se']:.2f} % a game",
            )


if __name__ == "__main__":
    main()
