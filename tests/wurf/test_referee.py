"""Referee mode sessions: typed results of real throws, resolution, turns, big throw, match score, undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.core.errors import NotationError
from dicehall.core.record import GameRecord, replay
from dicehall.wurf.referee import RefereeSession, parse_arena_entry

from .helpers import snapshot


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


def _no_repeat_entry(n: int) -> str:
    """A typed big throw of ``n`` dice in which nothing repeats: 2-6 once each, the rest X or out."""
    extra = ["X", "out"] * n
    return " ".join(["2", "3", "4", "5", "6", *extra][:n])


def test_saved_referee_record_replays_to_the_identical_state() -> None:
    r = RefereeSession(["Ann", "Bob"], match=True)
    lines = [
        "start 4",
        "4 5",  # Ann: all differ
        "end",
        "5 6 2",  # Bob: all differ (the arena dice may have been turned)
        "2 2 5 6",  # Bob takes the 2s; turn over
        "5 6 6",  # Ann takes the 6s
        "undo",
        "5 X out",  # instead: X removed, one out
        "banana",  # refused, changes nothing
        "end",
        "5 5",  # Bob takes both: the arena is empty, Ann must make the big throw
    ]
    for line in lines:
        r.handle(line)
        again = replay(GameRecord.loads(r.record.dumps()))
        assert snapshot(again) == snapshot(r.state), line
    assert r.state.big_next and r.state.current == 0
    r.handle(_no_repeat_entry(r.state.supply[0]))  # Ann throws everything, nothing repeats: out
    assert r.state.game_index == 1 and r.state.match_points == [1, 0]
    for line in ("start 3", "3 3", _no_repeat_entry(9)):  # game 2: Bob starts, takes, Ann is out again
        r.handle(line)
    assert r.state.is_terminal() and r.state.winners() == [1]
    again = replay(GameRecord.loads(r.record.dumps()))
    assert snapshot(again) == snapshot(r.state)
    assert again.render() == r.state.render() and "Bob" in again.render()
    # Nothing in the record is made up: real throws carry no aim or power, dice no positions.
    moves = [e.move for e in r.record.events]
    assert "throw real" in moves
    assert all(m in ("throw real", "end") or m.startswith(("lands ", "start ")) for m in moves)
    assert not any("@" in m for m in moves)


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_help_reads_cleanly_at_80_columns(lang: str) -> None:
    from dicehall.i18n import set_language

    set_language(lang)
    text = RefereeSession(["Ann", "Bob"]).handle("help")[0]
    assert "throw real" in text and "start 4" in text and "undo" in text and "out*2" in text
    assert max(len(line) for line in text.splitlines()) <= 79  # never re-wrapped at 80-120 columns


def test_match_game_end_report_lists_the_final_throw() -> None:
    r = RefereeSession(["Ann", "Bob"], match=True)
    msgs = feed(r, "start 4", "4 4", "2 3 4 5 6 x out out rim")
    assert msgs[0] == "3 out of the arena; 1 X removed; all numbers differ."
    assert msgs[1] == "Bob has no dice left and is out of the game."
    assert msgs[2] == "Ann wins the game!"


def test_after_the_final_entry_undo_is_still_possible() -> None:
    r = RefereeSession(["Ann", "Bob"])
    msgs = feed(r, "start 4", "4 4", "2 3 4 5 6 x out out rim")
    assert r.state.is_terminal() and not r.closed
    assert "'undo'" in msgs[-1] and "'done'" in msgs[-1]
    assert r.handle("undo")[0] == "Undone."
    assert not r.state.is_terminal() and r.record.result is None
    feed(r, "2 2 4 5 6 x out out rim")  # typed again, corrected: Bob takes the 2s
    assert not r.state.is_terminal() and r.state.supply[1] == 2
    assert r.handle("done")[0].startswith("The game is not over")


def test_done_closes_the_session_only_when_the_game_is_over(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dicehall.cli import _register_games, app

    _register_games()
    out = tmp_path / "ref.json"
    script = "start 4\n4 4\n2 3 4 5 6 x out out rim\nundo\n2 3 4 5 6 x out out rim\ndone\n"
    res = CliRunner().invoke(
        app, ["referee", "wurf", "--players", "Ann,Bob", "--save", str(out)], input=script
    )
    assert res.exit_code == 0, res.output
    assert (
        res.output.count("Ann wins the game!") == 2
        and "Undone." in res.output
        and "Session closed." in res.output
    )
    assert replay(GameRecord.load(out)).winners() == [0]


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        ("out*1000000000", "too many dice"),
        ("out*999", "too many dice"),
        ("4 out*2", "too many dice"),
        ("out*0", "at least 1"),
        ("4 1", "these dice have no 1"),
        ("1*2", "these dice have no 1"),
    ],
)
def test_entries_bounded_by_the_dice_that_exist(entry: str, needle: str) -> None:
    r = RefereeSession(["Ann", "Bob"])
    feed(r, "start 4")  # one die in the arena, Ann throws 1: the entry lists exactly 2 dice
    before = (list(r.state.supply), list(r.state.arena), len(r.record.events))
    msgs = r.handle(entry)
    assert msgs[0].startswith("Not accepted") and needle in msgs[0], msgs
    assert (r.state.supply, r.state.arena, len(r.record.events)) == before
    with pytest.raises(NotationError):
        parse_arena_entry(entry, 2)


def test_start_needs_one_face_and_never_1() -> None:
    r = RefereeSession(["Ann", "Bob"])
    msg = r.handle("start")[0]
    assert "'start 4'" in msg and "?" not in msg
    assert "these dice have no 1" in r.handle("start 1")[0]
    assert "'start 4'" in r.handle("start 4 5")[0]
    assert r.state.phase == "setup" and not r.record.events
    assert "end" in r.handle("START4")[-1] or r.state.phase == "throw"
    assert [d.face for d in r.state.arena] == [4]
    assert r.handle("end now")[0].startswith("Not accepted: 'end' takes nothing")
