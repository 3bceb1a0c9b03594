"""Ratings: OpenSkill's Plackett–Luce model over a game's ranking, the number players see, the bots' anchors.

Plackett–Luce rates one ranking of 2–8 seats at once (ties shared), which Glicko-2 cannot: it rates pairs, so a
4-player game would be six made-up duels. Parameters are OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6,
tau 25/300, kappa 0.0001). Players see ``display`` = 1500 + 40·(mu − 25) (lichess's scale: a new player is 1500
and its deviation 333), marked provisional ("?") while sigma > ``PROVISIONAL_SIGMA`` (4.0: some 18 games against
known opponents, as lichess's "?" lasts the first 10–20 games). Bots are never rated: each bot level plays as a fixed anchor (``anchors.json``, made by
``dicehall ratings anchors``, see docs/ratings.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
SCALE = 40.0
"""Display points per unit of mu."""
BASE = 1500
PROVISIONAL_SIGMA = 4.0
"""A rating is provisional while its sigma is above this (160 display points; about 18 games, see docs/ratings.md)."""
ANCHOR_SIGMA = 1.0
"""The sigma a bot's anchor enters a game with: small, so the bot's level is taken as known."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """mu − 3·sigma: the skill the player has at least, with 99.7 % confidence."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def display(mu: float) -> int:
    """The rating players see: 1500 + 40·(mu − 25), rounded."""
    return round(BASE + SCALE * (mu - MU))


def ranks_of(scores: Sequence[float], winners: Sequence[int], out: Sequence[int] = ()) -> list[int]:
    """Each seat's place (1 = first; equal places are ties): the winners share first place, then the other
    seats by score (higher is better, equal scores tie), and the seats in ``out`` (resigned) share the last."""
    n = len(scores)
    staying = [s for s in range(n) if s not in out]
    key = {s: (0 if s in winners else 1, -scores[s]) for s in staying}
    ranks = [0] * n
    for s in staying:
        ranks[s] = 1 + sum(1 for o in staying if key[o] < key[s])
    for s in out:
        ranks[s] = len(staying) + 1
    return ranks


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Every seat's skill after one game with these places (a team of one per seat)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in after]


ANCHORS_FILE = "anchors.json"


@cache
def shipped_anchors() -> dict[str, Any]:
    """The shipped table: ``{"games": {game: {"bots": {bot: mu}, "games": N, "seed": S, ...}}}``."""
    data: dict[str, Any] = json.loads(resources.files("dicehall.core").joinpath(ANCHORS_FILE).read_text())
    return data


def anchor(game: str, bot: str) -> Skill:
    """The fixed skill a bot level plays rated games with (a bot not in the table: a new player's mu)."""
    mu = shipped_anchors()["games"].get(game, {}).get("bots", {}).get(bot, MU)
    return Skill(float(mu), ANCHOR_SIGMA)
