"""The fields web/src/views/clever*.ts read from CleverState.public_view() exist with the expected types, over
random games of every preset and player count. A rename in the engine would otherwise blank part of the sheet
silently (the view reads with defaults)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from dicehall.clever.tables import ORIGIN_PLACES
from dicehall.core.game import get_game

VIEWS = Path(__file__).resolve().parents[2] / "web" / "src" / "views"
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in VIEWS.glob("clever*.ts"))

TOP = {
    "current_player": (int, str, type(None)),
    "legal_actions": (list,),
    "terminal": (bool,),
    "winners": (list,),
    "step": (str,),
    "plus_after": (str, type(None)),
    "next_seats": (list,),
    "round": (int,),
    "rounds": (int,),
    "active": (int,),
    "rolls_done": (int,),
    "dice": (list,),
    "fields": (list,),
    "pending_bonus": (dict, type(None)),
    "bonus_chain": (list,),
    "plus_used": (list,),
    "bonuses": (list,),
    "sheets": (list,),
    "layout": (dict,),
    "solo_rank": (int, type(None)),
    "refused": (dict, type(None)),
}
SHEET = {
    "yellow": (list,),
    "blue": (list,),
    "green": (dict,),
    "orange": (dict,),
    "purple": (dict,),
    "rerolls": (dict,),
    "plus_ones": (dict,),
    "foxes": (int,),
    "area_scores": (dict,),
    "fox_points": (int,),
    "total": (int,),
}
LAYOUT = {
    "yellow": (
        "values",
        "printed",
        "row_bonuses",
        "column_bonuses",
        "column_points",
        "diagonals",
        "count_points",
    ),
    "blue": (
        "values",
        "printed",
        "row_bonuses",
        "column_bonuses",
        "column_points",
        "diagonals",
        "count_points",
    ),
    "green": ("minimums", "points", "bonuses"),
    "orange": ("multipliers", "bonuses"),
    "purple": ("length", "reset", "bonuses"),
}
DICE = ("white", "yellow", "blue", "green", "orange", "purple")
CELL = re.compile(r"(yellow|blue)(\.r[1-4]c[1-4])?|green|orange|purple")
STEPS = {"roll", "pick", "plus", "passive_roll", "passive_pick", "bonus", "over"}
BONUSES = {
    "yellow_x",
    "blue_x",
    "green_x",
    "orange_4",
    "orange_5",
    "orange_6",
    "purple_6",
    "reroll",
    "plus_one",
    "fox",
    "black",
}
# The notation the view parses (clever-model.ts parseMove): every legal action must match one of these.
MOVE = re.compile(
    r"(\+1 )?[WYBGOP]:[YBGOP](\.r[1-4]c[1-4])?|(X|black) [YBGOP](\.r[1-4]c[1-4])?|reroll|forfeit|stop|pass"
)


def test_the_view_reads_these_fields() -> None:
    for key in (
        *TOP,
        *SHEET,
        "action_circles",
        "round_bonuses",
        "solo_ratings",
        "crossed",
        "written",
        "kind",
        "why",
        "at",
    ):
        assert f'"{key}"' in SOURCE or f".{key}" in SOURCE, (
            f"the Clever view no longer reads {key}; update this test"
        )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_public_view_has_every_field_the_view_reads(players: int) -> None:
    game = get_game("clever")
    rng = np.random.default_rng(players)
    for preset in game.rules_type.PRESETS:
        state = game.new_initial_state(game.rules_type.from_preset(preset), players)
        steps = 0
        while True:
            view = json.loads(json.dumps(state.public_view()))  # what the server sends
            for key, types in TOP.items():
                assert isinstance(view.get(key, KeyError), types), (preset, key, view.get(key, "missing"))
            assert view["step"] in STEPS
            for move in view["legal_actions"]:
                assert MOVE.fullmatch(move), move
            for d in view["dice"]:
                assert d["die"] in ("white", "yellow", "blue", "green", "orange", "purple")
                assert d["where"] in ("rolled", "to_roll", "platter", "field", "unused")
            refused = view["refused"]
            assert (refused is not None) == (
                bool(view["legal_actions"]) and view["step"] in ("pick", "plus", "passive_pick")
            )
            if refused:  # (clever-model.ts refusal: a die's reason, else its cell's by targetKey or area)
                assert set(refused["dice"]) <= set(DICE) and all("id" in w for w in refused["dice"].values())
                for g in refused["cells"]:
                    assert g["why"]["id"].startswith("clever.why.") and set(g["dice"]) <= set(DICE), g
                    assert all(CELL.fullmatch(at) for at in g["at"]), g
            pending = [view["pending_bonus"], *view["bonus_chain"]] if view["pending_bonus"] else []
            assert pending or not view["bonus_chain"]
            for b in pending:
                assert b["kind"] in BONUSES and isinstance(b["player"], int), b
                assert b["player"] == pending[0]["player"], "the chain is one player's"
            for b in pending + view["bonuses"]:
                assert b["origin"]["place"] in ORIGIN_PLACES and 1 <= b["origin"]["n"] <= 11, b
            for b in view["bonuses"]:
                assert b["bonus"] in BONUSES and isinstance(b["applied"], bool)
            for sheet in view["sheets"]:
                for key, types in SHEET.items():
                    assert isinstance(sheet.get(key, KeyError), types), (preset, key, sheet)
                for cell in sheet["yellow"] + sheet["blue"]:
                    assert re.fullmatch(r"r[1-4]c[1-4]", cell["cell"]) and isinstance(cell["crossed"], bool)
                assert isinstance(sheet["green"]["crossed"], int)
                assert all(
                    isinstance(v, int) for v in sheet["orange"]["written"] + sheet["purple"]["written"]
                )
            layout = view["layout"]
            for area, keys in LAYOUT.items():
                assert set(keys) <= set(layout[area]), area
            for b in layout["round_bonuses"] + layout["green"]["bonuses"] + layout["yellow"]["row_bonuses"]:
                assert b is None or b in BONUSES
            if state.is_terminal():
                assert view["step"] == "over"
                assert (view["solo_rank"] is not None) == (players == 1)
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.integers(len(actions)))])
            steps += 1
            assert steps < 2000
