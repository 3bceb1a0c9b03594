"""bot:master at tables of 2–4 against ``expert`` and against other weights (the shipped ones by default),
the candidate's seat rotating over every position; win shares with Wilson 95 % intervals (docs/clever-training.md).

Usage: python scripts/clever_table_eval.py --weights RUN/best.npz [--against expert,package] [--seats 2,3,4]
           [--games 120] [--seed 6007] [--lookahead 24:3:2:exact=20000|off] [--json OUT]

``package`` names the shipped weights (as opponents they play as ``bot:master`` does, with the same look-ahead as
the candidate). Use a games count that is a multiple of 12, so that every seat is played equally often.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1])
)  # the repository root, for tools/ (not installed)

from dicehall.clever.bots import ExpertAgent
from dicehall.clever.master import MasterAgent
from dicehall.clever.rules import CleverRules
from dicehall.core.agents import Agent
from tools.master_eval import master_agent, parse_lookahead, table_games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--weights", default="package")
    parser.add_argument("--against", default="expert,package")
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=6007)
    parser.add_argument("--lookahead", default="24:3:2:exact=20000")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    look = parse_lookahead(args.lookahead)

    def master(name: str) -> MasterAgent:
        return master_agent(name, look)

    candidate = master(args.weights)
    rows = []
    for against in args.against.split(","):
        opponent: Agent = ExpertAgent(CleverRules.from_preset()) if against == "expert" else master(against)
        for n in (int(x) for x in args.seats.split(",")):
            row = {
                "weights": args.weights,
                "against": against,
                **table_games(candidate, opponent, n, args.games, args.seed),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
