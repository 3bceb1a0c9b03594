"""The fields web/src/views/thousand.ts reads from ThousandState.public_view() exist with the expected types.

A rename in the engine would otherwise blank part of the table silently (the view tolerates missing fields)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from dicehall.core.game import get_game

VIEW_TS = Path(__file__).resolve().parents[2] / "web" / "src" / "views" / "thousand.ts"

TOP = {
    "current_player": (int, str, type(None)),
    "turn_player": (int,),
    "legal_actions": (list,),
    "terminal": (bool,),
    "scores": (list,),
    "winners": (list,),
    "players": (list,),
    "target": (int,),
    "barrel": (str,),
    "turn_total": (int,),
    "dice_in_hand": (int,),
    "set_aside": (list,),
    "rolls_this_turn": (int,),
    "max_rolls": (int,),
    "hot_dice": (bool,),
    "confirming": (bool,),
    "last_roll": (list, type(None)),
    "last_combos": (list,),
    "bank_refusal": (str, type(None)),
    "events": (list,),
}
PLAYER = {
    "name": (str,),
    "score": (int,),
    "opened": (bool,),
    "pit": (list, type(None)),
    "on_barrel": (bool,),
    "barrel_attempts": (int,),
    "barrel_falls": (int,),
    "bolts": (int,),
    "open_points": (int,),
    "skip_next_turn": (bool,),
    "failed_openings": (int,),
    "out": (bool,),
}


def test_public_view_has_every_field_the_view_reads() -> None:
    game = get_game("thousand")
    source = VIEW_TS.read_text(encoding="utf-8")
    for key in (*TOP, *PLAYER):
        assert f'"{key}"' in source or f".{key}" in source, (
            f"thousand.ts no longer reads {key}; update this test"
        )
    rng = np.random.default_rng(7)
    for preset in game.rules_type.PRESETS:
        state = game.new_initial_state(game.rules_type.from_preset(preset), 3)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.integers(len(actions)))])
            view = json.loads(json.dumps(state.public_view()))  # what the server sends
            for key, types in TOP.items():
                assert isinstance(view.get(key, KeyError), types), (preset, key, view.get(key, "missing"))
            for p in view["players"]:
                for key, types in PLAYER.items():
                    assert isinstance(p.get(key, KeyError), types), (preset, key, p)
            for combo in view["last_combos"]:
                assert isinstance(combo["dice"], list) and isinstance(combo["points"], int)
