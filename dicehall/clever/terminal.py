"""Drawing Clever sheets and dice in the terminal (rich colour) and as plain text, and asking a human."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.state import PH_PICK, CleverState
from dicehall.clever.tables import B_VALUES, Y_PRINTED, Y_VALUES, blue_label, yellow_label
from dicehall.clever.words import area, rating
from dicehall.i18n import localize, tr

DIE_STYLE = ("bold white", "bold yellow", "bold blue", "bold green", "bold dark_orange", "bold magenta")
AREA_STYLE = ("yellow", "blue", "green", "dark_orange", "magenta")
CROSS = "✗"


def _bonus(b: int | None) -> str:
    return S.BONUS_SHORT[b] if b else ""


def _bar(gained: int, used: int) -> str:
    """Seven circles: crossed (used), circled (available), empty (not yet gained)."""
    return "⊗" * used + "◉" * (gained - used) + "○" * (S.ACTION_CIRCLES - gained)


def sheet_text(state: CleverState, p: int, name: str = "") -> Text:
    sh = state.sheets[p]
    areas = sh.area_scores()
    t = Text()
    title = name or tr("clever.term.player", n=p + 1)
    t.append(f"── {title} ", style="bold")
    t.append(
        tr("clever.term.total", total=sh.total(), areas=sum(areas), foxes=sh.foxes, lowest=min(areas)) + "\n",
        style="bold cyan",
    )
    labels = [tr(f"clever.term.area.{a}") for a in S.AREA_NAMES]
    width = max(len(x) for x in labels) + 1
    pad = " " * width
    # yellow
    ys = AREA_STYLE[0]
    for r in range(4):
        t.append(labels[0].ljust(width) if r == 0 else pad, style=ys)
        for c in range(4):
            i = r * 4 + c
            if Y_PRINTED >> i & 1:
                t.append(f" {CROSS}· ", style="dim " + ys)
            elif sh.ymask >> i & 1:
                t.append(f" {CROSS}{Y_VALUES[i]} ", style="bold reverse " + ys)
            else:
                t.append(f" {Y_VALUES[i]:>2} ", style=ys)
        t.append(f"→ {_bonus(S.YELLOW_AREA.row_bonuses[r])}", style="dim")
        if r == 0:
            t.append("    " + tr("clever.term.score", score=areas[0]), style="bold " + ys)
        t.append("\n")
    pts = S.YELLOW_AREA.column_points or ()
    t.append(
        pad + "".join(f" {x:>2} " for x in pts) + "  " + tr("clever.term.diagonal") + "\n", style="dim " + ys
    )
    # blue
    bs = AREA_STYLE[1]
    for r in range(3):
        t.append(labels[1].ljust(width) if r == 0 else pad, style=bs)
        for c in range(4):
            i = r * 4 + c
            if i == 0:
                t.append(" W+B", style="dim " + bs)
            elif sh.bmask >> i & 1:
                t.append(f" {CROSS}{B_VALUES[i]:<2}", style="bold reverse " + bs)
            else:
                t.append(f" {B_VALUES[i]:>3}", style=bs)
        t.append(f" → {_bonus(S.BLUE_AREA.row_bonuses[r])}", style="dim")
        if r == 0:
            t.append(
                "    " + tr("clever.term.score_crosses", score=areas[1], crosses=sh.bmask.bit_count()),
                style="bold " + bs,
            )
        t.append("\n")
    t.append(pad + "".join(f" {_bonus(b):>3}" for b in S.BLUE_AREA.column_bonuses) + "\n", style="dim")
    # green
    gs = AREA_STYLE[2]
    t.append(labels[2].ljust(width), style=gs)
    for i, m in enumerate(S.GREEN_AREA.minimums):
        if i < sh.gcount:
            t.append(f" {CROSS} ", style="bold reverse " + gs)
        else:
            t.append(f"≥{m} ", style=gs)
    t.append("   " + tr("clever.term.score", score=areas[2]) + "\n", style="bold " + gs)
    t.append(pad + "".join(f"{_bonus(b):>3}" for b in S.GREEN_AREA.bonuses) + "\n", style="dim")
    # orange
    os_ = AREA_STYLE[3]
    t.append(labels[3].ljust(width), style=os_)
    for i, m in enumerate(S.ORANGE_AREA.multipliers):
        if i < len(sh.ovals):
            t.append(f"{sh.ovals[i]:>3}", style="bold reverse " + os_)
        else:
            t.append(f" ×{m}" if m > 1 else "  _", style=os_)
    t.append("   " + tr("clever.term.score", score=areas[3]) + "\n", style="bold " + os_)
    t.append(pad + "".join(f"{_bonus(b):>3}" for b in S.ORANGE_AREA.bonuses) + "\n", style="dim")
    # purple
    ps = AREA_STYLE[4]
    t.append(labels[4].ljust(width), style=ps)
    for i in range(S.PURPLE_AREA.length):
        if i < len(sh.pvals):
            t.append(f"{sh.pvals[i]:>3}", style="bold reverse " + ps)
        else:
            t.append("  _", style=ps)
    t.append("   " + tr("clever.term.score", score=areas[4]) + "\n", style="bold " + ps)
    t.append(pad + "".join(f"{_bonus(b):>3}" for b in S.PURPLE_AREA.bonuses) + "\n", style="dim")
    t.append(tr("clever.term.rerolls") + " ", style="bold")
    t.append(_bar(sh.rr_gain, sh.rr_used))
    t.append("   +1 ", style="bold")
    t.append(_bar(sh.p1_gain, sh.p1_used))
    t.append("   " + tr("clever.term.foxes") + " ", style="bold")
    t.append("🦊" * sh.foxes if sh.foxes else "–", style="bold red")
    t.append("\n")
    return t


def _die(t: Text, state: CleverState, d: int) -> None:
    v = state.values[d]
    t.append(f" {S.DIE_LETTERS[d]}{v if v else '?'} ", style="reverse " + DIE_STYLE[d])
    t.append(" ")


def dice_text(state: CleverState, one_line: bool = False) -> Text:
    """The Rolled, Fields and Platter rows (one line each, or all on one line for the compact view)."""
    t = Text()
    rolled = [d for d in range(6) if state.roll_mask >> d & 1]
    labels = [tr("clever.term.rolled"), tr("clever.term.fields"), tr("clever.term.platter")]
    width = 0 if one_line else max(len(x) for x in labels) + 2
    sep = "   " if one_line else "\n"
    t.append((labels[0] + ": ").ljust(width), style="bold")
    if state.phase == PH_PICK and not state.choice_pending and rolled:
        for d in rolled:
            _die(t, state, d)
    else:
        t.append("–")
    t.append(sep + (labels[1] + ": ").ljust(width), style="bold")
    for d in state.field:
        _die(t, state, d)
    if not state.field:
        t.append("–")
    t.append(sep + (labels[2] + ": ").ljust(width), style="bold")
    plat = [d for d in range(6) if state.platter >> d & 1]
    for d in plat:
        _die(t, state, d)
    if not plat:
        t.append("–")
    t.append("\n")
    return t


def board_text(state: CleverState, names: list[str] | None = None) -> Text:
    t = Text()
    t.append(_heading(state), style="bold")
    t.append(localize(state.describe_phase(names)) + "\n")
    for p in range(state.n):
        t.append_text(sheet_text(state, p, names[p] if names else ""))
    t.append_text(dice_text(state))
    if state.is_terminal():
        t.append_text(result_text(state, names))
    return t


def board_renderable(
    state: CleverState, names: list[str] | None = None, width: int = 120, focus: int | None = None
) -> RenderableType:
    """The board for a colour terminal: with several players the sheets stand side by side when they fit. With
    ``focus`` (the compact view) that seat's sheet is drawn in full and every other seat in two lines
    (:func:`sheet_summary`), so four players fit an 80×40 terminal."""
    head = Text()
    head.append(_heading(state), style="bold")
    head.append(localize(state.describe_phase(names)) + "\n")
    label = (lambda p: names[p]) if names else (lambda p: "")
    if focus is not None and 0 <= focus < state.n and state.n > 1:
        mine = sheet_text(state, focus, label(focus))
        mine.rstrip()  # no blank lines between the parts: every line counts at 80×40
        others = Text("\n").join(
            sheet_summary(state, p, label(p), width) for p in range(state.n) if p != focus
        )
        dice = dice_text(state, one_line=True)
        dice.rstrip()
        parts: list[RenderableType] = [head, mine, others, dice]
    else:
        sheets = [sheet_text(state, p, label(p)) for p in range(state.n)]
        per_row = max(1, min(state.n, width // 62))
        grid = Table.grid(padding=(0, 3))
        for _ in range(per_row):
            grid.add_column()
        for i in range(0, len(sheets), per_row):
            grid.add_row(*sheets[i : i + per_row])
        parts = [head, grid, dice_text(state)]
    if state.is_terminal():
        parts.append(result_text(state, names))
    return Group(*parts)


def sheet_summary(state: CleverState, p: int, name: str = "", width: int = 80) -> Text:
    """Another player's sheet in a line: the total, each area's points, the re-rolls and +1s to use and the foxes
    (what a player weighs when deciding what to leave on the platter); each area's count of entries follows on a
    second line where the width allows no more."""
    sh = state.sheets[p]
    areas = sh.area_scores()
    filled = (bin(sh.ymask).count("1"), bin(sh.bmask).count("1"), sh.gcount, len(sh.ovals), len(sh.pvals))
    t = Text()
    t.append(f"── {name or tr('clever.term.player', n=p + 1)} ", style="bold")
    t.append(tr("clever.term.score", score=sh.total()), style="bold cyan")
    t.append(" │")
    for i, letter in enumerate(S.AREA_LETTERS):
        t.append(f" {letter} {areas[i]}", style="bold " + AREA_STYLE[i])
    t.append(f" │ ↻ {sh.rr_gain - sh.rr_used}  +1 {sh.p1_gain - sh.p1_used}  🦊 {sh.foxes}")
    if t.cell_len + 30 <= width:
        t.append(
            "  (" + " ".join(f"{S.AREA_LETTERS[i]}{CROSS}{n}" for i, n in enumerate(filled)) + ")",
            style="dim",
        )
    return t


def _heading(state: CleverState) -> str:
    return (
        tr("clever.term.heading", game=tr("game.clever.title"), round=state.round, rounds=state.rounds) + " "
    )


def result_text(state: CleverState, names: list[str] | None = None) -> Text:
    t = Text()
    t.append(tr("clever.term.final") + "\n", style="bold")
    for p, sh in enumerate(state.sheets):
        a = sh.area_scores()
        label = names[p] if names else tr("clever.term.player", n=p + 1)
        parts = " + ".join(f"{tr(f'clever.term.area.{name}')} {a[i]}" for i, name in enumerate(S.AREA_NAMES))
        foxes = tr("clever.term.foxes_times", foxes=sh.foxes, lowest=min(a))
        t.append(f"  {label}: {parts} + {foxes} = {sh.total()}\n")
    if state.n == 1:
        t.append(
            tr("clever.term.rating", rating=localize(rating(int(state.sheets[0].total())))) + "\n",
            style="bold green",
        )
    else:
        win = state.winner_seats()
        who = ", ".join(names[p] if names else tr("clever.term.player", n=p + 1) for p in win)
        t.append(
            tr("clever.term.shared_win" if len(win) > 1 else "clever.term.winner", names=who) + "\n",
            style="bold green",
        )
    return t


def render_plain(state: CleverState) -> str:
    return board_text(state).plain


def describe_action(state: CleverState, action: int) -> str:
    """Words for an action, in the position before it is applied."""
    if action & A.CHANCE_FLAG:
        return tr("clever.act.dice", dice=A.to_string(action))
    kind = A.kind_of(action)
    if kind == A.K_REROLL:
        return tr("clever.act.reroll")
    if kind == A.K_FORFEIT:
        return tr("clever.act.forfeit")
    if kind == A.K_STOP:
        return tr("clever.act.stop")
    if kind == A.K_PASS:
        return tr("clever.act.pass")
    where_area, cell = A.area_of(action), A.cell_of(action)
    where = _where(where_area, cell)
    if kind == A.K_CHOOSE:
        return tr("clever.act.bonus_cross", where=where)
    if kind == A.K_BLACK:
        if where_area in (S.AREA_ORANGE, S.AREA_PURPLE):
            return tr("clever.act.black_six", area=localize(area(where_area)))
        return tr("clever.act.black_cross", where=where)
    d = A.die_of(action)
    v = state.values[d]
    if where_area == S.AREA_BLUE:
        text = tr(
            "clever.act.enter_blue",
            die=tr(f"clever.term.die.{S.DIE_NAMES[d]}"),
            value=v,
            blue=state.values[S.BLUE],
            white=state.values[S.WHITE],
            total=B_VALUES[cell],
            where=where,
        )
    else:
        text = tr("clever.act.enter", die=tr(f"clever.term.die.{S.DIE_NAMES[d]}"), value=v, where=where)
    return tr("clever.act.plus_one", action=text) if kind == A.K_PLUS else text


def _where(where_area: int, cell: int) -> str:
    if where_area == S.AREA_YELLOW:
        return tr("clever.act.where_yellow", value=Y_VALUES[cell], cell=yellow_label(cell))
    if where_area == S.AREA_BLUE:
        return tr("clever.act.where_blue", value=B_VALUES[cell], cell=blue_label(cell))
    return localize(area(where_area))


def move_instruction(state: CleverState, move: str) -> str:
    """A legal move (in notation, as the hints list it) in the words of the terminal's choice list."""
    return describe_action(state, state.string_to_action(move))
