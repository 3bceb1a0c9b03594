"""Drawing Dice 1000 for the terminal with rich: boxed dice with pips, the board, and the turn line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from dicehall.i18n import current, localize, tr
from dicehall.thousand.state import ThousandState

FACES = "⚀⚁⚂⚃⚄⚅"

# Pip rows of each face on a 3x3 grid (top, middle, bottom), "o" where a pip is.
_PIPS: dict[int, tuple[str, str, str]] = {
    1: ("   ", " o ", "   "),
    2: ("o  ", "   ", "  o"),
    3: ("o  ", " o ", "  o"),
    4: ("o o", "   ", "o o"),
    5: ("o o", " o ", "o o"),
    6: ("o o", "o o", "o o"),
}


def face_char(face: int) -> str:
    """The Unicode die face (⚀..⚅) of ``face``."""
    return FACES[face - 1]


def die_lines(face: int) -> list[str]:
    """Five lines of a boxed die showing ``face``."""
    if face not in _PIPS:
        raise ValueError(f"a die shows 1..6, not {face}")
    rows = [" ".join("●" if c == "o" else " " for c in row) for row in _PIPS[face]]
    return ["╭───────╮", *[f"│ {r} │" for r in rows], "╰───────╯"]


def dice_art(dice: Sequence[int], styles: Sequence[str] | None = None, labels: bool = True) -> Text:
    """Dice side by side as boxes (each in its style), with their values underneath when ``labels``."""
    text = Text()
    if not dice:
        return text
    styles = list(styles) if styles is not None else ["bold"] * len(dice)
    blocks = [die_lines(d) for d in dice]
    for row in range(5):
        for k, block in enumerate(blocks):
            if k:
                text.append(" ")
            text.append(block[row], style=styles[k])
        text.append("\n")
    if labels:
        for k, d in enumerate(dice):
            if k:
                text.append(" ")
            text.append(f"{d:^9}", style="dim")
        text.append("\n")
    return text


def dice_inline(dice: Sequence[int], style: str = "bold") -> Text:
    """Compact dice: ``⚀ ⚄ ⚅ (1 5 6)``."""
    text = Text()
    if not dice:
        text.append("—", style="dim")
        return text
    text.append(" ".join(face_char(d) for d in dice), style=style)
    text.append(f"  ({' '.join(map(str, dice))})", style="dim")
    return text


# -- the board -------------------------------------------------------------------------------------------------


def status_text(state: ThousandState, seat: int) -> Text:
    """Opened / pit / barrel / bolts / falls / points of one seat, coloured."""
    st = state.status(seat)
    r = state.rules
    text = Text()

    def add(part: str, style: str) -> None:
        if text:
            text.append("  ")
        text.append(part, style=style)

    if not st.opened:
        add(tr("thousand.term.not_opened", min=r.open_min), "yellow")
    if st.pit:
        add("⛏ " + tr("thousand.term.pit", low=st.pit[0], high=st.pit[1]), "magenta")
    if st.on_barrel:
        attempts = (
            f"{st.barrel_attempts}/{r.barrel_attempts}" if r.barrel_attempts else f"{st.barrel_attempts}"
        )
        add("🛢 " + tr("thousand.term.barrel", attempts=attempts), "bold cyan")
    if r.bolts and st.bolts:
        add(tr("thousand.term.bolts", bolts=st.bolts, limit=r.bolts_count), "red")
    if st.barrel_falls:
        add(tr("thousand.term.falls", falls=st.barrel_falls), "red")
    if r.barrel == "open" and st.open_points:
        add(tr("thousand.term.points", points=st.open_points, limit=r.open_points_limit), "red")
    if st.skip_next_turn:
        add(tr("thousand.term.skips"), "dim")
    if not text:
        text.append("—", style="dim")
    return text


def board(state: ThousandState, names: Sequence[str]) -> Table:
    """Scores and statuses of every seat; the player to move is marked."""
    r = state.rules
    if r.barrel == "none":
        barrel = tr("thousand.term.goal_first", target=r.target)
    elif r.barrel == "score":
        exact = "thousand.term.goal_barrel_exact" if r.barrel_exact else "thousand.term.goal_barrel"
        barrel = tr(exact, barrel=r.barrel_score, target=r.target)
    else:
        barrel = tr("thousand.term.goal_open", target=r.target)
    preset = tr(f"preset.thousand.{r.preset}") if r.preset in type(r).PRESETS else tr("thousand.term.custom")
    table = Table(
        title=tr("thousand.term.title", game=tr("game.thousand.title"), turn=state.turns),
        caption=tr("thousand.term.caption", preset=preset, goal=barrel),
        title_justify="left",
        caption_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("", width=1)
    table.add_column(tr("thousand.term.col.player"), style="bold")
    table.add_column(tr("thousand.term.col.score"), justify="right")
    table.add_column(tr("thousand.term.col.status"))
    over = state.is_terminal()
    for seat, name in enumerate(names):
        mark = "▶" if seat == state.player and not over else ("★" if over and state.winner == seat else "")
        table.add_row(
            mark, name, tr("thousand.term.score", score=state.score[seat]), status_text(state, seat)
        )
    return table


def scored_styles(dice: Sequence[int], kept: Sequence[int]) -> list[str]:
    """Green for the dice a roll sets aside, dim for the others."""
    pool = list(kept)
    styles = []
    for d in dice:
        if d in pool:
            pool.remove(d)
            styles.append("bold green")
        else:
            styles.append("dim")
    return styles


def roll_picture(state: ThousandState, big: bool = True) -> Text:
    """The last roll: boxed dice (scoring ones in green) and what they scored."""
    dice = state.last_roll or ()
    kept = [d for c in state.last_combos for d in c.dice]
    text = dice_art(dice, scored_styles(dice, kept)) if big else dice_inline(dice)
    if not big:
        text.append("  ")
    if state.last_combos:
        parts = ", ".join(f"{c} = {c.points}" for c in state.last_combos)
        total = sum(c.points for c in state.last_combos)
        if len(state.last_combos) > 1:
            text.append(tr("thousand.term.scores_parts", total=total, parts=parts))
        else:
            text.append(tr("thousand.term.scores", parts=parts))
    else:
        text.append(tr("thousand.term.zero_roll"), style="bold red")
    return text


def turn_line(state: ThousandState) -> Text:
    """Turn total, set-aside dice, dice in hand and whether banking is allowed (and why not)."""
    text = Text()
    text.append(tr("thousand.term.turn_total") + " ", style="dim")
    text.append(tr("thousand.term.score", score=state.turn_total), style="bold")
    text.append("   " + tr("thousand.term.set_aside") + " ", style="dim")
    text.append_text(dice_inline(state.set_aside, "green") if state.set_aside else Text("—", style="dim"))
    text.append("   " + tr("thousand.term.in_hand") + " ", style="dim")
    text.append(current().plural("unit.dice", state.dice_in_hand), style="bold")
    m = state.rules.max_rolls
    if m:
        text.append("   " + tr("thousand.term.rolls", rolls=free_rolls_of(state), max=m), style="dim")
    refusal = state.bank_refusal()
    if state.current_player() >= 0 and state.pending_roll is None:
        text.append("\n")
        if refusal is None:
            text.append(tr("thousand.term.may_bank"), style="green")
        else:
            text.append(tr("thousand.term.cannot_bank", reason=localize(refusal)), style="yellow")
    return text


def free_rolls_of(state: ThousandState) -> int:
    return state.free_rolls


def move_instruction(state: ThousandState, move: str) -> str:
    """A legal move of the player to move as an instruction, for the ``?`` hints: "Set aside 1 and 5", "Roll 3
    dice", "Say “enough” and bank 350" (the browser's Hint list says the same, ``thousand.move.*``); a move
    these words do not know is shown as it is written."""
    t = current()
    if move == "roll":
        return t.plural("thousand.move.roll", state.dice_in_hand)
    if move == "bank":
        return t("thousand.move.bank", total=state.turn_total)
    if move.startswith("keep "):
        from babel.lists import format_list

        return t("thousand.move.keep", dice=format_list(move[5:].split(","), locale=t.lang))
    return move
