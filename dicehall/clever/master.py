"""``bot:master``: plays the legal action whose afterstate has the highest learned value, with a look-ahead over
the turn's next roll where the choice is close, and, solo once the last roll is made, the best final score
searched exactly (:mod:`dicehall.clever.kernel.search`).

The value networks are loaded with numpy alone and evaluated by the compiled kernel: solo
``dicehall/clever/data/master.npz`` (the mean of networks trained by ``dicehall train clever`` from different seeds,
joined by ``scripts/clever_ensemble.py``), at tables of 2–4 ``master-table.npz`` (trained by ``dicehall train clever
--seats 1,1,2,3,4 --objective margin``: the lead over the best opponent, the features seeing the table).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel import search as SR
from dicehall.clever.kernel.features import COUNT
from dicehall.clever.state import CleverState
from dicehall.core.agents import Agent
from dicehall.core.errors import DicehallError
from dicehall.core.game import State
from dicehall.core.playout import register_block, register_playout
from dicehall.core.rules import RuleSet

WEIGHT_NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")
_CACHE: dict[str, tuple[list[np.ndarray], dict[str, Any]]] = {}


class WeightsError(DicehallError):
    """A weights file that cannot be used."""


SOLO_FILE, TABLE_FILE = "master.npz", "master-table.npz"


def load_weights(
    path: Path | None = None, shipped: str = SOLO_FILE
) -> tuple[list[np.ndarray], dict[str, Any]]:
    """The network's arrays (float64, C order) and its info; the shipped weights ``shipped`` (the solo network,
    or :data:`TABLE_FILE`: the one for tables of 2–4) when ``path`` is None."""
    key = str(path) if path is not None else f"<package>/{shipped}"
    if key not in _CACHE:
        source = path if path is not None else resources.files("dicehall.clever") / "data" / shipped
        try:
            with source.open("rb") as fh, np.load(fh) as data:
                weights = [np.ascontiguousarray(data[k], np.float64) for k in WEIGHT_NAMES]
                info = json.loads(str(data["info"])) if "info" in data else {}
        except (OSError, KeyError, ValueError) as exc:
            raise WeightsError(f"cannot load Clever master weights from {source}: {exc}") from None
        if weights[0].shape[0] > COUNT or weights[0].shape[1] != weights[2].shape[0]:
            raise WeightsError(f"{source}: the network does not fit the {COUNT} features of this version")
        w1, b1, w2, b2, w3, b3 = weights
        count = b3.size  # an ensemble's members (net.ensemble)
        if (
            count < 1
            or b1.size != w1.shape[1]
            or w3.size != b2.size
            or b2.size != count * w2.shape[1]
            or w2.shape[0] % count
        ):
            raise WeightsError(f"{source}: the layers' sizes do not fit together")
        weights = net.widen(weights)  # weights from before the last features were added
        _CACHE[key] = (weights, info)
    return _CACHE[key]


@dataclasses.dataclass(frozen=True)
class Lookahead:
    """The next-roll look-ahead: ``rolls`` sampled rolls (a multiple of 6), for the candidates leading to a roll
    of the same turn whose plain value is within ``margin`` points of the best, at most ``width`` of them.

    The low-tail corrections (off by default; docs/clever-training.md, "The low tail"): ``low`` values every
    point of the lowest area ``low`` points more while the game goes on (as if ``low`` more foxes were to come);
    ``wide_width`` > 0 widens the look-ahead to ``wide_margin`` points and ``wide_width`` candidates, every roll,
    where the fox product is at stake (a close candidate ends with other fox points), with at most
    ``wide_rounds`` rounds left (0: any); ``low_rounds`` limits the bonus the same way; ``risk`` takes that many
    times the mean shortfall below the mean off a looked-at candidate's value.

    The deep search (off by default; docs/clever-training.md, "A deeper search over the last round"):
    ``deep_rounds`` > 0 looks two rolls deep with at most that many rounds left: after each of the ``rolls``
    rolls the decision is itself made by the one-roll look-ahead over ``deep_rolls`` other rolls, and every roll
    counts (the solo passive roll too)."""

    rolls: int = 24
    margin: float = 3.0
    width: int = 2
    every_roll: bool = False  # also the first roll of a turn and the solo passive roll
    low: float = 0.0
    wide_margin: float = 0.0
    wide_width: int = 0
    wide_rounds: int = 0
    low_rounds: int = 0
    risk: float = 0.0
    deep_rounds: int = 0
    deep_rolls: int = 6
    deep_outer: int = 0
    exact: int = 0
    exact_roll: bool = False

    def __post_init__(self) -> None:
        if self.rolls <= 0 or self.rolls % 6 or self.margin < 0 or self.width < 0:
            raise ValueError("look-ahead: rolls a positive multiple of 6, margin and width not negative")
        if min(self.wide_margin, self.wide_width, self.wide_rounds, self.low_rounds, self.risk) < 0:
            raise ValueError(
                "look-ahead: the wide margin, width and rounds, the low rounds and risk not negative"
            )
        if self.exact < 0:
            raise ValueError("look-ahead: the exact end's cap not negative")
        if self.deep_rounds < 0 or self.deep_rolls <= 0 or self.deep_rolls % 6 or self.deep_outer % 6:
            raise ValueError(
                "look-ahead: deep rounds not negative, deep rolls a positive multiple of 6, outer ones a multiple"
            )

    @cached_property
    def table(self) -> np.ndarray:
        """The look-ahead's rolls, then (deep search on) the deep search's outer rolls and its inner ones."""
        if self.deep_rounds == 0:
            return SR.roll_table(self.rolls)
        outer = [SR.roll_table(self.deep_outer, seed=14)] if self.deep_outer else []
        return np.vstack([SR.roll_table(self.rolls), *outer, SR.roll_table(self.deep_rolls, seed=13)])

    @cached_property
    def tail(self) -> np.ndarray:
        out = SR.TAIL_OFF.copy()
        out[SR.TAIL_LOW] = self.low / net.SCALE
        out[SR.TAIL_MARGIN] = self.wide_margin / net.SCALE
        out[SR.TAIL_WIDTH] = self.wide_width
        out[SR.TAIL_ROUNDS] = self.wide_rounds
        out[SR.TAIL_LOW_ROUNDS] = self.low_rounds
        out[SR.TAIL_RISK] = self.risk
        out[SR.TAIL_DEEP_ROUNDS] = self.deep_rounds
        out[SR.TAIL_DEEP_ROLLS] = self.deep_rolls if self.deep_rounds else 0
        out[SR.TAIL_DEEP_OUTER] = self.deep_outer if self.deep_rounds else 0
        out[SR.TAIL_EXACT] = self.exact
        out[SR.TAIL_EXACT_ROLL] = self.exact_roll
        return out

    def args(self) -> tuple[np.ndarray, float, int, bool, np.ndarray]:
        """The kernel's arguments (margins and the bonus in value units)."""
        return self.table, self.margin / net.SCALE, self.width, self.every_roll, self.tail


EXACT_CAP = 20_000  # states per action of the exact end (docs/clever-training.md, "The exact end")
LOOKAHEAD = Lookahead(exact=EXACT_CAP)  # what bot:master plays with (figures in docs/clever-training.md)


class MasterAgent(Agent):
    """Best afterstate by the learned value, the close ones leading to a roll looked at one roll deeper (ties: the
    first legal action). ``lookahead=None`` plays the plain afterstate argmax.

    Two networks: ``weights`` plays solo, ``table_weights`` at tables of 2–4, trained there for the lead over
    the best opponent (docs/clever-training.md, "Tables"). Given ``weights`` alone, it plays at every size."""

    name = "master"

    def __init__(
        self,
        rules: RuleSet | None = None,
        weights: list[np.ndarray] | None = None,
        lookahead: Lookahead | None = LOOKAHEAD,
        table_weights: list[np.ndarray] | None = None,
    ) -> None:
        self.weights = weights if weights is not None else load_weights()[0]
        if table_weights is None:
            table_weights = self.weights if weights is not None else load_weights(shipped=TABLE_FILE)[0]
        self.table_weights = table_weights
        self.lookahead = lookahead
        self._out, self._values = net.decision_scratch()

    def weights_for(self, players: int) -> list[np.ndarray]:
        """The network that plays at a table of ``players``."""
        return self.weights if players < 2 else self.table_weights

    def values(self, state: CleverState) -> list[tuple[int, float]]:
        """Every legal action with its afterstate value in points: the expected final score solo; at a table
        one's own points now plus the lead over the best opponent still to be gained (the same ranking)."""
        g = B.from_state(state)
        w1, b1, w2, b2, w3, b3 = self.weights_for(state.num_players)
        net.choose(g, w1, b1, w2, b2, w3, b3, self._out, self._values)
        k = K.legal(g, self._out)
        return [(int(self._out[i]), float(self._values[i] * net.SCALE)) for i in range(k)]

    def lookahead_values(self, state: CleverState) -> list[tuple[int, float]]:
        """Every legal action with the value the bot decides by, in points: :meth:`values`, with the next-roll
        look-ahead in place of the plain value for the close candidates that lead to a roll of the same turn."""
        if self.lookahead is None:
            return self.values(state)
        g = B.from_state(state)
        w1, b1, w2, b2, w3, b3 = self.weights_for(state.num_players)
        SR.choose_search(g, w1, b1, w2, b2, w3, b3, self._out, self._values, *self.lookahead.args())
        k = K.legal(g, self._out)
        return [(int(self._out[i]), float(self._values[i] * net.SCALE)) for i in range(k)]

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, CleverState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        g = B.from_state(state)
        w1, b1, w2, b2, w3, b3 = self.weights_for(state.num_players)
        if self.lookahead is None:
            return int(self._out[net.choose(g, w1, b1, w2, b2, w3, b3, self._out, self._values)])
        pick = SR.choose_search(g, w1, b1, w2, b2, w3, b3, self._out, self._values, *self.lookahead.args())
        return int(self._out[pick])


def _play_out(
    state: CleverState,
    agents: Sequence[MasterAgent],
    chance_rng: np.random.Generator,
    bot_rng: np.random.Generator,
) -> bool:
    """``bot:master`` with the same weights and look-ahead in every seat: the kernel plays the same game."""
    n = state.num_players
    weights, lookahead = agents[0].weights_for(n), agents[0].lookahead
    if any(a.weights_for(n) is not weights or a.lookahead != lookahead for a in agents):
        return False
    B.finish_master(state, chance_rng, weights, None if lookahead is None else lookahead.args())
    return True


register_playout(CleverState, _play_out, agent_type=MasterAgent)


def _block(job: Any, agents: Sequence[MasterAgent], indices: range) -> Any:
    """``bot:master`` with the same weights and look-ahead in every seat of a simulation: whole blocks of games
    in the kernel (the same games); None otherwise."""
    from dicehall.clever import blocks

    n = len(job.players)
    weights, lookahead = agents[0].weights_for(n), agents[0].lookahead
    if any(a.weights_for(n) is not weights or a.lookahead != lookahead for a in agents):
        return None
    return blocks.play(job, indices, (weights, None if lookahead is None else lookahead.args()))


register_block("clever", _block, agent_type=MasterAgent)
