"""Draw the learning curve of a Clever training run (its evaluations and training means) into a PNG.

Usage: python scripts/clever_curve.py RUN_DIR [OUT.png]   (default: RUN_DIR/curve.png)
"""

from __future__ import annotations

import sys
from pathlib import Path

from dicehall.clever import train as T


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    run_dir = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) == 3 else run_dir / "curve.png"
    T.plot_curve(T.Run.load(run_dir), out)
    print(out)


if __name__ == "__main__":
    main()
