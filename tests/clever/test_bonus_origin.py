"""Where a pending bonus comes from: the engine's queue, the public view, the phase line and the terminal name the
row, column, diagonal, track cell or round that gave it.

The scenario (``golden/bonus-chain.json``, a solo game with real dice, also played through the browser in
``tests/browser/test_clever_bonus_origin.py``): yellow row 1 is completed by the passive pick of round 2, which
gives a blue X; that X completes blue row 2 (a yellow X) and blue column 1 (a re-roll) at once.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from dicehall.clever import cli
from dicehall.clever import sheet as S
from dicehall.clever.kernel import bridge as B
from dicehall.clever.state import CleverState
from dicehall.clever.tables import B_CELL_GROUPS, ORIGIN_PLACES, Y_CELL_GROUPS
from dicehall.clever.terminal import board_text
from dicehall.core.record import GameRecord, replay
from dicehall.i18n import translator

SCENARIO = Path(__file__).parent / "golden" / "bonus-chain.json"


def scenario(upto: int | None = None) -> CleverState:
    record = GameRecord.from_json(json.loads(SCENARIO.read_text(encoding="utf-8")))
    state = replay(record, len(record.events) + upto if upto is not None else None)
    assert isinstance(state, CleverState)
    return state


def test_a_yellow_row_bonus_names_its_row() -> None:
    s = scenario(-1)  # before the blue X is placed
    assert s.pending_bonus() == (0, S.BLUE_X, ("yellow_row", 1))
    assert s.bonus_chain() == [(0, S.BLUE_X, ("yellow_row", 1))]
    view = s.public_view()
    assert view["pending_bonus"] == {
        "player": 0,
        "bonus": "blue X",
        "kind": "blue_x",
        "origin": {"place": "yellow_row", "n": 1},
    }
    assert view["bonus_chain"] == []
    assert view["phase"] == "player 1 places a blue X bonus from yellow row 1"


def test_the_chained_bonuses_name_their_row_and_column_in_firing_order() -> None:
    s = scenario()
    assert s.bonus_chain() == [(0, S.YELLOW_X, ("blue_row", 2)), (0, S.REROLL, ("blue_column", 1))]
    view = s.public_view()
    assert view["pending_bonus"]["origin"] == {"place": "blue_row", "n": 2}
    assert [(b["kind"], b["origin"]) for b in view["bonus_chain"]] == [
        ("reroll", {"place": "blue_column", "n": 1})
    ]
    # the blue X just placed is in the last action's bonuses, with its row
    assert view["bonuses"] == [
        {"player": 0, "bonus": "blue_x", "applied": True, "origin": {"place": "yellow_row", "n": 1}}
    ]
    phase = s.describe_phase(["Ann"])
    assert phase == "Ann places a yellow X bonus from blue row 2; then: re-roll from blue column 1"
    assert translator("ru").message(phase) == (
        "Ann отмечает бонус за ряд 2 синей области: крестик в жёлтой области; "
        "затем: переброс за столбец 1 синей области"
    )
    assert translator("pl").message(phase) == (
        "Ann zaznacza premię za rząd 2 niebieskiego obszaru: krzyżyk w żółtym obszarze; "
        "potem: przerzut za kolumnę 1 niebieskiego obszaru"
    )
    assert phase in board_text(s, ["Ann"]).plain
    s.apply_action(
        s.string_to_action("X Y.r4c4")
    )  # the yellow X is placed, then the re-roll applies by itself
    assert [(b, o) for _, b, _, o in s.log] == [
        (S.YELLOW_X, ("blue_row", 2)),
        (S.REROLL, ("blue_column", 1)),
    ]
    assert not s.choice_pending and s.bonus_chain() == []


def test_the_terminal_narrates_where_each_bonus_came_from() -> None:
    s = scenario(-1)
    console = Console(width=200, no_color=True)
    narrate = cli.make_narrator(["Ann"])
    action = s.string_to_action("X B.r2c1")
    s.apply_action(action)
    old, cli.console = cli.console, console
    try:
        with console.capture() as out:
            narrate(s, action, 0)
    finally:
        cli.console = old
    assert "bonus for Ann from yellow row 1: blue X" in out.get()


def test_each_grid_origin_is_the_line_that_prints_the_bonus() -> None:
    """Every group of the grids carries the row/column/diagonal whose printed bonus it pays (and its cells); the
    track cells and rounds are checked with their bonuses in test_rules."""
    seen = set()
    for grid, groups in ((S.YELLOW_AREA, Y_CELL_GROUPS), (S.BLUE_AREA, B_CELL_GROUPS)):
        for slot, cell_groups in enumerate(groups):
            r, c = divmod(slot, grid.cols)
            for _, bonus, (place, n) in cell_groups:
                line = place.removeprefix(grid.name + "_")
                printed = {
                    "row": grid.row_bonuses,
                    "column": grid.column_bonuses,
                    "diagonal": tuple(b for _, b in grid.diagonals),
                }[line][n - 1]
                assert printed == bonus, (grid.name, slot, place, n)
                where = {"row": r + 1, "column": c + 1}.get(line)
                assert where in (None, n), f"{grid.name} r{r + 1}c{c + 1} is not in {place} {n}"
                if line == "diagonal":
                    assert (r, c) in grid.diagonals[n - 1][0]
                seen.add(place)
    assert seen | {"green", "orange", "purple", "round"} == set(ORIGIN_PLACES)


def test_the_kernel_copies_back_only_positions_without_pending_bonuses() -> None:
    """The kernel keeps no origins: a position with bonuses queued does not come back from it unnoticed."""
    s = scenario()
    g = B.from_state(s)
    with pytest.raises(ValueError, match="no bonus origins"):
        B.to_state(g, s.clone())
