"""Join several Clever value networks into one whose value is the mean of theirs (an ensemble that plays as one net).

Usage: python scripts/clever_ensemble.py [--solo] OUT.npz A.npz B.npz ...

Each input is exported weights (``dicehall train clever --export``, ``scripts/clever_average.py``) of any run and
hidden sizes; the output, in the same float32 format, has their hidden layers side by side (see
``dicehall.clever.kernel.net.ensemble``) and the inputs' info under ``members``. ``--solo``: the members were trained in solo games only, which never set the "players - 1" input;
its row is set to zero so that it feeds no untrained noise into 2-4 player games.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from dicehall.clever.kernel import net
from dicehall.clever.kernel.features import COUNT, NAMES
from dicehall.clever.master import WEIGHT_NAMES, load_weights


def main() -> None:
    args = sys.argv[1:]
    solo = "--solo" in args
    args = [a for a in args if a != "--solo"]
    if len(args) < 3:
        sys.exit(__doc__)
    out = Path(args[0])
    members = [load_weights(Path(p)) for p in args[1:]]
    joined = net.ensemble([weights for weights, _ in members])
    if solo:
        joined[0][NAMES.index("players - 1")] = 0.0
    info = {
        "episodes": sum(int(info.get("episodes", 0)) for _, info in members),
        "features": COUNT,
        "members": [info for _, info in members],
    }
    arrays = {k: w.astype(np.float32) for k, w in zip(WEIGHT_NAMES, joined, strict=True)}
    np.savez_compressed(out, info=np.array(json.dumps(info)), **arrays)
    print(out)


if __name__ == "__main__":
    main()
