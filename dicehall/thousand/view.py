"""What front ends read of a Dice 1000 position: each seat's status, the JSON public view, the text board."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from dicehall.core.game import CHANCE, TERMINAL
from dicehall.thousand.tables import keep_options

if TYPE_CHECKING:
    from dicehall.thousand.state import ThousandState


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerStatus:
    """One seat as bots and front ends see it."""

    seat: int
    name: str
    score: int
    opened: bool
    pit: tuple[int, int] | None
    on_barrel: bool
    barrel_attempts: int
    barrel_falls: int
    bolts: int
    open_points: int
    skip_next_turn: bool
    failed_openings: int
    out: bool = False
    """Resigned: no longer plays (docs/thousand.md, "Resigning")."""

    def to_json(self) -> dict[str, Any]:
        # written out: dataclasses.asdict deep-copies field by field and dominated public_view's cost
        return {
            "seat": self.seat,
            "name": self.name,
            "score": self.score,
            "opened": self.opened,
            "pit": None if self.pit is None else list(self.pit),
            "on_barrel": self.on_barrel,
            "barrel_attempts": self.barrel_attempts,
            "barrel_falls": self.barrel_falls,
            "bolts": self.bolts,
            "open_points": self.open_points,
            "skip_next_turn": self.skip_next_turn,
            "failed_openings": self.failed_openings,
            "out": self.out,
        }


def status(state: ThousandState, seat: int) -> PlayerStatus:
    return PlayerStatus(
        seat=seat,
        name=state.names[seat],
        score=state.score[seat],
        opened=state.opened[seat],
        pit=state.rules.pit_of(state.score[seat]),
        on_barrel=state.on_barrel[seat],
        barrel_attempts=state.attempts[seat],
        barrel_falls=state.falls[seat],
        bolts=state.bolts[seat],
        open_points=state.points[seat],
        skip_next_turn=state.skip_next[seat],
        failed_openings=state.open_fails[seat],
        out=state.out[seat],
    )


def status_json(state: ThousandState, seat: int) -> dict[str, Any]:
    """``status(state, seat).to_json()`` without building the frozen dataclass (public_view runs per move)."""
    score = state.score[seat]
    pit = state.rules.pit_of(score)
    return {
        "seat": seat,
        "name": state.names[seat],
        "score": score,
        "opened": state.opened[seat],
        "pit": None if pit is None else list(pit),
        "on_barrel": state.on_barrel[seat],
        "barrel_attempts": state.attempts[seat],
        "barrel_falls": state.falls[seat],
        "bolts": state.bolts[seat],
        "open_points": state.points[seat],
        "skip_next_turn": state.skip_next[seat],
        "failed_openings": state.open_fails[seat],
        "out": state.out[seat],
    }


def public_view(state: ThousandState) -> dict[str, Any]:
    """The position as JSON for graphical front ends; ``events`` are the engine's messages (English ``str``
    values that carry a message id and parameters, see :mod:`dicehall.i18n.message`)."""
    cur = state.current_player()
    terminal = cur == TERMINAL
    legal: list[str] = [] if cur in (CHANCE, TERMINAL) else [str(a) for a in state.legal_actions()]
    rules = state.rules
    pending = state.pending_roll
    return {
        "game": state.game_name,
        "preset": rules.preset,
        "current_player": None if terminal else ("chance" if cur == CHANCE else cur),
        "turn_player": state.player,
        "legal_actions": legal,
        "terminal": terminal,
        "scores": state.score[:],
        "winners": state.winners() if terminal else [],
        "players": [status_json(state, i) for i in range(state.n)],
        "target": rules.target,
        "barrel": rules.barrel,
        "turn_total": state.turn_total,
        "dice_in_hand": state.in_hand,
        "set_aside": list(state.set_aside_dice),
        "rolls_this_turn": state.rolls,
        "max_rolls": rules.max_rolls,
        "hot_dice": state.hot_dice,
        "confirming": state.confirming,
        "last_roll": None if state.last_roll is None else list(state.last_roll),
        "last_combos": [
            {"dice": list(c.dice), "points": c.points, "kind": c.kind} for c in state.last_combos
        ],
        "keep_options": [] if pending is None else list(keep_options(pending.combos)),
        "can_bank": state.can_bank(),
        "bank_refusal": None if terminal else state.bank_refusal(),
        "min_bank": state.min_bank(),
        "max_bank": state.max_bank(),
        "turns": state.turns,
        "roll_off": {"contenders": list(state.roll_off_contenders), "dice": state.roll_off_dice},
        "events": state.events,
    }


def render(state: ThousandState) -> str:
    """The position as a few lines of text (terminal, logs)."""
    r = state.rules
    over = state.is_terminal()
    lines = [f"Dice 1000 ({r.preset or 'custom'}) — turn {state.turns}"]
    for st in state.statuses():
        marks = []
        if not st.opened:
            marks.append("not opened")
        if st.pit:
            marks.append(f"pit {st.pit[0]}–{st.pit[1]}")
        if st.on_barrel:
            marks.append(f"BARREL {st.barrel_attempts}/{r.barrel_attempts or '∞'}")
        if st.barrel_falls:
            marks.append(f"falls {st.barrel_falls}")
        if st.bolts:
            marks.append(f"bolts {st.bolts}")
        if st.open_points:
            marks.append(f"points {st.open_points}")
        if st.skip_next_turn:
            marks.append("skips next turn")
        if st.out:
            marks.append("resigned")
        arrow = ">" if st.seat == state.player and not over else " "
        extra = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"{arrow} {st.name:<12} {st.score:>6}{extra}")
    if over and state.winner is not None:
        lines.append(f"{state.names[state.player]} wins.")
    elif over:
        lines.append("game over: no winner.")
    elif state.roll_off_contenders:
        dice = state.roll_off_dice
        rolled = ", ".join(f"{state.names[c]} {dice[c] or '-'}" for c in state.roll_off_contenders)
        lines.append(f"roll-off for the start: {rolled}")
    else:
        roll = ",".join(map(str, state.last_roll)) if state.last_roll else "-"
        aside = ",".join(map(str, state.set_aside_dice)) or "-"
        lines.append(
            f"turn total {state.turn_total}, last roll {roll}, set aside {aside}, dice in hand {state.in_hand}"
        )
        refusal = state.bank_refusal()
        if state.current_player() >= 0 and state.pending_roll is None:
            lines.append("may bank" if refusal is None else f"cannot bank: {refusal}")
    lines.extend(f"* {e}" for e in state.events)
    return "\n".join(lines)
