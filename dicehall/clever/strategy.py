"""Where ``bot:master``'s points come from: the figures of the Clever strategy page and ``dicehall strategy clever``.

Drawn from seeded games of ``bot:master`` against itself (game ``i`` of seed ``S``: the dice of
``game_seed(S, i)``, the same games as ``dicehall simulate clever --players bot:master --seed S``), played step by
step so every decision can be looked at. :func:`observe_game` gives one game's numbers (compact, JSON-able),
:func:`summarise` turns many into the shipped figures (``data/strategy.json``, made by
``scripts/clever_strategy.py``; docs/strategy.md says what each figure means and what is left out).

The values (die colours, +1 and re-roll, the first round's choices) are the ones the bot decides by, in points
(:meth:`MasterAgent.lookahead_values`: the solo network's learned value — the points on the sheet plus the expected
points still to come — with the next-roll look-ahead for the close candidates), so they are measured in solo
games only; the points by area, round and bonus come from every table size.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from importlib import resources
from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.game import CleverGame
from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.master import MasterAgent
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, PH_ROLL, CleverState
from dicehall.clever.tables import ROUND_ORIGIN
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.stats import Z95

DEFAULT_SEED = 2031
SAMPLE_GAMES = 5
"""Solo games whose own numbers the shipped file keeps, for the test that plays them again."""
TOP_SHARE = 0.1
"""The first round's choices that matter most: the decisions whose best beats the second best by at least the
90th percentile of every first-round margin."""
SHOWN_CHOICES = 8
ROUNDED = 2


def _sheet_row(sheet: Any) -> list[int]:
    """Five areas, fox points, +1 and re-roll gained and used: the numbers kept at each round's end."""
    return [
        *sheet.area_scores(),
        sheet.fox_points(),
        sheet.p1_gain,
        sheet.p1_used,
        sheet.rr_gain,
        sheet.rr_used,
    ]


P1_GAIN, P1_USED, RR_GAIN, RR_USED = 6, 7, 8, 9


def _describe(action: int) -> str:
    """A choice as the page names it: ``pick:W:Y`` (white die to yellow), ``plus:B:B``, ``reroll``, ``cross:Y``,
    ``black:O``, ``stop``, ``pass``, ``forfeit`` (and :func:`_with_cell`'s ``@r2c3`` where only the cell differs)."""
    kind = A.kind_of(action)
    if kind in (A.K_ENTRY, A.K_PLUS):
        tag = "pick" if kind == A.K_ENTRY else "plus"
        return f"{tag}:{S.DIE_LETTERS[A.die_of(action)]}:{S.AREA_LETTERS[A.area_of(action)]}"
    if kind in (A.K_CHOOSE, A.K_BLACK):
        return f"{'cross' if kind == A.K_CHOOSE else 'black'}:{S.AREA_LETTERS[A.area_of(action)]}"
    return {A.K_REROLL: "reroll", A.K_FORFEIT: "forfeit", A.K_STOP: "stop", A.K_PASS: "pass"}[kind]


def _with_cell(text: str, action: int) -> str:
    """``pick:Y:Y@r2c3``: a choice with its cell of the yellow or blue grid (row 2, column 3)."""
    cell = A.cell_of(action)
    return f"{text}@r{cell // 4 + 1}c{cell % 4 + 1}"


def _situation(state: CleverState) -> str:
    """``roll1``–``roll3`` (the active pick), ``passive``, ``plus`` or ``bonus`` (where a bonus cross goes)."""
    if state.choice_pending:
        return "bonus"
    if state.phase == PH_PICK:
        return f"roll{min(state.rolls + 1, 3)}"
    if state.phase == PH_PASSIVE_PICK:
        return "passive"
    return "plus" if state.phase == PH_PLUS else "other"


class _Values:
    """The solo network's learned value of a seat's sheet in a position, in points."""

    def __init__(self, agent: MasterAgent) -> None:
        self.w = agent.weights
        self.scratch = net.value_scratch(self.w[1], self.w[3])

    def __call__(self, state: CleverState, seat: int) -> float:
        w1, b1, w2, b2, w3, b3 = self.w
        g = B.from_state(state)
        return net.SCALE * float(net.afterstate_value(g, seat, w1, b1, w2, b2, w3, b3, *self.scratch))

    def with_one_more(self, state: CleverState, field: str) -> float | None:
        """The value with one more +1 (``p1_gain``) or re-roll (``rr_gain``) on hand; None when the bar is full."""
        if getattr(state.sheets[0], field) >= S.ACTION_CIRCLES:
            return None
        probe = state.clone()
        sheet = probe.sheets[0]
        setattr(sheet, field, getattr(sheet, field) + 1)
        return self(probe, 0)


def _colour_edges(values: list[tuple[int, float]], chosen: int, acc: list[list[float]]) -> None:
    """Per die: offered, picked, and its worth — how much the best value taking it beats the best value without
    it, 0 where another choice is better — and the worth's square, for an active pick."""
    for d in range(6):
        with_d = [v for a, v in values if A.kind_of(a) == A.K_ENTRY and A.die_of(a) == d]
        without = [v for a, v in values if not (A.kind_of(a) == A.K_ENTRY and A.die_of(a) == d)]
        if not with_d or not without:
            continue
        edge = max(max(with_d) - max(without), 0.0)
        row = acc[d]
        row[0] += 1
        row[1] += A.kind_of(chosen) == A.K_ENTRY and A.die_of(chosen) == d
        row[2] += edge
        row[3] += edge * edge


def _used_gain(
    state: CleverState,
    values: list[tuple[int, float]],
    chosen: int,
    acc: list[list[float]],
    chain: list[float],
) -> None:
    """What using +1 or a re-roll was worth where the bot used one (per round: +1 count, +1 sum, re-roll count,
    re-roll sum). A run of +1 (until the bot stops or picks again; bonus crosses between them belong to it) counts
    as a whole: the first one's value minus stopping's, shared by the run's uses, since the first one's value
    already holds the rest of the run. A re-roll: its value minus the best pick's. ``chain``: the open run
    (round, gain, uses), empty when none."""
    kind = A.kind_of(chosen)
    if kind == A.K_PLUS and not state.choice_pending:
        if not chain:
            mine = next(v for a, v in values if a == chosen)
            stop = next(v for a, v in values if a == A.STOP)
            chain.extend([state.round - 1, mine - stop, 0])
        chain[2] += 1
        return
    if state.choice_pending:
        return
    _close(chain, acc)
    if kind == A.K_REROLL:
        row = acc[state.round - 1]
        row[2] += 1
        row[3] += next(v for a, v in values if a == A.REROLL) - max(v for a, v in values if a != A.REROLL)


def _close(chain: list[float], acc: list[list[float]]) -> None:
    if chain:
        row = acc[int(chain[0])]
        row[0] += chain[2]
        row[1] += chain[1]
        chain.clear()


def observe_game(seed: int, index: int, players: int = 1, agent: MasterAgent | None = None) -> dict[str, Any]:
    """One game of ``bot:master`` in every seat, played step by step: per seat the sheet's numbers at each
    round's end (:func:`_sheet_row`: a round's own start bonus counted in that round); solo also the die colours'
    edges, the value of one more +1 / re-roll at each round's first roll, and the first round's decisions."""
    agent = agent or MasterAgent()
    s = game_seed(seed, index)
    chance, bots = seeded_rng(s), agent_rng(s)
    state = CleverGame().new_initial_state(CleverRules.from_preset(), players)
    assert isinstance(state, CleverState)
    solo = players == 1
    value = _Values(agent) if solo else None
    rounds: list[list[list[int]]] = []
    colours = [[0.0, 0.0, 0.0, 0.0] for _ in range(6)]
    actions: list[list[float | None]] = []
    first: list[list[Any]] = []
    used = [[0.0, 0.0, 0.0, 0.0] for _ in range(state.rounds)]
    chain: list[float] = []
    probed = 0
    while True:
        who = state.current_player()
        if who == TERMINAL:
            break
        if (
            value is not None
            and who == CHANCE
            and state.phase == PH_ROLL
            and state.rolls == 0
            and probed < state.round
        ):
            probed = state.round
            base = value(state, 0)
            plus, reroll = value.with_one_more(state, "p1_gain"), value.with_one_more(state, "rr_gain")
            actions.append(
                [
                    None if plus is None else round(plus - base, 3),
                    None if reroll is None else round(reroll - base, 3),
                ]
            )
        before = state.round
        if who == CHANCE:
            state.sample_and_apply_chance(chance)
        else:
            if solo and len(state.legal_actions()) > 1:
                # the values the bot decides by (the look-ahead where close): its choice is their first best,
                # the same as choose's (a test plays the games again through the kernel's fast path)
                vals = agent.lookahead_values(state)
                top = max(v for _, v in vals)
                action = next(a for a, v in vals if v == top)
                if state.phase == PH_PICK and not state.choice_pending:
                    _colour_edges(vals, action, colours)
                _used_gain(state, vals, action, used, chain)
                if state.round == 1:
                    ranked = sorted(vals, key=lambda av: -av[1])
                    gap = ranked[0][1] - ranked[1][1]
                    best, second = _describe(ranked[0][0]), _describe(ranked[1][0])
                    if best == second:  # the same die in the same grid: the cells tell them apart
                        best, second = _with_cell(best, ranked[0][0]), _with_cell(second, ranked[1][0])
                    first.append([_situation(state), best, second, round(gap, 3)])
            else:
                action = agent.choose(state, bots)
            state.apply_action(action)
        if state.round != before:
            rows = [_sheet_row(sh) for sh in state.sheets]
            for p, bonus, applied, origin in state.log:  # the new round's start bonus is the new round's
                if applied and origin in ROUND_ORIGIN and bonus in (S.PLUS_ONE, S.REROLL):
                    rows[p][P1_GAIN if bonus == S.PLUS_ONE else RR_GAIN] -= 1
            rounds.append(rows)
    rounds.append([_sheet_row(sh) for sh in state.sheets])
    _close(chain, used)
    out: dict[str, Any] = {
        "index": index,
        "scores": [int(x) for x in state.scores()],
        "foxes": [sh.foxes for sh in state.sheets],
        "rounds": rounds,
    }
    if solo:
        out["colours"] = [[round(x, 3) for x in row] for row in colours]
        out["actions"] = actions
        out["used"] = [[round(x, 3) for x in row] for row in used]
        out["first"] = first
    return out


# -- summaries ----------------------------------------------------------------------------------------------------
def _interval(values: np.ndarray) -> dict[str, float]:
    n = len(values)
    mean = float(values.mean()) if n else 0.0
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return {
        "mean": round(mean, ROUNDED),
        "low": round(mean - half, ROUNDED),
        "high": round(mean + half, ROUNDED),
    }


def _ratio_interval(num: np.ndarray, den: np.ndarray) -> dict[str, float]:
    """ΣX/ΣN over games with the delta method's 95 % interval (decisions of one game are not independent)."""
    total = float(den.sum())
    mean = float(num.sum()) / total if total else 0.0
    n = len(num)
    var = float(((num - mean * den) ** 2).sum()) / total**2 * n / (n - 1) if n > 1 and total else 0.0
    half = Z95 * math.sqrt(var)
    return {
        "mean": round(mean, ROUNDED),
        "low": round(mean - half, ROUNDED),
        "high": round(mean + half, ROUNDED),
    }


def _means(a: np.ndarray) -> list[float]:
    """Means over the games (the first axis), rounded."""
    return [round(float(x), ROUNDED) for x in a.mean(axis=0)]


def table_summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Points per area, foxes and total (means over every seat, with 95 % intervals by game), by round, and the
    +1 / re-roll gained and used by round, for games of one table size."""
    rounds = np.array([g["rounds"] for g in games], dtype=float)  # game, round, seat, column
    seat_mean = rounds.mean(axis=2)  # the seats of a game are not independent: average them first
    final = seat_mean[:, -1]
    areas = {name: _interval(final[:, i]) for i, name in enumerate(S.AREA_NAMES)}
    areas["fox_points"] = _interval(final[:, 5])
    areas["foxes"] = _interval(np.array([np.mean(g["foxes"]) for g in games], dtype=float))
    areas["total"] = _interval(np.array([np.mean(g["scores"]) for g in games], dtype=float))
    points = seat_mean[:, :, :6].sum(axis=2)  # the total at each round's end
    gained = np.diff(np.concatenate([np.zeros((len(games), 1)), points], axis=1), axis=1)
    per_round_areas = np.diff(
        np.concatenate([np.zeros((len(games), 1, 6)), seat_mean[:, :, :6]], axis=1), axis=1
    )
    counters = np.diff(np.concatenate([np.zeros((len(games), 1, 4)), seat_mean[:, :, 6:]], axis=1), axis=1)
    return {
        "games": len(games),
        "areas": areas,
        "rounds": {
            "gained": [_interval(gained[:, r]) for r in range(gained.shape[1])],
            "total": _means(points),
            "areas": [_means(per_round_areas[:, r]) for r in range(per_round_areas.shape[1])],
        },
        "bonuses": {
            key: _means(counters[:, :, i])
            for i, key in enumerate(("plus_gained", "plus_used", "reroll_gained", "reroll_used"))
        },
    }


def colour_summary(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per die colour (active picks of solo games): how often it could be taken, how often it was, and its
    edge — the bot's best value taking it minus its best value otherwise — averaged over the picks it could."""
    c = np.array([g["colours"] for g in games], dtype=float)  # game, die, (offered, picked, edge, edge²)
    picks = sum(c[:, :, 1].sum(axis=1)) or 1.0
    out = []
    for d, name in enumerate(S.DIE_NAMES):
        offered = float(c[:, d, 0].sum())
        out.append(
            {
                "die": name,
                "offered_per_game": round(offered / len(games), ROUNDED),
                "picked_per_game": round(float(c[:, d, 1].sum()) / len(games), ROUNDED),
                "pick_share": round(float(c[:, d, 1].sum()) / picks, 4),
                "edge": _ratio_interval(c[:, d, 2], c[:, d, 0]),
            }
        )
    return out


def action_summary(games: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The value in points of one more +1 and one more re-roll on hand at each round's first roll (solo)."""
    rounds = max(len(g["actions"]) for g in games)
    out: dict[str, list[dict[str, Any]]] = {"plus": [], "reroll": []}
    for k, key in enumerate(("plus", "reroll")):
        for r in range(rounds):
            vals = np.array(
                [
                    g["actions"][r][k]
                    for g in games
                    if r < len(g["actions"]) and g["actions"][r][k] is not None
                ]
            )
            out[key].append({**_interval(vals), "n": len(vals)})
    return out


def used_summary(games: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """By round: how many +1 and re-rolls the bot used a game and what each was worth to it when used (solo)."""
    u = np.array(
        [g["used"] for g in games], dtype=float
    )  # game, round, (+1 n, +1 sum, re-roll n, re-roll sum)
    out: dict[str, list[dict[str, Any]]] = {"plus": [], "reroll": []}
    for k, key in enumerate(("plus", "reroll")):
        for r in range(u.shape[1]):
            n, total = u[:, r, 2 * k], u[:, r, 2 * k + 1]
            out[key].append({**_ratio_interval(total, n), "per_game": round(float(n.mean()), ROUNDED)})
    return out


def first_round_summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The first round's decisions that matter most: those whose best beats the second best by at least the
    90th percentile of every first-round margin, grouped by what the choice was (situation, best, second)."""
    decisions = [d for g in games for d in g["first"]]
    gaps = np.array([d[3] for d in decisions], dtype=float)
    cut = float(np.quantile(gaps, 1 - TOP_SHARE)) if len(gaps) else 0.0
    top = [d for d in decisions if d[3] >= cut]
    groups: Counter[tuple[str, str, str]] = Counter((d[0], d[1], d[2]) for d in top)
    sums: dict[tuple[str, str, str], float] = {}
    for d in top:
        key = (d[0], d[1], d[2])
        sums[key] = sums.get(key, 0.0) + d[3]
    rows = [
        {
            "situation": k[0],
            "best": k[1],
            "second": k[2],
            "per_100_games": round(100 * n / len(games), ROUNDED),
            "margin": round(sums[k] / n, ROUNDED),
        }
        for k, n in groups.most_common(SHOWN_CHOICES)
    ]
    return {
        "decisions_per_game": round(len(decisions) / len(games), ROUNDED),
        "median_margin": round(float(np.median(gaps)), ROUNDED) if len(gaps) else 0.0,
        "cut": round(cut, ROUNDED),
        "shown_share": round(sum(n for _, n in groups.most_common(SHOWN_CHOICES)) / max(len(top), 1), 4),
        "choices": rows,
    }


def summarise(by_players: dict[int, list[dict[str, Any]]], seed: int, command: str) -> dict[str, Any]:
    """The shipped figures from every observed game (``by_players[1]``: the solo games, in index order)."""
    solo = by_players[1]
    return {
        "seed": seed,
        "command": command,
        "tables": {str(n): table_summary(games) for n, games in sorted(by_players.items()) if games},
        "colours": colour_summary(solo),
        "actions": action_summary(solo),
        "used": used_summary(solo),
        "first_round": first_round_summary(solo),
        "sample": solo[:SAMPLE_GAMES],
    }


def shipped() -> dict[str, Any]:
    """The figures shipped with the package (``dicehall/clever/data/strategy.json``)."""
    text = (resources.files("dicehall.clever") / "data" / "strategy.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data
