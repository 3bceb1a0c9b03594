"""Proficiency (dicehall/core/proficiency.py): a player's mean loss per decision equals the mean of the analysis'
losses, recomputed here from the evaluator on hand-made records of each game with an analyst; its band follows
the limits at their boundaries; the costliest decision is the one that lost most."""

from __future__ import annotations

from typing import Any

import pytest

from dicehall.clever.rules import CleverRules
from dicehall.core.analysis import Evaluator, analyze, evaluator_for
from dicehall.core.proficiency import LIMITS, Limits, band, costliest, limits_for
from dicehall.core.record import Event, GameRecord, apply_event, new_state
from dicehall.core.rules import RuleSet
from dicehall.thousand.rules import ThousandRules

# two seats of classic Dice 1000, both rolling at random: five decisions with a choice, three of them costly
THOUSAND_EVENTS: list[tuple[int | str, str]] = [
    ("chance", "1,4,1,4,1"), (0, "roll"), ("chance", "5,5"), (0, "roll"), ("chance", "4,3,6,5,3"), (0, "roll"),
    ("chance", "1,4,3,2"), (0, "roll"), ("chance", "3,6,2"), ("chance", "1,6,5,4,1"), (1, "roll"),
    ("chance", "5,3"), (1, "roll"), ("chance", "1"), (1, "roll"), ("chance", "3,3,1,4,1"), (1, "roll"),
    ("chance", "4,1,4"), (1, "roll"), ("chance", "4,4"), ("chance", "5,3,4,3,2"), (0, "roll"),
    ("chance", "6,5,3,4"), (0, "roll"),
]  # fmt: skip
# the first round of a solo Clever game, chosen at random
CLEVER_EVENTS: list[tuple[int | str, str]] = [
    ("chance", "W6 Y4 B4 G2 O2 P1"), (0, "W:Y.r1c2"), ("chance", "W1 Y2 B5 G4 O6 P4 platter W,Y,G"),
    (0, "Y:Y.r2c1"), ("chance", "W4 Y1 B5 G5 O6 P2"), (0, "W:Y.r4c3"), ("chance", "B4 G1 O2"), (0, "G:G"),
    ("chance", "B1 O1"), (0, "O:O"), (0, "+1 B:B.r2c1"), ("chance", "W2 Y4 B5 G3 O3 P6 platter W,G,O"),
]  # fmt: skip


def record_of(game: str, rules: RuleSet, seats: int, events: list[tuple[int | str, str]]) -> GameRecord:
    record = GameRecord(game, rules.preset, rules.overrides(), [{"name": f"p{i}"} for i in range(seats)])
    record.events = [Event(actor, move) for actor, move in events]
    return record


def losses_by_hand(record: GameRecord, evaluator: Evaluator) -> dict[int, list[tuple[int, float]]]:
    """Each seat's (event number, loss) at every decision with a choice: the best value minus the one played."""
    _, state = new_state(record)
    out: dict[int, list[tuple[int, float]]] = {}
    for number, event in enumerate(record.events, start=1):
        seat = state.current_player()
        if seat >= 0:
            scored = evaluator.decision_values(state)
            if len(scored) > 1:
                played = next(v for a, v in scored if state.action_to_string(a) == event.move)
                out.setdefault(seat, []).append((number, max(v for _, v in scored) - played))
        apply_event(state, event, number)
    return out


@pytest.mark.parametrize(
    ("game", "rules", "seats", "events", "unit"),
    [
        ("thousand", ThousandRules.from_preset("classic"), 2, THOUSAND_EVENTS, "win%"),
        ("clever", CleverRules.from_preset(), 1, CLEVER_EVENTS, "points"),
    ],
    ids=["thousand", "clever"],
)
def test_proficiency_is_the_mean_of_the_losses_on_a_hand_made_record(
    game: str, rules: RuleSet, seats: int, events: list[tuple[int | str, str]], unit: str
) -> None:
    evaluator = evaluator_for(game, rules, seats)
    assert evaluator.unit == unit
    record = record_of(game, rules, seats, events)
    analysis = analyze(record, evaluator)
    by_hand = losses_by_hand(record, evaluator)
    totals = analysis.to_json()["totals"]
    assert set(by_hand) == set(range(seats))
    for seat, losses in by_hand.items():
        mean = sum(loss for _, loss in losses) / len(losses)
        assert sum(1 for _, loss in losses if loss > 1e-9) >= 1
        row = totals[seat]
        assert row["decisions"] == len(losses)
        assert row["mean_loss"] == pytest.approx(mean, abs=1e-9)
        limits = LIMITS[(game, unit)]
        assert row["band"] == limits.band(mean) == analysis.band(seat)
        worst_n, worst_loss = max(losses, key=lambda nl: nl[1])
        assert row["costliest"]["n"] == worst_n
        assert row["costliest"]["loss"] == pytest.approx(worst_loss, abs=1e-9)
        assert row["costliest"]["seat"] == seat and row["costliest"]["kind"] == "decision"


def test_the_band_limits_at_their_boundaries() -> None:
    limits = Limits(0.1, 0.5)
    assert limits.band(0.0) == "expert"
    assert limits.band(0.0999) == "expert" and limits.band(0.1) == "good"
    assert limits.band(0.4999) == "good" and limits.band(0.5) == "learning" and limits.band(1e9) == "learning"
    for key, found in LIMITS.items():
        assert 0 < found.expert < found.good, key
        assert band(*key, found.expert * 0.999) == "expert" and band(*key, found.expert) == "good"
        assert band(*key, found.good * 0.999) == "good" and band(*key, found.good) == "learning"
    # the bots the limits were set between (docs/analysis.md, "Proficiency") fall where the table says
    assert [band("thousand", "win%", m) for m in (0.0, 0.037, 0.084, 0.250, 0.397)] == [
        "expert",
        "expert",
        "good",
        "learning",
        "learning",
    ]
    assert [band("thousand", "points", m) for m in (0.0, 3.324, 11.306, 13.410)] == [
        "expert",
        "good",
        "learning",
        "learning",
    ]
    assert [band("clever", "points", m) for m in (0.089, 5.886, 6.121, 8.229)] == [
        "expert",
        "learning",
        "learning",
        "learning",
    ]
    assert limits_for("wurf", "dice") is None and band("wurf", "dice", 0.0) is None


def test_costliest_takes_the_first_of_the_largest_losses_of_the_seat() -> None:
    class S:
        def __init__(self, n: int, kind: str, seat: int, loss: float) -> None:
            self.n, self.kind, self.seat, self.loss = n, kind, seat, loss

    steps: list[Any] = [S(1, "decision", 0, 0.5), S(2, "decision", 1, 9.0), S(3, "roll", 0, 7.0)]
    steps += [S(4, "decision", 0, 2.0), S(5, "decision", 0, 2.0), S(6, "forced", 0, 0.0)]
    worst = costliest(steps, 0)
    assert worst is not None and worst.n == 4
    assert costliest([S(1, "decision", 0, 0.0)], 0) is None
