"""The puzzle API's rated answers on PostgreSQL (its upserts and row lock): the same tests as on SQLite."""

from __future__ import annotations

import pytest
from pg import Cluster
from test_web_puzzles import (  # noqa: F401  (collected here again, on PostgreSQL)
    test_a_replayed_answer_is_shown_but_not_rated_again,
    test_forged_ids_and_malformed_answers_are_refused_and_change_nothing,
    test_right_then_wrong_moves_the_rating_up_then_down_and_the_streak,
)
from test_web_puzzles_clever import (  # noqa: F401
    test_a_clever_answer_is_checked_rated_and_kept_apart_from_dice_1000,
)


@pytest.fixture
def db_url(pg_cluster: Cluster) -> str:
    """Overrides conftest's SQLite file: a fresh, empty PostgreSQL database per test."""
    return pg_cluster.new_database()
