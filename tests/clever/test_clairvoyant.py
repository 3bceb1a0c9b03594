"""scripts/clever_clairvoyant.py (the headroom figure in docs/clever-training.md): its rollouts see the dice the
game really rolls, so each decision's best rollout can only rise, and the game ends at least where bot:master's
plain play on the same dice ends; the same seed gives the same game."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from dicehall.clever.master import load_weights
from dicehall.core.rng import game_seed

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "clever_clairvoyant.py"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("clever_clairvoyant", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_clairvoyant_search_never_ends_below_plain_play_on_the_same_dice() -> None:
    cv = _script()
    weights = load_weights()[0]
    for i in range(4):
        s = game_seed(77, i)
        seen = cv.clairvoyant(s, weights)
        # a misaligned copy of the dice would let a rollout promise what the game then does not roll
        assert seen >= cv.plain(s, weights, lookahead=False)
        assert seen == cv.clairvoyant(s, weights)
