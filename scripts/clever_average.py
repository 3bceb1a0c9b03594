"""Average the weights of several snapshots of one Clever training run (stochastic weight averaging).

Usage: python scripts/clever_average.py OUT.npz RUN/snapshots/00400000.npz RUN/snapshots/00410000.npz ...

Each input is a run's snapshot or exported weights, or a checkpoint. They must come from the same run (the same
network shape, late enough that the weights sit in one basin); the result is written in the export format of
``dicehall train clever --export`` (float32 .npz), with the episodes of its inputs in its info.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from dicehall.clever import train as T
from dicehall.clever.kernel.features import COUNT
from dicehall.clever.master import load_weights


def _load(path: Path) -> tuple[list[np.ndarray], int]:
    with np.load(path) as data:
        checkpoint = "meta" in data
    if checkpoint:
        run = T.Run.load(path)
        return run.weights, run.episodes
    weights, info = load_weights(path)
    return weights, int(info.get("episodes", 0))


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    nets = [_load(Path(p)) for p in sys.argv[2:]]
    if len({tuple(w.shape for w in weights) for weights, _ in nets}) != 1:
        sys.exit("the inputs have different network shapes")
    mean = [np.mean([weights[i] for weights, _ in nets], axis=0) for i in range(len(T.WEIGHT_NAMES))]
    info = {
        "averaged_episodes": [episodes for _, episodes in nets],
        "episodes": max(episodes for _, episodes in nets),
        "features": COUNT,
    }
    arrays = {k: w.astype(np.float32) for k, w in zip(T.WEIGHT_NAMES, mean, strict=True)}
    np.savez_compressed(out, info=np.array(json.dumps(info)), **arrays)
    print(out)


if __name__ == "__main__":
    main()
