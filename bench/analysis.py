"""Analysis figures for ``make bench`` (called from the Dice 1000 and Clever bench modules).

Dice 1000: the first 300 events of the first seeded game that long (random bots, so that games are long) analysed
with the win-% evaluator on classic (the table shipped in the package, or the exact one where classic is solved),
with the turn-points evaluator (``classic-nobarrel``, which has no table) and with the win-% evaluator on the
solver bench's rules (its table is cached by the solver bench, which runs first; else it is solved on first use).
Clever: whole solo games of ``bot:master`` analysed (every roll's expectation over all outcomes or 1,000 sampled
ones).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from dicehall.core.agents import make_bot
from dicehall.core.analysis import analyze, evaluator_for, new_evaluator
from dicehall.core.game import get_game
from dicehall.core.record import GameRecord
from dicehall.core.rules import RuleSet

EVENTS = 300


def _record(game: str, rules: RuleSet, bots: list[str], seed: int, events: int | None) -> GameRecord:
    """A seeded bot game; with ``events``, the first game at least that long, cut to that many events."""
    agents = [make_bot(game, b, rules) for b in bots]
    rng = np.random.default_rng(seed)
    while True:
        state = get_game(game).new_initial_state(rules, len(bots))
        record = GameRecord.start(game, rules, bots)
        while not state.is_terminal():
            seat = state.current_player()
            action = state.sample_chance(rng) if seat < 0 else agents[seat].choose(state, rng)
            record.add(state, action)
            state.apply_action(action)
        record.finish(state)
        if events is None:
            return record
        if len(record.events) >= events:
            record.events = record.events[:events]
            record.result = None
            return record


def _timed(name: str, record: GameRecord, rules: RuleSet) -> dict[str, Any]:
    """Seconds to build the evaluator, to analyse the record in a fresh process (compiled kernels loaded from
    Numba's cache on first use) and again with a fresh evaluator (what a server or a second analysis pays)."""
    t0 = time.perf_counter()
    ev = new_evaluator(record.game, rules, len(record.players))
    t1, c1 = time.perf_counter(), time.process_time()
    analyze(record, ev)
    first, first_cpu = time.perf_counter() - t1, time.process_time() - c1
    fresh = new_evaluator(record.game, rules, len(record.players))
    t2, c2 = time.perf_counter(), time.process_time()
    analyze(record, fresh)
    t3, c3 = time.perf_counter(), time.process_time()
    return {
        f"analysis_{name}_unit": ev.unit,
        f"analysis_{name}_evaluator_seconds": round(t1 - t0, 2),
        f"analysis_{name}_300_events_first_seconds": round(first, 3),
        f"analysis_{name}_300_events_seconds": round(t3 - t2, 3),
        f"analysis_{name}_300_events_first_cpu_seconds": round(first_cpu, 3),
        f"analysis_{name}_300_events_cpu_seconds": round(c3 - c2, 3),
    }


def thousand_figures(quick: bool) -> dict[str, Any]:
    from bench.thousand_solver import BENCH_RULES
    from dicehall.thousand.rules import ThousandRules

    classic = ThousandRules.from_preset("classic")
    out = _timed("classic", _record("thousand", classic, ["random", "random"], 1, EVENTS), classic)
    points = ThousandRules.from_preset("classic-nobarrel")
    out.update(_timed("points", _record("thousand", points, ["random", "random"], 1, EVENTS), points))
    out["analysis_table_rules"] = "the solver bench's rules"
    out.update(
        _timed("table", _record("thousand", BENCH_RULES, ["random", "random"], 2, EVENTS), BENCH_RULES)
    )
    return out


def clever_figures(quick: bool) -> dict[str, Any]:
    from dicehall.clever.rules import CleverRules

    rules = CleverRules.from_preset()
    games = 3 if quick else 10
    records = [_record("clever", rules, ["master"], 100 + i, None) for i in range(games)]
    ev = evaluator_for("clever", rules, 1)
    analyze(records[0], ev)  # compiles the expectation kernel, or loads it from Numba's cache
    start, cpu = time.perf_counter(), time.process_time()
    for record in records:
        analyze(record, ev)
    secs = (time.perf_counter() - start) / games
    cpu = (time.process_time() - cpu) / games
    return {
        "analysis_solo_game_seconds": round(secs, 3),
        "analysis_solo_game_cpu_seconds": round(cpu, 3),
        "analysis_solo_games": games,
        "analysis_solo_events_per_game": round(sum(len(r.events) for r in records) / games, 1),
    }


if __name__ == "__main__":
    import json
    import sys

    quick = "--quick" in sys.argv
    print(json.dumps({**thousand_figures(quick), **clever_figures(quick)}, indent=1))
