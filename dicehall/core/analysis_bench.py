"""What the analysis figures of ``make bench`` are made of: seeded bot records and timed analyses of them.

Each game's bench module says which records it analyses (``analysis_figures`` in :mod:`dicehall.thousand.bench`
and :mod:`dicehall.clever.bench`).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from dicehall.core.agents import make_bot
from dicehall.core.analysis import analyze, new_evaluator
from dicehall.core.game import get_game
from dicehall.core.record import GameRecord
from dicehall.core.rules import RuleSet

EVENTS = 300


def bot_record(game: str, rules: RuleSet, bots: list[str], seed: int, events: int | None) -> GameRecord:
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


def timed_analysis(name: str, record: GameRecord, rules: RuleSet) -> dict[str, Any]:
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
