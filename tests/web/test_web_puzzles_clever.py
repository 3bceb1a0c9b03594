"""Clever puzzles over the API (web/puzzles_api.py, the same routes as Dice 1000's under /api/puzzles/clever):
the position without the answer, answers checked on the server, forged ids and moves refused, a rating per game
(a Clever answer moves the Clever rating only), the profile line. PostgreSQL: test_web_puzzles_postgres.py."""

from __future__ import annotations

from typing import Any

from dicehall.clever.puzzle_play import GAME
from dicehall.clever.puzzles import THEMES
from dicehall.core.puzzles import Skill, rate
from dicehall.web.puzzles_api import puzzle_set

NEXT = "/api/puzzles/clever/next"


def answer(c: Any, pid: str, choice: Any) -> Any:
    return c.post(f"/api/puzzles/clever/{pid}/answer", json={"choice": choice})


def test_a_clever_answer_is_checked_rated_and_kept_apart_from_dice_1000(server: Any) -> None:
    with server() as c:
        first = c.get(NEXT).json()
        assert first["rating"]["rating"] == 1500 and first["themes"] == list(THEMES)
        assert "best" not in first and "options" not in first  # the answer never goes to the page first
        p = puzzle_set("clever").get(first["id"])
        assert first["theme"] == p.theme and sorted(first["view"]["legal_actions"]) == sorted(p.options)
        assert first["view"]["game"] == "clever" and first["view"]["current_player"] == first["mover"]
        wrong = next(k for k in p.options if k != p.best)
        said = answer(c, first["id"], wrong).json()
        assert not said["correct"] and said["rated"] and said["best"] == p.best
        assert (
            said["options"][0]["move"] == p.best
            and {o["move"]: o["value"] for o in said["options"]} == p.options
        )
        assert said["why"]["id"] == f"puzzle.clever.why.{p.theme.replace(' ', '_')}"
        want = rate(Skill(), GAME.rating(p), False)
        assert said["rating"]["rating"] == round(want.rating) and said["puzzle_rating"] == round(
            GAME.rating(p)
        )
        assert said["rating"]["streak"] == 0 and said["rating"]["tried"] == 1
        # the Dice 1000 rating has not moved, and Clever's next puzzle is another one
        assert c.get("/api/puzzles/thousand/next").json()["rating"]["tried"] == 0
        second = c.get(NEXT).json()
        assert second["id"] != first["id"]
        best = puzzle_set("clever").get(second["id"]).best
        said = answer(c, second["id"], best).json()
        assert said["correct"] and said["rating"]["streak"] == 1 and said["rating"]["delta"] > 0
        again = answer(c, second["id"], best).json()
        assert not again["rated"] and again["rating"]["tried"] == 2

        me = c.get("/api/me").json()["player"]["id"]
        prof = c.get(f"/api/players/{me}").json()
        assert prof["puzzles"] is None and prof["puzzles_clever"]["tried"] == 2
        assert prof["puzzles_clever"]["rating"] == said["rating"]["rating"]


def test_forged_ids_games_and_moves_are_refused_in_words(server: Any) -> None:
    with server() as c:
        pid = c.get(NEXT).json()["id"]
        one = c.get(f"/api/puzzles/clever/{pid}").json()
        assert one["id"] == pid and "best" not in one
        forged = answer(c, "0123456789ab", "pass")
        assert forged.status_code == 404 and forged.json()["msgid"] == "puzzle.refusal.unknown"
        for bad in ("bank", "", None, 3, ["pass"], "W:Y.r1c1" * 4):
            r = answer(c, pid, bad)
            assert r.status_code == 400 and r.json()["msgid"] == "puzzle.refusal.choice_clever", bad
        assert "moves shown" in answer(c, pid, "bank").json()["detail"]
        chess = c.get("/api/puzzles/chess/next")
        assert chess.status_code == 404 and chess.json()["msgid"] == "puzzle.refusal.game"
        assert c.get(NEXT, params={"theme": "barrel"}).json()["msgid"] == "puzzle.refusal.theme"
        assert c.get("/api/puzzles/clever/nope").status_code == 404
        # nothing was rated: the first real answer is the first tried
        assert answer(c, pid, one["view"]["legal_actions"][0]).json()["rating"]["tried"] == 1
