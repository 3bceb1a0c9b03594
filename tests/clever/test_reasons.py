"""The view's ``refused`` (dicehall/clever/reasons.py): for positions of seeded random games, every die the seat
deciding cannot take and every cell it cannot enter a die on has a reason, nothing legal has one, and each reason
is true of the engine's position with the engine's numbers (checked here against the sheet, not by the engine's
refusal code that the reasons are made from)."""

from __future__ import annotations

from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.reasons import TARGETS, refused, target_key
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, TRACK, CleverState
from dicehall.clever.tables import B_VALUES, G_MIN, Y_VALUES
from dicehall.clever.view import public_view
from dicehall.core.game import CHANCE, TERMINAL, get_game

DIE = {f"clever.ui.die.{name}": d for d, name in enumerate(S.DIE_NAMES)}
AREA = {f"clever.ui.area.{name}": a for a, name in enumerate(S.AREA_NAMES)}


def cells_of(at: list[str]) -> list[str]:
    """A group's cells, an area's name standing for all the cells of that area."""
    return [k for a in at for k in ([target_key(x, c) for x, c in TARGETS if S.AREA_NAMES[x] == a] or [a])]


def deciding_positions(seed: int, n: int, preset: str, tracks: bool) -> list[CleverState]:
    """Every position of a seeded random game where a seat chooses a die (in a simultaneous phase, each seat's own
    branch); with ``tracks`` the players prefer green, orange and purple, so that those fill up."""
    state = get_game("clever").new_initial_state(CleverRules.from_preset(preset), n)
    assert isinstance(state, CleverState)
    rng = np.random.default_rng(seed)
    out: list[CleverState] = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        seats = state.simultaneous_seats()
        branches = [state.simultaneous_branch(s) for s in seats] if len(seats) > 1 else [state]
        for pos in branches:
            if not pos.choice_pending and pos.phase in (PH_PICK, PH_PLUS, PH_PASSIVE_PICK):
                out.append(pos.clone())
        legal = state.legal_actions()
        if tracks and rng.random() < 0.9:
            legal = [a for a in legal if a < A.CHANCE_FLAG and A.area_of(a) >= S.AREA_GREEN] or legal
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return out


def die_reason_problem(pos: CleverState, d: int, why: dict[str, Any]) -> str | None:
    """None when ``why`` is true of die ``d`` in ``pos`` (no entry of it is legal anyway), else what is wrong."""
    rid, params = why["id"], why["params"]
    seat = pos.current_player()
    if params.get("die", {}).get("id") not in (None, f"clever.ui.die.{S.DIE_NAMES[d]}"):
        return f"names another die: {params}"
    if rid == "clever.why.not_rolled":
        return None if pos.phase == PH_PICK and not pos.roll_mask >> d & 1 else "the die was just rolled"
    if rid == "clever.why.plus_used":
        return None if pos.phase == PH_PLUS and pos.plus_used[seat] >> d & 1 else "no +1 took this die"
    if rid in ("clever.why.platter_first", "clever.why.not_for_passive"):
        if pos.phase != PH_PASSIVE_PICK or pos.platter >> d & 1:
            return "the die is on the platter (or no passive choice)"
        fallback = pos.n > 1 and pos.rules.passive_fallback
        platter_fits = any(
            A.die_of(a) != d and pos.platter >> A.die_of(a) & 1
            for a in pos.legal_actions()
            if A.kind_of(a) == A.K_ENTRY
        )
        if rid == "clever.why.platter_first":
            return (
                None
                if fallback and platter_fits
                else f"fallback {fallback}, a platter die fits {platter_fits}"
            )
        return None if not fallback else "the rules let a passive player take a field die"
    if rid == "clever.why.no_fit":
        fallback = (
            pos.n > 1
            and pos.rules.passive_fallback
            and not pos.platter
            & sum(1 << A.die_of(a) for a in pos.legal_actions() if A.kind_of(a) == A.K_ENTRY)
        )
        available = {
            PH_PICK: bool(pos.roll_mask >> d & 1),
            PH_PLUS: not pos.plus_used[seat] >> d & 1,
            PH_PASSIVE_PICK: bool(pos.platter >> d & 1) or (fallback and d in pos.field),
        }[pos.phase]
        if not available:
            return "the die may not be taken now at all"
        for area, cell in TARGETS:
            problem = cell_reason_problem(pos, d, area, cell, None)
            if problem != "no entry problem":
                continue
            return f"the die fits {target_key(area, cell)}"
        return None
    return f"not a reason for a whole die: {rid}"


def cell_reason_problem(
    pos: CleverState, d: int, area: int, cell: int, why: dict[str, Any] | None
) -> str | None:
    """None when ``why`` is true of die ``d`` on the cell (with the engine's numbers); with ``why`` None, whether
    the sheet has any reason against it (``"no entry problem"`` when it fits)."""
    sh = pos.sheets[pos.current_player()]
    val = pos.values[d]
    if d != S.WHITE and S.AREA_OF_DIE[d] != area:
        want: tuple[str, dict[str, Any]] = ("clever.why.wrong_colour", {"die": d, "area": S.AREA_OF_DIE[d]})
    elif area == S.AREA_YELLOW:
        if sh.ymask >> cell & 1:
            want = ("clever.why.crossed", {"area": area})
        elif val != Y_VALUES[cell]:
            want = ("clever.why.yellow_needs", {"need": Y_VALUES[cell], "die": d, "value": val})
        else:
            return "no entry problem"
    elif area == S.AREA_BLUE:
        total = pos.values[S.BLUE] + pos.values[S.WHITE]
        if sh.bmask >> cell & 1:
            want = ("clever.why.crossed", {"area": area})
        elif total != B_VALUES[cell]:
            want = ("clever.why.blue_needs", {"need": B_VALUES[cell], "sum": total})
        else:
            return "no entry problem"
    elif area == S.AREA_GREEN:
        if sh.gcount >= TRACK:
            want = ("clever.why.full", {"area": area})
        elif val < G_MIN[sh.gcount]:
            want = ("clever.why.green_needs", {"need": G_MIN[sh.gcount], "die": d, "value": val})
        else:
            return "no entry problem"
    elif area == S.AREA_ORANGE:
        if len(sh.ovals) < TRACK:
            return "no entry problem"
        want = ("clever.why.full", {"area": area})
    elif len(sh.pvals) >= TRACK:
        want = ("clever.why.full", {"area": area})
    elif sh.pvals and sh.plast != 6 and val <= sh.plast:
        want = ("clever.why.purple_needs", {"last": sh.plast, "die": d, "value": val})
    else:
        return "no entry problem"
    if why is None:
        return want[0]
    said = {
        k: DIE[v["id"]] if k == "die" else AREA[v["id"]] if k == "area" else v
        for k, v in why["params"].items()
    }
    return None if (why["id"], said) == want else f"the sheet says {want}"


def test_every_refused_die_and_cell_has_a_true_reason_and_nothing_legal_has_one() -> None:
    checked = 0
    seen: set[str] = set()
    problems: list[str] = []
    for seed in range(4):
        for n in (1, 2, 3, 4):
            preset = "no-fallback" if seed == 2 else "standard"
            for pos in deciding_positions(seed, n, preset, tracks=seed % 2 == 1):
                where = f"seed={seed} n={n} {preset} {pos.describe_phase()}"
                why = refused(pos)
                assert why is not None, where
                kind = A.K_PLUS if pos.phase == PH_PLUS else A.K_ENTRY
                legal = {a for a in pos.legal_actions() if A.kind_of(a) == kind}
                for d, name in enumerate(S.DIE_NAMES):
                    mine = {A.entry(d, area, cell, kind): (area, cell) for area, cell in TARGETS}
                    takes = bool(legal & set(mine))
                    groups = [g for g in why["cells"] if name in g["dice"]]
                    assert bool(groups) == takes and (name in why["dice"]) != takes, (where, name)
                    if not takes:
                        seen.add(why["dice"][name]["id"])
                        problem = die_reason_problem(pos, d, why["dice"][name])
                        if problem:
                            problems.append(f"{where}: {name} {why['dice'][name]}: {problem}")
                        continue
                    said = {at: g["why"] for g in groups for at in cells_of(g["at"])}
                    listed = sum(len(cells_of(g["at"])) for g in groups)
                    assert listed == len(said), f"{where}: {name}: a cell in two groups"
                    for action, (area, cell) in mine.items():
                        key = target_key(area, cell)
                        checked += 1
                        if action in legal:
                            assert key not in said, f"{where}: {name} on {key} is legal, yet refused"
                            continue
                        assert key in said, f"{where}: {name} on {key} is refused without a reason"
                        seen.add(said[key]["id"])
                        problem = cell_reason_problem(pos, d, area, cell, said[key])
                        if problem:
                            problems.append(f"{where}: {name} on {key} {said[key]}: {problem}")
    assert not problems, f"{len(problems)} wrong reasons, e.g.:\n" + "\n".join(problems[:15])
    assert checked > 20_000, checked
    assert seen == {
        f"clever.why.{r}"
        for r in (
            "not_rolled",
            "plus_used",
            "platter_first",
            "not_for_passive",
            "no_fit",
            "wrong_colour",
            "crossed",
            "yellow_needs",
            "blue_needs",
            "green_needs",
            "purple_needs",
            "full",
        )
    }, seen


def test_the_view_carries_the_reasons_only_for_a_die_choice() -> None:
    state = get_game("clever").new_initial_state(CleverRules.from_preset(None), 2)
    assert isinstance(state, CleverState)
    assert public_view(state)["refused"] is None  # the dice are to be rolled
    state.apply_action(A.roll({0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6}))
    view = public_view(state)
    assert view["refused"] == refused(state) and view["refused"]["dice"] == {}
    blue = {g["why"]["id"] for g in view["refused"]["cells"] if g["dice"] == ["white", "blue"]}
    assert "clever.why.blue_needs" in blue  # (the same for both dice: said once)
