"""The public view for the web front end and the plain-text board."""

from __future__ import annotations

import json

import numpy as np

from dicehall.clever.game import CleverGame
from dicehall.clever.rules import CleverRules
from dicehall.core.game import get_game

from .helpers import do, new, roll


def test_get_game_finds_clever() -> None:
    game = get_game("clever")
    assert isinstance(game, CleverGame) and game.name == "clever"
    assert (game.min_players, game.max_players) == (1, 4)


def test_public_view_is_json_and_lists_legal_moves_in_notation() -> None:
    s = new(2)
    roll(s, "W3 Y3 B2 G4 O1 P5")
    view = s.public_view()
    json.dumps(view)
    assert view["current_player"] == 0 and not view["terminal"]
    assert set(view["legal_actions"]) == {s.action_to_string(a) for a in s.legal_actions()}
    assert len(view["legal_descriptions"]) == len(view["legal_actions"])
    assert [d["where"] for d in view["dice"]] == ["rolled"] * 6
    assert len(view["sheets"]) == 2
    sheet = view["sheets"][0]
    assert sum(c["printed"] for c in sheet["yellow"]) == 4
    assert sheet["rerolls"] == {"gained": 1, "used": 0, "circles": 7}
    do(s, "Y:Y.r1c1")
    view = s.public_view()
    assert view["current_player"] == "chance"
    assert view["sheets"][0]["yellow"][0]["crossed"]
    assert {d["die"]: d["where"] for d in view["dice"]}["orange"] == "platter"
    assert view["fields"] == ["yellow"]


def test_view_and_board_at_the_end_of_a_solo_game() -> None:
    s = CleverGame().new_initial_state(CleverRules.from_preset(), 1)
    rng = np.random.default_rng(2)
    while not s.is_terminal():
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else s.legal_actions()[0])
    view = s.public_view()
    json.dumps(view)
    assert view["terminal"] and view["current_player"] is None and view["legal_actions"] == []
    assert view["solo_rating"] == s.solo_rating()
    text = s.render()
    assert "Final scores" in text and "Rating:" in text
    assert f"= {int(s.scores()[0])}" in text
