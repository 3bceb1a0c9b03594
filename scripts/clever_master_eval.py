"""bot:master on held-out solo games: figures per setting and paired differences (docs/clever-training.md).

Usage: python scripts/clever_master_eval.py [--weights A.npz,B.npz] [--games 1000] [--seed 2029]
           [--lookahead off,24:3:2,24:3:2:exact=20000,24:3:2:risk=0.25] [--json OUT] [--scores OUT.npz]

Every combination of weights and look-ahead (ROLLS:MARGIN:WIDTH[:all][:low=B[/R]][:wide=M/W[/R]][:risk=K][:deep=R[/M[/O]]][:exact=C[/roll]], or off;
the options are `Lookahead`'s, docs/clever-training.md; bot:master plays 24:3:2:exact=20000) plays the same games; the first one is
the reference of the paired differences (the mean's with a normal 95 % interval; p10's and the worst tenth's
with a paired bootstrap). ``package`` names the shipped weights.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1])
)  # the repository root, for tools/ (not installed)

from tools.master_eval import master_agent, paired, paired_tail, parse_lookahead, solo_games, summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--weights", default="package")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--lookahead", default="off,24:3:2:exact=20000")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--scores", type=Path, help="every setting's per-game scores (.npz), for pooling sets"
    )
    args = parser.parse_args()
    per_game = {}
    rows = []
    reference = None
    for name in args.weights.split(","):
        for spec in args.lookahead.split(","):
            scores, stats, ms = solo_games(master_agent(name, parse_lookahead(spec)), args.games, args.seed)
            row = {"weights": name, "lookahead": spec, **summary(scores, stats, ms)}
            per_game[f"{name} {spec}"] = scores
            if reference is None:
                reference = scores
            else:
                row["diff"], row["diff_ci95"] = (round(v, 2) for v in paired(scores, reference))
                row["tail_diff"] = paired_tail(scores, reference)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    if args.scores:
        np.savez(args.scores, **per_game)


if __name__ == "__main__":
    main()
