"""Referee mode sessions: typed results of real throws, resolution, turns, big throw, match score, undo."""

from __future__ import annotations

import pytest

from dicehall.core.errors import NotationError
from dicehall.core.record import replay
from dicehall.wurf.referee import RefereeSession, parse_arena_entry


def feed(session: RefereeSession, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out = session.handle(line)
    return out


def test_parse_entry() -> None:
    dice = parse_arena_entry("3 3 x, out*2 rim 6")
    assert [(d.status, d.face) for d in dice] == [
        ("arena", 3),
        ("arena", 3),
        ("arena", 1),
        ("out", 0),
        ("out", 0),
        ("rim", 0),
        ("arena", 6),
    ]
    for bad in ("", "7", "3 banana"):
        with pytest.raises(NotationError):
            parse_arena_entry(bad)


def test_rulebook_example_session() -> None:
    r = RefereeSession(["Ann", "Bob", "Cleo"])
    assert "start" in r.prompt()
    feed(r, "start 2", "2 3", "end", "2 3 5", "end")
    assert "Cleo must throw 1 die" in r.prompt()
    msgs = feed(r, "2 3 4 6")
    assert "all numbers differ" in msgs[0] and "Cleo may throw another die" in msgs[-1]
    msgs = feed(r, "3 3 5 5 6")
    assert "Cleo takes 4 dice (repeated: 3, 5)" in msgs[0]
    assert r.state.supply == [7, 7, 8 - 2 + 4] and [d.face for d in r.state.arena] == [6]
    assert "Ann must throw" in r.prompt()


def test_bad_entries_change_nothing_and_undo_restores() -> None:
    r = RefereeSession(["Ann", "Bob"])
    feed(r, "start 4")
    before = (list(r.state.supply), list(r.state.arena), len(r.record.events))
    for bad in ("4 5 6", "end", "4 banana", "start 3"):
        msgs = r.handle(bad)
        assert msgs[0].startswith(("Not accepted", "The first die")), (bad, msgs)
        assert (r.state.supply, r.state.arena, len(r.record.events)) == before
    feed(r, "4 4")
    assert r.state.supply == [10, 9] and r.state.big_next
    assert feed(r, "undo")[0] == "Undone."
    assert (r.state.supply, r.state.arena, len(r.record.events)) == before


def test_big_throw_elimination_and_winner() -> None:
    r = RefereeSession(["Ann", "Bob"])
    feed(r, "start 4", "4 4")  # Ann takes both: arena empty
    assert "BIG THROW — Bob throws all 9 dice" in r.prompt()
    msgs = feed(r, "2 3 4 5 6 x out out rim")  # nothing repeats: Bob has no dice left
    assert any("Bob has no dice left" in m for m in msgs)
    assert any("Ann wins the game!" in m for m in msgs)
    assert r.state.is_terminal() and r.state.winners() == [0]
    assert r.handle("3 3")[0].startswith("The game is over")
    # The session's record replays to the same result.
    again = replay(r.record)
    assert again.is_terminal() and again.winners() == [0]


def test_match_session_scores_and_next_game_starter() -> None:
    r = RefereeSession(["Ann", "Bob"], match=True)
    feed(r, "start 4", "4 4", "2 3 4 5 6 x out out rim")
    assert r.state.match_points == [0, 1] and r.state.game_index == 1
    assert "game 2 of 2" in r.prompt()
    feed(r, "start 5")
    assert "Bob must throw" in r.prompt()  # game 2 is started by the next player
    feed(r, "5 5", "2 3 4 5 6 x out out rim")  # Bob takes both; Ann's big throw eliminates her
    assert r.state.is_terminal() and r.state.match_points == [1, 1]
    assert r.state.winners() == [0, 1] and r.state.returns() == [0.5, 0.5]  # shared win
    assert "Winner: Ann, Bob" in r.handle("show")[0] or r.state.winners() == [0, 1]


def test_cocked_rethrow_and_x_entries() -> None:
    r = RefereeSession(["Ann", "Bob", "Cleo"])
    msgs = feed(r, "start 2", "x 5")
    assert "1 X removed" in msgs[0] and [d.face for d in r.state.arena] == [5]
