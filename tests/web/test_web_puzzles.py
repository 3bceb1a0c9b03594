"""Dice 1000 puzzles over the API (web/puzzles_api.py): the server checks answers against the shipped puzzle,
refuses forged ids and malformed answers, rates only a player's first answer to a puzzle (Glicko-2, the right
way), and the profile shows the puzzle rating and streak. PostgreSQL: test_web_puzzles_postgres.py."""

from __future__ import annotations

from typing import Any

import pytest

from dicehall.thousand.puzzle_play import NEAREST, PuzzleSet, Skill, puzzle_rating, rate
from dicehall.thousand.puzzles import THEMES, load_puzzles
from dicehall.web.puzzles_api import puzzle_set

NEXT = "/api/puzzles/thousand/next"


def answer(c: Any, pid: str, choice: Any) -> Any:
    return c.post(f"/api/puzzles/thousand/{pid}/answer", json={"choice": choice})


def wrong(pid: str) -> str:
    p = puzzle_set().get(pid)
    return next(k for k in p.options if k != p.best)


def test_right_then_wrong_moves_the_rating_up_then_down_and_the_streak(server: Any) -> None:
    with server() as c:
        first = c.get(NEXT).json()
        assert first["rating"]["rating"] == 1500 and first["rating"]["provisional"]
        assert "best" not in first and "options" not in first  # the answer never goes to the page first
        assert first["view"]["legal_actions"] == ["roll", "bank"] and first["theme"] in THEMES
        p = puzzle_set().get(first["id"])
        said = answer(c, first["id"], p.best).json()
        assert said["correct"] and said["rated"] and said["best"] == p.best
        assert said["rating"]["rating"] > 1500 and said["rating"]["delta"] > 0
        assert (
            said["rating"]["streak"] == 1 and said["rating"]["solved"] == 1 and said["rating"]["tried"] == 1
        )
        assert {o["move"]: o["value"] for o in said["options"]} == p.options
        assert said["options"][0]["best"] and said["options"][0]["move"] == p.best
        assert said["why"]["id"] == f"puzzle.why.{p.theme.replace(' ', '_')}.{p.best}"
        up = said["rating"]["rating"]

        second = c.get(NEXT).json()
        assert second["id"] != first["id"]
        said = answer(c, second["id"], wrong(second["id"])).json()
        assert not said["correct"] and said["rated"] and said["rating"]["delta"] < 0
        assert said["rating"]["rating"] < up
        assert said["rating"]["streak"] == 0 and said["rating"]["best_streak"] == 1
        assert said["rating"]["tried"] == 2 and said["rating"]["solved"] == 1

        me = c.get("/api/me").json()["player"]["id"]
        prof = c.get(f"/api/players/{me}").json()
        assert prof["puzzles"]["rating"] == said["rating"]["rating"] and prof["puzzles"]["best_streak"] == 1


def test_the_rating_follows_glicko2_against_the_puzzle_rating(server: Any) -> None:
    with server() as c:
        pid = c.get(NEXT).json()["id"]
        p = puzzle_set().get(pid)
        said = answer(c, pid, p.best).json()
        want = rate(Skill(), puzzle_rating(p), True)
        assert said["puzzle_rating"] == round(puzzle_rating(p))
        assert said["rating"]["rating"] == round(want.rating) and said["rating"]["rd"] == round(want.rd)


def test_a_replayed_answer_is_shown_but_not_rated_again(server: Any) -> None:
    with server() as c:
        pid = c.get(NEXT).json()["id"]
        first = answer(c, pid, wrong(pid)).json()
        again = answer(c, pid, puzzle_set().get(pid).best).json()
        assert first["rated"] and not again["rated"]
        assert again["correct"] and again["rating"]["delta"] == 0
        assert again["rating"]["rating"] == first["rating"]["rating"]
        assert again["rating"]["tried"] == 1 and again["rating"]["streak"] == 0
        # and the next puzzle is another one: answered puzzles are not drawn again
        assert all(c.get(NEXT).json()["id"] != pid for _ in range(5))


def test_forged_ids_and_malformed_answers_are_refused_and_change_nothing(server: Any) -> None:
    with server() as c:
        pid = c.get(NEXT).json()["id"]
        forged = answer(c, "0123456789ab", "bank")
        assert forged.status_code == 404 and forged.json()["msgid"] == "puzzle.refusal.unknown"
        assert "no such puzzle" in forged.json()["detail"]
        for bad in ("hold", "", None, 3, ["bank"], "bank" * 10):
            r = answer(c, pid, bad)
            assert r.status_code == 400 and r.json()["msgid"] == "puzzle.refusal.choice", bad
        r = c.post(f"/api/puzzles/thousand/{pid}/answer", content=b"not json")
        assert r.status_code == 400 and r.json()["msgid"] == "puzzle.refusal.choice"
        assert c.get(NEXT, params={"theme": "chess"}).json()["msgid"] == "puzzle.refusal.theme"
        assert c.get("/api/puzzles/thousand/nope").status_code == 404
        # nothing was rated: the first real answer still starts from 1500
        assert answer(c, pid, "bank").json()["rating"]["tried"] == 1


def test_next_keeps_to_the_theme_and_near_the_rating() -> None:
    puzzles = PuzzleSet(load_puzzles())
    rng = __import__("numpy").random.default_rng(1)
    for theme in THEMES:
        pid = puzzles.pick(1500, theme, set(), rng)
        assert pid is not None and puzzles.get(pid).theme == theme
    ratings = sorted(puzzles.rating.values(), key=lambda r: abs(r - 1700))
    pid = puzzles.pick(1700, None, set(), rng)
    assert pid is not None and abs(puzzles.rating[pid] - 1700) <= abs(ratings[NEAREST - 1] - 1700)
    everything = set(puzzles.by_id)
    assert puzzles.pick(1500, None, everything, rng) is None


def test_puzzle_ratings_follow_difficulty_and_margin() -> None:
    ps = load_puzzles()
    by = {d: [puzzle_rating(p) for p in ps if p.difficulty == d] for d in ("easy", "medium", "hard")}
    assert max(by["easy"]) < min(by["medium"]) and max(by["medium"]) < min(by["hard"])
    assert all(1050 <= r <= 1875 for rs in by.values() for r in rs)


def test_glicko2_is_glickmans_example_at_any_rating() -> None:
    """Glickman's worked example (1500, RD 200 against 1400/30 won, 1550/100 and 1700/300 lost: 1464.06, RD
    151.52, volatility 0.05999), and the same shifted by 300 (a library's volatility step once differed there)."""
    from dicehall.thousand.puzzle_play import Skill, update

    for shift in (0, 300):
        games = [(1400 + shift, 30, 1.0), (1550 + shift, 100, 0.0), (1700 + shift, 300, 0.0)]
        got = update(Skill(1500 + shift, 200, 0.06), games)
        assert got.rating - shift == pytest.approx(1464.06, abs=0.01)
        assert got.rd == pytest.approx(151.52, abs=0.01) and got.vol == pytest.approx(0.05999, abs=1e-5)
