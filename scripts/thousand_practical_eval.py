"""Measure rules of thumb against ``bot:optimal`` (classic Dice 1000, two players): docs/strategy.md.

Usage: python scripts/thousand_practical_eval.py [--games 100000] [--seed 2026] [--bots practical,single:75:3,expert]
           [--jobs 1] [--json OUT]

Each bot plays ``--games`` games against ``bot:optimal``: game ``i`` has the dice of ``game_seed(seed, i)`` (as
``dicehall simulate`` draws them), the bot moves first in the even games and second in the odd ones. Printed per
bot: games won, the share with its Wilson 95 % interval, and the same per seat. ``single:T:F`` is the threshold
rule "bank at T, or with F dice or fewer" (``ThresholdBot``, as ``bot:cautious`` and ``bot:bold`` play);
``rule:T:F:C`` is ``bot:practical`` with other numbers (C = 880, the barrel: no "bank only onto the barrel").
``--jobs N`` splits the games over N processes (the same games, so the same result). Run niced.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dicehall.thousand  # noqa: F401  (registers the game)
from dicehall.core.agents import make_bot
from dicehall.core.game import get_game
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.core.stats import wilson_interval
from dicehall.thousand.bots import PracticalBot, ThresholdBot
from dicehall.thousand.practical import PRACTICAL, Rule
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.bot import OptimalBot

CHUNK = 500


def bot_of(spec: str, rules: ThousandRules) -> Any:
    if spec.startswith("single:"):
        _, threshold, few = spec.split(":")
        bot = ThresholdBot(rules)
        bot.threshold, bot.few_dice = int(threshold), int(few)
        return bot
    if spec.startswith("rule:"):
        _, threshold, few, climb = spec.split(":")
        return PracticalBot(rules, Rule(int(threshold), int(few), int(climb)))
    return make_bot("thousand", spec, rules)


def play(spec: str, seed: int, start: int, stop: int) -> list[int]:
    """Wins of the bot in games ``start``..``stop``: [first seat, second seat]."""
    rules = ThousandRules.from_preset("classic")
    bot, optimal = bot_of(spec, rules), OptimalBot(rules)
    game = get_game("thousand")
    wins = [0, 0]
    for i in range(start, stop):
        s = game_seed(seed, i)
        seat = i % 2
        state = game.new_initial_state(rules, 2)
        play_game(state, [bot, optimal] if seat == 0 else [optimal, bot], seeded_rng(s), agent_rng(s))
        wins[seat] += state.returns()[seat] > 0
    return wins


def share(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson_interval(wins, games)
    return {
        "wins": wins,
        "games": games,
        "share": round(wins / games, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bots", default="practical,single:25:2,expert")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--update",
        type=Path,
        help="merge the rows into this file (the shipped dicehall/thousand/data/practical.json)",
    )
    args = parser.parse_args()
    rows = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns) as bar, ProcessPoolExecutor(args.jobs) as pool:
        for spec in args.bots.split(","):
            task = bar.add_task(spec, total=args.games)
            parts = [
                pool.submit(play, spec, args.seed, a, min(a + CHUNK, args.games))
                for a in range(0, args.games, CHUNK)
            ]
            wins = [0, 0]
            for part in parts:
                first, second = part.result()
                wins[0] += first
                wins[1] += second
                bar.advance(task, CHUNK)
            seats = [(args.games + 1) // 2, args.games // 2]
            row = {
                "bot": spec,
                "seed": args.seed,
                **share(sum(wins), args.games),
                "first": share(wins[0], seats[0]),
                "second": share(wins[1], seats[1]),
            }
            rows.append(row)
            bar.console.print(json.dumps(row), markup=False, emoji=False, highlight=False)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    if args.update:
        update(args.update, rows, args)


def update(path: Path, rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Put ``rows`` into the shipped file, each with the command that makes it, replacing that bot's old row;
    the file names the rule's numbers (those of ``PRACTICAL`` now: a row of another rule is dropped)."""
    rule = PRACTICAL._asdict()
    data = json.loads(path.read_text()) if path.exists() else {}
    old = data.get("rows", []) if data.get("rule") == rule else []
    for row in rows:
        row["command"] = (
            f"python scripts/thousand_practical_eval.py --games {args.games} --seed {args.seed} "
            f"--bots {row['bot']} --update {path}"
        )
    kept = [r for r in old if r["bot"] not in {row["bot"] for row in rows}]
    data = {"rule": rule, "against": "optimal", "rows": kept + rows}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
