"""Dice 1000 rule set: every rule and house option of the digest (``shared/rules/thousand.md``).

The dataclass defaults are the ``classic`` preset (score barrel); the other presets list what they change.

>>> ThousandRules.from_preset("variant2").open_min
75
>>> ThousandRules.from_preset("classic", {"barrel_score": 1000})
Traceback (most recent call last):
...
dicehall.core.errors.RuleConfigError: barrel_score must be above the opening minimum 50 and below the target 1000, got 1000. Rules that work: barrel_score=995 (or leave out barrel_score: what you leave out is fitted to the rest)
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from dicehall.core.errors import RuleConfigError
from dicehall.core.rules import RuleSet, option
from dicehall.i18n.message import Message as M
from dicehall.thousand.scoring import CLASSIC_KINDS, YARD_KINDS

MAX_ONE_TURN = 300
"""The most points a rule set may demand in one turn: the opening minimum, a pit's width and the climb from the
score barrel to the target. Beyond it games stall for thousands of turns (a 500 climb: ≈5,000 turns on average
between two expert bots, against ≈100 in classic)."""

DEFAULT_TARGET = 1000
"""The target every preset plays to; the other options' classic numbers are made for it."""

MAX_BOLT_COST = 50
"""The most a bolt may cost on average (``bolt_penalty / bolts_count``): above it a zero roll costs more than a
bold player's turns gain, and games between such players stop ending."""


@dataclasses.dataclass(frozen=True)
class ThousandRules(RuleSet):
    """Rules of Dice 1000. Point values are in game points (dice score in steps of 5)."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "classic": {},
        "classic-open": {"barrel": "open"},
        "classic-nobarrel": {"barrel": "none"},
        "variant2": {
            "open_min": 75,
            "hot_dice": "confirm",
            "pits": (),
            "overtake_penalty": 0,
            "dump_truck": False,
            "bolts": False,
            "barrel_score": 850,
            "barrel_attempts": 0,
            "barrel_knock": "opening",
        },
        "yard": {
            "scoring": "yard",
            "golden_win": True,
            "open_min": 100,
            "max_rolls": 3,
            "hot_dice": "confirm",
            "reconfirm_hot": True,
            "pair_reroll": True,
            "exact_reset": True,
            "barrel_score": 905,
            "barrel_cap": False,
            "barrel_exact": True,
            "skip_on_zero_first": True,
        },
    }
    DEFAULT_PRESET: ClassVar[str] = "classic"

    roll_off: bool = option(
        False,
        "who starts is decided by a roll-off (each contender rolls one die, highest starts, ties roll again); "
        "off: seat 0 starts",
    )
    # -- scoring ---------------------------------------------------------------------------------------------
    scoring: str = option(
        "classic",
        "four/five-of-a-kind table: classic (1111=200, 2222=40..) or yard (1111=500, four of v = v*50)",
        choices=("classic", "yard"),
    )
    golden_win: bool = option(False, "five 1s in one roll win the game at once (yard 'golden win')")
    free_set_aside: bool = option(
        False, "after a scoring roll the player chooses which scoring combinations to keep (Farkle-style)"
    )
    # -- opening ---------------------------------------------------------------------------------------------
    open_min: int = option(
        50,
        "opening minimum: the first bank must be at least this in one turn",
        min=0,
        max=MAX_ONE_TURN,
        step=5,
    )
    open_fail_every: int = option(
        3, "every this many failed opening turns cost open_fail_penalty", min=1, max=10
    )
    open_fail_penalty: int = option(
        0, "penalty for every open_fail_every failed opening turns (0 = none)", min=0, max=200, step=5
    )
    # -- turn ------------------------------------------------------------------------------------------------
    hot_dice: str = option(
        "mandatory",
        "after all 5 dice scored: mandatory roll of all 5 (classic) or a confirmation roll that banks the turn",
        choices=("mandatory", "confirm"),
    )
    reconfirm_hot: bool = option(
        False, "a confirmation roll that is itself hot dice must be confirmed again (yard)"
    )
    max_rolls: int = option(
        0, "at most this many rolls per turn, forced re-rolls not counted (0 = no limit)", min=0, max=10
    )
    pair_reroll: bool = option(
        False, "3 dice set aside and the other 2 roll a non-scoring pair: keep the points, roll all 5 (yard)"
    )
    skip_on_zero_first: bool = option(
        False, "a zero first roll of a turn skips the player's next turn once anyone has banked (yard)"
    )
    # -- after a bank ----------------------------------------------------------------------------------------
    pits: tuple[tuple[int, int], ...] = option(
        ((200, 300), (600, 700)),
        "pits [low, high): a player in one may only bank enough to reach high",
        min=0,
        max=5000,
        step=5,
        max_items=5,
    )
    overtake_penalty: int = option(
        50, "each opponent overtaken by a bank loses this (0 = no overtaking rule)", min=0, max=200, step=5
    )
    dump_truck: bool = option(
        True, "dump truck: a player whose score becomes exactly dump_truck_score drops to 0"
    )
    dump_truck_score: int = option(555, "the dump truck score", min=5, max=4995, step=5)
    exact_reset: bool = option(
        False, "a bank landing exactly on an opponent's score sends that opponent to 0"
    )
    # -- bolts -----------------------------------------------------------------------------------------------
    bolts: bool = option(True, "a zero-roll turn gives a bolt")
    bolts_count: int = option(
        3, "every this many bolts cost bolt_penalty and the count restarts", min=1, max=10
    )
    bolt_penalty: int = option(100, "points lost for a full set of bolts", min=0, max=200, step=5)
    bolts_everywhere: bool = option(
        False, "bolts count also while not opened, in a pit or on the barrel (classic: they do not)"
    )
    # -- barrel and win --------------------------------------------------------------------------------------
    target: int = option(1000, "the winning score", min=20, max=5000, step=5)
    barrel: str = option(
        "score",
        "barrel kind: none (first to reach target wins), score (climb, then win in one turn), open (exactly target)",
        choices=("none", "score", "open"),
    )
    barrel_score: int = option(
        880, "score barrel: a bank reaching this puts the player on the barrel", min=5, max=4995, step=5
    )
    barrel_cap: bool = option(True, "a bank reaching the barrel is recorded as exactly barrel_score")
    barrel_exact: bool = option(False, "score barrel: the win must land exactly on target (yard)")
    barrel_attempts: int = option(3, "turns on the barrel before falling off (0 = no limit)", min=0, max=10)
    barrel_fall_penalty: int = option(100, "points lost when falling off the barrel", min=0, max=200, step=5)
    barrel_falls_to_zero: int = option(
        3, "from this fall of the game on, a fall sets the score to 0 (0 = never)", min=0, max=10
    )
    barrel_knock: str = option(
        "fall",
        "when another player climbs on: a player on the barrel falls (with penalty), goes back to their "
        "opening bank's score (variant 2), or stays",
        choices=("fall", "opening", "none"),
    )
    open_points_limit: int = option(
        6, "open barrel: this many points (passing the target) make a fall", min=1, max=20
    )
    open_point_penalty: int = option(100, "open barrel: points lost for a fall", min=0, max=200, step=5)
    open_fall_limit: int = option(1, "open barrel: from this fall on the score drops to 0", min=1, max=10)

    # -- derived ---------------------------------------------------------------------------------------------
    @property
    def kinds(self) -> tuple[tuple[int, int, int], ...]:
        """The of-a-kind table of ``scoring`` (for :func:`dicehall.thousand.scoring.score_roll`)."""
        return YARD_KINDS if self.scoring == "yard" else CLASSIC_KINDS

    def pit_of(self, score: int) -> tuple[int, int] | None:
        """The pit ``(low, high)`` holding ``score`` (``low <= score < high``), or ``None``."""
        for low, high in self.pits:
            if low <= score < high:
                return (low, high)
        return None

    @classmethod
    def adapt(cls, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        """Fit the options the player left out to those they set (the ruling in docs/thousand-play.md, "Rule
        sets that adapt"). What still fits stays where it is and no option the player set is changed; an opening
        minimum, score barrel or pit that no longer fits is moved in proportion to the target (its classic
        number × target / 1000, in steps of 5) within the bounds the checks set; a pit that still does not fit
        is dropped; a dump truck that does not fit is moved so, or else turned off.

        >>> r = ThousandRules.from_preset("classic", {"target": 300})
        >>> r.open_min, r.barrel_score, r.pits, r.dump_truck_score
        (50, 265, ((60, 90), (180, 210)), 165)
        >>> ThousandRules.from_preset("classic", {"target": 2000}).barrel_score  # the climb is at most 300
        1760
        """
        target = values["target"]
        if cls._value_problem("target", target) is not None:
            return values  # a target the checks refuse on its own
        scale: float = target / DEFAULT_TARGET

        def moved(points: int) -> int:
            return max(0, round(points * scale / 5) * 5)

        if "open_min" not in explicit and values["open_min"] >= target:
            values["open_min"] = min(moved(values["open_min"]), target - 5)
        score_barrel = values["barrel"] == "score"
        barrel = values["barrel_score"]
        fits = values["open_min"] < barrel < target and target - barrel <= MAX_ONE_TURN
        if score_barrel and "barrel_score" not in explicit and not fits:
            lowest = max(target - MAX_ONE_TURN, values["open_min"] + 5)
            values["barrel_score"] = barrel = min(max(moved(barrel), lowest), target - 5)
        ceiling = barrel if score_barrel else target
        if "pits" not in explicit:
            pits: list[tuple[int, int]] = []
            for low, high in sorted(values["pits"]):
                if high > ceiling:
                    low, high = moved(low), min(moved(high), moved(low) + MAX_ONE_TURN)
                if low < high <= ceiling and (not pits or pits[-1][1] <= low):
                    pits.append((low, high))
            values["pits"] = tuple(pits)
        truck = values["dump_truck_score"]
        if values["dump_truck"] and "dump_truck_score" not in explicit and not truck < ceiling:
            if 5 <= moved(truck) < ceiling:
                values["dump_truck_score"] = moved(truck)
            elif "dump_truck" not in explicit:
                values["dump_truck"] = False
        return values

    def validate(self) -> None:
        """Cross-option checks (each option's own range is checked by :class:`RuleSet`)."""

        problems: list[RuleConfigError] = []  # every one is reported at once

        def bad(option: str, msgid: str, **params: Any) -> None:
            # Options are named by key in the parameters (`option`, `*_option`, a choice as `*_choice`), so that
            # the terminal says the key one types and the browser the option's name in its language.
            problems.append(RuleConfigError(M(msgid, option=option, **params), option=option))

        target = self.target
        if self.open_min >= target:
            bad("open_min", "thousand.rules_error.open_min", target=target, got=self.open_min)
        score_barrel = self.barrel == "score"
        if score_barrel:
            if not self.open_min < self.barrel_score < target:
                bad(
                    "barrel_score",
                    "thousand.rules_error.barrel_score",
                    open_min=self.open_min,
                    target=target,
                    got=self.barrel_score,
                )
            elif target - self.barrel_score > MAX_ONE_TURN:
                bad(
                    "barrel_score",
                    "thousand.rules_error.barrel_gap",
                    barrel=self.barrel_score,
                    gap=target - self.barrel_score,
                    max=MAX_ONE_TURN,
                )
        # pits: [low, high) below the target, below the barrel (or the win condition there would fight the pit)
        ceiling = self.barrel_score if score_barrel else target
        ceiling_name = M(
            "thousand.rules_error.the_barrel" if score_barrel else "thousand.rules_error.the_target"
        )
        previous_high = 0
        for pit in sorted(self.pits):
            low, high = pit
            if low >= high:
                bad("pits", "thousand.rules_error.pit_order", pit=str(list(pit)))
            elif high - low > MAX_ONE_TURN:
                bad(
                    "pits",
                    "thousand.rules_error.pit_wide",
                    pit=str(list(pit)),
                    width=high - low,
                    max=MAX_ONE_TURN,
                )
            elif high > ceiling:
                bad(
                    "pits",
                    "thousand.rules_error.pit_ceiling",
                    pit=str(list(pit)),
                    ceiling_name=ceiling_name,
                    ceiling=ceiling,
                )
            elif low < previous_high:
                bad("pits", "thousand.rules_error.pit_overlap", pit=str(list(pit)))
            previous_high = high
        if self.dump_truck and not self.dump_truck_score < ceiling:
            bad(
                "dump_truck_score",
                "thousand.rules_error.dump_truck",
                ceiling_name=ceiling_name,
                ceiling=ceiling,
                got=self.dump_truck_score,
            )
        if self.bolts and self.bolt_penalty > MAX_BOLT_COST * self.bolts_count:
            bad(
                "bolt_penalty",
                "thousand.rules_error.bolt_penalty",
                penalty=self.bolt_penalty,
                bolts=self.bolts_count,
                cost=MAX_BOLT_COST,
                max=MAX_BOLT_COST * self.bolts_count,
                count_option="bolts_count",
            )
        if self.barrel_exact and not score_barrel:
            bad(
                "barrel_exact",
                "thousand.rules_error.exact_needs_score",
                barrel_option="barrel",
                barrel_choice="score",
            )
        if self.barrel_exact and self.barrel_cap:
            bad("barrel_exact", "thousand.rules_error.exact_uncapped", cap_option="barrel_cap")
        if self.reconfirm_hot and self.hot_dice != "confirm":
            bad(
                "reconfirm_hot",
                "thousand.rules_error.reconfirm_hot",
                hot_option="hot_dice",
                hot_choice="confirm",
            )
        if problems:
            raise RuleConfigError.every(problems)
