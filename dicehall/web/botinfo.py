"""How strong each bot is, from the project's own measurements: the one place the new-table form reads them.

Each game's bots are listed weakest first, each with one measured figure (the document that holds the run in
``source``). A figure is either the share of two-player games won against another bot (``wins``) or the mean
score of a game played alone (``solo_mean``). The page words them (``bot.strength.*``); a bot not listed here
(a new one) is served after these, without a figure.
"""

from __future__ import annotations

from typing import Any

Strength = dict[str, Any]

STRENGTH: dict[str, list[tuple[str, Strength]]] = {
    # docs/thousand-play.md "Measured" (classic, 4,000 games a seating, the expert's win rate, here the other
    # side's), docs/strategy.md "A rule to remember" (practical vs optimal, classic, 100,000 games, both seats)
    # and docs/thousand-solved.md (optimal vs expert, classic, 100,000 games)
    "thousand": [
        ("random", {"kind": "wins", "share": 0.234, "against": "expert", "games": 8000}),
        ("bold", {"kind": "wins", "share": 0.291, "against": "expert", "games": 8000}),
        ("cautious", {"kind": "wins", "share": 0.455, "against": "expert", "games": 8000}),
        ("practical", {"kind": "wins", "share": 0.483, "against": "optimal", "games": 100000}),
        ("expert", {"kind": "wins", "share": 0.545, "against": "cautious", "games": 8000}),
        ("optimal", {"kind": "wins", "share": 0.518, "against": "expert", "games": 100000}),
    ],
    # docs/clever.md "Measured" (random, greedy: 1,000 games; expert: 60) and docs/clever-training.md (master,
    # held-out seeds 5557, 1,000 games)
    "clever": [
        ("random", {"kind": "solo_mean", "points": 65.0, "games": 1000}),
        ("greedy", {"kind": "solo_mean", "points": 181.0, "games": 1000}),
        ("expert", {"kind": "solo_mean", "points": 202.7, "games": 60}),
        ("master", {"kind": "solo_mean", "points": 267.8, "games": 1000}),
    ],
    # docs/wurf.md "Bots" (fast arena, the expert in the first seat, 600 games each)
    "wurf": [
        ("random", {"kind": "wins", "share": 0.375, "against": "expert", "games": 600}),
        ("cautious", {"kind": "wins", "share": 0.46, "against": "expert", "games": 600}),
        ("expert", {"kind": "wins", "share": 0.54, "against": "cautious", "games": 600}),
    ],
}


def ranked_bots(game: str, bots: dict[str, str]) -> list[dict[str, Any]]:
    """``bots`` (name → description) weakest first, each with its measured ``strength`` where there is one."""
    known = dict(STRENGTH.get(game, []))
    order = [name for name, _ in STRENGTH.get(game, []) if name in bots]
    order += [name for name in bots if name not in known]
    out: list[dict[str, Any]] = []
    for name in order:
        item: dict[str, Any] = {"name": name, "doc": bots[name]}
        if name in known:
            item["strength"] = known[name]
        out.append(item)
    return out
