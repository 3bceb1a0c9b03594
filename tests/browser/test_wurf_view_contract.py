"""The fields web/src/views/wurf-model.ts reads from WurfState.public_view() exist with the expected types, over
random games (fast arena) of 2–5 players, single games and matches; every move the view builds parses. A rename in
the engine would otherwise blank part of the table silently (the view reads with defaults)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from dicehall.core.game import CHANCE, get_game

MODEL = (Path(__file__).resolve().parents[2] / "web" / "src" / "views" / "wurf-model.ts").read_text(
    encoding="utf-8"
)
NUM = (int, float)
TOP = {
    "current_player": (int, str, type(None)),
    "legal_actions": (list,),
    "terminal": (bool,),
    "winners": (list,),
    "phase": (str,),
    "geometry": (dict,),
    "arena": (list,),
    "supplies": (list,),
    "alive": (list,),
    "out_of_game": (int,),
    "box": (int,),
    "big_throw_next": (bool,),
    "dice_next_throw": (int,),
    "rearranged": (bool,),
    "pending_dice": (int,),
    "last_throw": (dict, type(None)),
    "match": (dict,),
}
GEOMETRY = ("floor_mm", "wall_mm", "rim_mm", "die_mm")
DIE = {"index": (int,), "face": (str,), "x": (*NUM, type(None)), "y": (*NUM, type(None)), "yaw": NUM}
LAST = (
    "thrower",
    "thrown",
    "big",
    "left",
    "cocked",
    "cocked_lost",
    "x_removed",
    "taken",
    "taken_faces",
    "eliminated",
)
MATCH = ("enabled", "game", "games", "points", "eliminations")


def test_the_model_reads_these_fields() -> None:
    for key in [*TOP, *GEOMETRY, *LAST, *MATCH]:
        assert re.search(rf"\b{key}\b", MODEL), f"wurf-model.ts no longer reads {key}: update this test"


@pytest.mark.parametrize(("players", "preset"), [(2, "standard"), (3, "match"), (5, "standard")])
def test_every_field_over_random_games(players: int, preset: str) -> None:
    game = get_game("wurf")
    rng = np.random.default_rng(players)
    state = game.new_initial_state(game.rules_type.from_preset(preset), players)
    for _ in range(5000):
        view = state.public_view()
        for key, types in TOP.items():
            assert isinstance(view[key], types), (key, view[key])
        assert all(isinstance(view["geometry"][k], NUM) for k in GEOMETRY)
        for die in view["arena"]:
            for key, types in DIE.items():
                assert isinstance(die[key], types), (key, die)
            assert die["face"] in ("X", "2", "3", "4", "5", "6")
        if view["last_throw"] is not None:
            assert set(LAST) <= set(view["last_throw"])
        assert set(MATCH) <= set(view["match"])
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        legal = view["legal_actions"]
        # The view sends throws and moves it builds itself; they must parse as the engine's notation.
        x, y = rng.uniform(0, 200, 2)
        built = f"throw {round(x, 1)},{round(y, 1)} p{rng.uniform():.2f} s0.50"
        move = built if "end" not in legal or rng.uniform() < 0.6 else "end"
        state.apply_action(state.string_to_action(move))
    assert state.is_terminal()
