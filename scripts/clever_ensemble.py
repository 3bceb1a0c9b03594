"""Join several Clever value networks into one whose value is the mean of theirs (an ensemble that plays as one net).

Usage: python scripts/clever_ensemble.py OUT.npz A.npz B.npz ...

Each input is exported weights (``dicehall train clever --export``, ``scripts/clever_average.py``) of any run and
hidden sizes; the output, in the same float32 format, has their hidden layers side by side (see
``dicehall.clever.kernel.net.ensemble``) and the inputs' info under ``members``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from dicehall.clever.kernel import net
from dicehall.clever.kernel.features import COUNT
from dicehall.clever.master import WEIGHT_NAMES, load_weights


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    members = [load_weights(Path(p)) for p in sys.argv[2:]]
    joined = net.ensemble([weights for weights, _ in members])
    info = {"features": COUNT, "members": [info for _, info in members]}
    arrays = {k: w.astype(np.float32) for k, w in zip(WEIGHT_NAMES, joined, strict=True)}
    np.savez_compressed(out, info=np.array(json.dumps(info)), **arrays)
    print(out)


if __name__ == "__main__":
    main()
