"""Golden playthroughs: seeded games whose full record and final scores must never change.

Regenerate the files after an intended rule change with::

    DICEHALL_REGEN_GOLDEN=1 .venv/bin/pytest tests/thousand/test_golden.py

and review the diff of ``tests/thousand/golden/`` before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import seeded_rng
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, ROLL, ThousandState

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("DICEHALL_REGEN_GOLDEN") == "1"

# (file stem, preset, overrides, players, seed, greed per seat)
CASES: list[tuple[str, str, dict[str, Any], int, int, tuple[int, ...]]] = [
    ("classic-1", "classic", {}, 2, 1, (100, 300)),
    ("classic-2", "classic", {}, 3, 12, (100, 150, 250)),
    ("classic-open-1", "classic-open", {}, 2, 3, (100, 300)),
    ("classic-open-2", "classic-open", {}, 3, 4, (150, 200, 350)),
    ("classic-nobarrel-1", "classic-nobarrel", {}, 2, 5, (200, 300)),
    ("variant2-1", "variant2", {}, 2, 6, (100, 300)),
    ("variant2-2", "variant2", {}, 4, 7, (75, 150, 250, 400)),
    ("yard-1", "yard", {}, 2, 8, (100, 300)),
    ("yard-2", "yard", {}, 3, 9, (50, 150, 250)),
    ("classic-free-1", "classic", {"free_set_aside": True, "open_fail_penalty": 50}, 2, 10, (100, 250)),
    ("classic-rolloff-1", "classic", {"roll_off": True}, 4, 11, (100, 200, 300, 150)),
]


def choose(state: ThousandState, greed: int) -> Any:
    """A fixed, deterministic policy: keep the most points, bank at ``greed`` (or at the exact room left)."""
    legal = state.legal_actions()
    if ROLL not in legal and BANK not in legal:  # free set-aside: keep everything that scores
        return max(legal, key=lambda a: (len(str(a)), str(a)))
    room = state.max_bank()
    enough = state.turn_total >= greed or (room is not None and state.turn_total + 50 > room)
    if BANK in legal and (enough or state.dice_in_hand <= 1 or ROLL not in legal):
        return BANK
    return ROLL


def play_case(
    preset: str, overrides: dict[str, Any], players: int, seed: int, greed: tuple[int, ...]
) -> GameRecord:
    rules = ThousandRules.from_preset(preset, overrides)
    state = ThousandState(rules, players)
    rng = seeded_rng(seed)
    record = GameRecord.start("thousand", rules, [f"P{i + 1}" for i in range(players)], seed)
    record.game_id = f"golden-{seed}"
    record.created = "2026-01-01T00:00:00+00:00"
    while (cur := state.current_player()) != TERMINAL:
        action = state.sample_chance(rng) if cur == CHANCE else choose(state, greed[cur])
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record


def dump(record: GameRecord) -> str:
    """The record as JSON with one event per line (small, readable diffs)."""
    data = record.to_json()
    events = data.pop("events")
    head = json.dumps(data, ensure_ascii=False, indent=1)[:-2]
    lines = ",\n".join("  " + json.dumps(e, ensure_ascii=False) for e in events)
    return f'{head},\n "events": [\n{lines}\n ]\n}}\n'


@pytest.mark.parametrize(
    ("stem", "preset", "overrides", "players", "seed", "greed"), CASES, ids=[c[0] for c in CASES]
)
def test_golden_playthrough(
    stem: str, preset: str, overrides: dict[str, Any], players: int, seed: int, greed: tuple[int, ...]
) -> None:
    path = GOLDEN / f"{stem}.json"
    record = play_case(preset, overrides, players, seed, greed)
    text = dump(record)
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"{path} is missing; regenerate with DICEHALL_REGEN_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    stored = GameRecord.load(path)
    assert json.loads(text) == json.loads(path.read_text(encoding="utf-8")), (
        f"{stem}: the playthrough changed"
    )
    # the stored file replays to its recorded result
    final = replay(stored)
    assert final.is_terminal()
    assert stored.result == {"scores": final.scores(), "returns": final.returns(), "winners": final.winners()}


def test_golden_files_have_no_strays() -> None:
    expected = {f"{c[0]}.json" for c in CASES}
    assert {p.name for p in GOLDEN.glob("*.json")} <= expected
