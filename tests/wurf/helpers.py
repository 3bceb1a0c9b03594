from __future__ import annotations

from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState


def make(players: int = 3, preset: str = "standard", **overrides: object) -> WurfState:
    return WurfState(WurfRules.from_preset(preset, overrides), players)


def play(state: WurfState, *moves: str) -> WurfState:
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def snapshot(state: WurfState) -> dict[str, object]:
    """Everything a state holds except its (lazily built) arena model, for identical-state checks."""
    return {k: v for k, v in vars(state).items() if k != "_model"}
