"""The Clever strategy page's figures: ``bot:master``'s own games, summarised (docs/strategy.md, "Clever").

Usage: python scripts/clever_strategy.py [--games 2000] [--tables 400] [--seed 2031] [--work DIR] [--out PATH]

Plays ``--games`` solo games and ``--tables`` games at each table of 2, 3 and 4 (game ``i``: the dice of
``game_seed(SEED, i)``), one game's numbers a line in ``WORK/players-N-seed-S.jsonl``; a run stopped part way goes
on from where it stopped. Then writes the summary (``dicehall/clever/data/strategy.json`` by default).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from dicehall.clever.master import MasterAgent
from dicehall.clever.strategy import DEFAULT_SEED, observe_game, summarise

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                game = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by a stopped run: played again
                continue
            done[game["index"]] = game
    return done


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000, help="solo games")
    parser.add_argument("--tables", type=int, default=400, help="games at each table of 2, 3 and 4")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--work", type=Path, default=ROOT / ".cache" / "clever-strategy")
    parser.add_argument("--out", type=Path, default=ROOT / "dicehall" / "clever" / "data" / "strategy.json")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    agent = MasterAgent()
    sizes = {1: args.games, 2: args.tables, 3: args.tables, 4: args.tables}
    by_players: dict[int, list[dict[str, Any]]] = {}
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()
    ) as bar:
        for players, count in sizes.items():
            path = args.work / f"players-{players}-seed-{args.seed}.jsonl"
            done = _load(path)
            task = bar.add_task(
                f"{players} player(s)", total=count, completed=sum(i in done for i in range(count))
            )
            with path.open("a", encoding="utf-8") as out:
                for i in range(count):
                    if i in done:
                        continue
                    done[i] = observe_game(args.seed, i, players, agent)
                    out.write(json.dumps(done[i], separators=(",", ":")) + "\n")
                    out.flush()
                    bar.advance(task)
            by_players[players] = [done[i] for i in range(count)]
    command = (
        f"python scripts/clever_strategy.py --games {args.games} --tables {args.tables} --seed {args.seed}"
    )
    data = summarise(by_players, args.seed, command)
    args.out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{args.out}: {args.out.stat().st_size / 1024:.1f} KB", file=sys.stderr)


if __name__ == "__main__":
    main()
