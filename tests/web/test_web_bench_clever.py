"""The four-player Clever benchmark plays a whole game over the websocket (its figures are for `make bench`)."""

from __future__ import annotations

from bench import web_clever


def test_the_clever_table_benchmark_plays_a_whole_game():
    got = web_clever.measure(1)
    assert got["clever4_games"] == 1
    assert got["clever4_moves"] > 60, "every seat's picks, passive choices and +1 steps were answered"
    assert got["clever4_refused"] < got["clever4_moves"]
    assert got["clever4_p50_ms"] <= got["clever4_p99_ms"] <= got["clever4_max_ms"]
