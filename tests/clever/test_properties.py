"""Property tests (hypothesis): any path through a Clever game keeps the sheet consistent, refused moves
change nothing, clones are independent, and the record replays to the same position."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicehall.core.errors import DicehallError
from dicehall.core.record import GameRecord, replay

from .helpers import new, snapshot
from .test_invariants import check_sheet

PATHS = st.lists(st.integers(min_value=0, max_value=10_000), min_size=60, max_size=200)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=1, max_value=4), seed=st.integers(0, 2**32 - 1), path=PATHS)
def test_any_path_keeps_the_game_consistent(players: int, seed: int, path: list[int]) -> None:
    s = new(players)
    rng = np.random.default_rng(seed)
    record = GameRecord.start("clever", s.rules, [f"p{i}" for i in range(players)], seed)
    other_moves: list[object] = []  # legal moves of earlier positions: usually illegal now
    for choice in path:
        if s.is_terminal():
            break
        if s.is_chance_node():
            action = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            assert legal, "a player to move always has a legal action"
            action = legal[choice % len(legal)]
            for stale in other_moves[-3:]:
                if stale not in legal:
                    before = snapshot(s)
                    try:
                        s.apply_action(stale)
                    except DicehallError:
                        pass
                    else:
                        raise AssertionError(f"{stale!r} was accepted though it is not legal")
                    assert snapshot(s) == before, "a refused move changed the position"
            other_moves.append(action)
        before, twin = snapshot(s), s.clone()
        record.add(s, action)
        s.apply_action(action)
        assert snapshot(twin) == before, "the clone followed the original"
        if not s.choice_pending:  # a bonus being chosen has its cell crossed but is not paid yet
            for sheet in s.sheets:
                check_sheet(sheet, s.round)
    assert snapshot(replay(record)) == snapshot(s)
