"""The optimal banking threshold as a picture: own score × opponent's score, one panel per number of dice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from dicehall.thousand.dp import STEP
from dicehall.thousand.solver.policy import TurnValues
from dicehall.thousand.solver.space import PlayerState, Space


def thresholds(
    space: Space, values: npt.NDArray[np.floating], dice: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """For opened players without bolts or falls: the smallest turn total at which the mover banks with
    ``dice`` in hand, by (own score, opponent's score); NaN where it never banks before the top."""
    scores = np.array([s for s in space.scores if s >= 0], dtype=np.int64)
    index = space.index
    grid = np.full((len(scores), len(scores)), np.nan)
    for i, own in enumerate(scores):
        m = index.get(space.canonical(PlayerState(int(own), True)))
        if m is None:
            continue
        for j, their in enumerate(scores):
            o = index.get(space.canonical(PlayerState(int(their), True)))
            if o is None:
                continue
            tv = TurnValues(space, values, m, o)
            for ti in range(tv.top + 1):
                if tv.bank(ti * STEP) is not None and not tv.should_roll(ti * STEP, dice):
                    grid[i, j] = ti * STEP
                    break
    return scores, grid


def plot_thresholds(space: Space, values: npt.NDArray[np.floating], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 5, figsize=(22, 4.8), constrained_layout=True)
    image = None
    for dice, ax in zip(range(1, 6), axes, strict=True):
        scores, grid = thresholds(space, values, dice)
        extent = (scores[0], scores[-1], scores[0], scores[-1])
        image = ax.imshow(
            grid, origin="lower", extent=extent, cmap="viridis", vmin=0, vmax=500, aspect="auto"
        )
        ax.set_title(f"{dice} {'die' if dice == 1 else 'dice'} in hand")
        ax.set_xlabel("opponent's score")
        if dice == 1:
            ax.set_ylabel("own score")
    assert image is not None
    fig.colorbar(image, ax=axes, label="bank from this turn total on (white: never)")
    rules = space.rules
    fig.suptitle(f"Dice 1000 ({rules.preset or 'custom'}), 2 players: optimal banking threshold")
    fig.savefig(path, dpi=90)
    plt.close(fig)
