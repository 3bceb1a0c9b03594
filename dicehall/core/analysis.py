"""Hints and post-game analysis for every game, over a small per-game :class:`Evaluator`.

An evaluator knows three things about a position of its game (``docs/analysis.md``):

- :meth:`~Evaluator.values` — the value of the position for each seat (at a chance node: its expectation);
- :meth:`~Evaluator.decision_values` — at a decision node, every legal decision with its value for the mover;
- :meth:`~Evaluator.chance_value` — at a chance node, the expected value for each seat over all outcomes.

Values are in the evaluator's :attr:`~Evaluator.unit`: ``"win%"`` (the chance to win, 0–100) or ``"points"``
(expected final points). On top of that this module builds the **hints** of a position (every legal decision with
its value, the best marked) and the **analysis** of a whole record in the manner of GNU Backgammon and lichess:
per decision the loss against the best decision and its class (inaccuracy / mistake / blunder), per roll the luck
of the seat that rolled (the value after the roll minus its expectation over all rolls), per seat totals
(accuracy, luck, errors by class) and the series of values over the game for a chart.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from dicehall.core.errors import DicehallError, RecordError
from dicehall.core.game import CHANCE, State, game_names, get_game
from dicehall.core.proficiency import Band, band, costliest
from dicehall.core.record import Event, GameRecord, apply_event, check_result, is_resign, new_state
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message

Unit = Literal["win%", "points", "dice"]
Klass = Literal["inaccuracy", "mistake", "blunder"]
EPSILON = 1e-9
"""Losses below this (float noise of equal decisions) count as 0."""


class AnalysisError(DicehallError):
    """A position or record that cannot be analysed (no evaluator for the game, not a decision node, ...)."""


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """Smallest loss (in the evaluator's unit) of each class; below ``inaccuracy`` a decision is fine."""

    inaccuracy: float
    mistake: float
    blunder: float

    def classify(self, loss: float) -> Klass | None:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


WIN_THRESHOLDS = Thresholds(2.0, 4.0, 8.0)
"""Win-% bands: GNU Backgammon's doubtful / bad / very bad cubeless equity losses (0.04 / 0.08 / 0.16 equity =
2 / 4 / 8 points of win probability). lichess uses 5 / 10 / 15, made for chess moves, which swing far more than
one roll-or-bank decision: with them nearly every dice error would go unmarked."""


@runtime_checkable
class Evaluator(Protocol):
    """What a game supplies for hints and analysis (see the module text)."""

    unit: Unit
    note: str
    """A caveat printed with every result (``""`` when the values are exact)."""
    thresholds: Thresholds

    def values(self, state: State[Any]) -> list[float]:
        """Value of the position for each seat (decision node: the mover plays best; chance node: expectation)."""
        ...

    def decision_values(self, state: State[Any]) -> list[tuple[Any, float]]:
        """Every legal decision of the mover with its value for the mover, in legal-action order."""
        ...

    def chance_value(self, state: State[Any]) -> list[float]:
        """Expected value for each seat over the outcomes of the pending chance event."""
        ...

    def roller(self, state: State[Any]) -> int:
        """The seat whose roll the pending chance event is (its luck is counted for that seat)."""
        ...


def accuracy(loss: float, unit: Unit, thresholds: Thresholds) -> float:
    """Accuracy of one decision in percent.

    ``win%``: lichess's move accuracy ``103.1668 e^(-0.04354 loss) - 3.1669`` (loss in win-% points), kept in 0–100.
    ``points``: ``100 * 2^(-loss / mistake)``: a loss the size of the mistake threshold scores 50.
    """
    if unit == "win%":
        return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))
    return 100.0 * math.pow(2.0, -loss / thresholds.mistake)


# -- hints ------------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Hint:
    move: str
    value: float
    loss: float
    best: bool


def _note_id(note: str) -> dict[str, Any]:
    """``note_id``/``note_params`` when the note is a message (a front end words it in its reader's language)."""
    if isinstance(note, Message):
        said = note.to_json()
        return {"note_id": said["id"], "note_params": said["params"]}
    return {}


@dataclasses.dataclass(frozen=True)
class Hints:
    """Every legal decision of ``seat`` with its value, best first (ties keep the legal order)."""

    seat: int
    unit: Unit
    note: str
    options: list[Hint]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "unit": self.unit,
            "note": self.note,
            **_note_id(self.note),
            "options": [dataclasses.asdict(h) for h in self.options],
        }


def hints(evaluator: Evaluator, state: State[Any]) -> Hints:
    """The hints of a decision node; :class:`AnalysisError` elsewhere (a chance node, a finished game)."""
    seat = state.current_player()
    if seat < 0:
        where = "analysis.error.over" if state.is_terminal() else "analysis.error.chance"
        raise AnalysisError(Message("analysis.error.not_a_decision", where=Message(where)))
    scored = evaluator.decision_values(state)
    if not scored:
        raise AnalysisError(Message("analysis.error.no_decision"))
    best = max(v for _, v in scored)
    ranked = sorted(range(len(scored)), key=lambda i: -scored[i][1])
    top = ranked[0]
    options = [
        Hint(
            state.action_to_string(scored[i][0]),
            scored[i][1],
            _loss(best, scored[i][1]),
            i == top,
        )
        for i in ranked
    ]
    return Hints(seat, evaluator.unit, evaluator.note, options)


def _loss(best: float, value: float) -> float:
    loss = best - value
    return 0.0 if loss < EPSILON else loss


# -- analysis of a record ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class Step:
    """One event of the record as analysed.

    ``kind`` is ``"decision"`` (``seat`` moved; ``loss`` against ``best``), ``"roll"`` (``seat`` rolled;
    ``luck`` = value after minus ``expected``), ``"forced"`` (a decision with one legal choice) or ``"resign"``
    (``seat`` gave up: no loss, no luck).
    """

    n: int
    kind: Literal["decision", "forced", "roll", "resign"]
    seat: int
    move: str
    value: float
    """The seat's value after the event (after a decision: the value of the decision played)."""
    best: str = ""
    best_value: float = 0.0
    loss: float = 0.0
    klass: Klass | None = None
    options: int = 1
    expected: float = 0.0
    luck: float = 0.0


@dataclasses.dataclass
class SeatTotals:
    seat: int
    name: str
    decisions: int = 0
    """Decisions with a choice (forced moves are not counted)."""
    forced: int = 0
    loss: float = 0.0
    accuracy: float = 100.0
    rolls: int = 0
    luck: float = 0.0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    @property
    def mean_loss(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0


@dataclasses.dataclass
class Analysis:
    game: str
    players: list[str]
    unit: Unit
    note: str
    thresholds: Thresholds
    steps: list[Step]
    totals: list[SeatTotals]
    series: list[list[float]]
    """``series[k][seat]``: each seat's value after the first ``k`` events (``k = 0``: the start)."""
    final_scores: list[float] | None
    winners: list[int] | None

    def band(self, seat: int) -> Band | None:
        """The seat's proficiency band (``None`` without decisions, or for a game without calibrated limits)."""
        t = self.totals[seat]
        return band(self.game, self.unit, t.mean_loss) if t.decisions else None

    def costliest(self, seat: int) -> Step | None:
        """The seat's decision that lost most (``None`` when none lost anything)."""
        return costliest(self.steps, seat)

    def to_json(self) -> dict[str, Any]:
        totals = []
        for t in self.totals:
            row = dataclasses.asdict(t)
            row["mean_loss"] = t.mean_loss
            row["band"] = self.band(t.seat)
            worst = self.costliest(t.seat)
            row["costliest"] = None if worst is None else _step_json(worst)
            totals.append(row)
        return {
            "game": self.game,
            "players": self.players,
            "unit": self.unit,
            "note": self.note,
            **_note_id(self.note),
            "thresholds": dataclasses.asdict(self.thresholds),
            "steps": [_step_json(s) for s in self.steps],
            "totals": totals,
            "series": self.series,
            "final_scores": self.final_scores,
            "winners": self.winners,
        }


def _step_json(step: Step) -> dict[str, Any]:
    out = dataclasses.asdict(step)
    out["class"] = out.pop("klass")
    return out


Progress = Callable[[int, int], None]
"""Called with (events done, events in all)."""


def analyze(
    record: GameRecord, evaluator: Evaluator | None = None, progress: Progress | None = None
) -> Analysis:
    """Analyse every event of ``record`` (replayed and checked as :func:`~dicehall.core.record.replay` does)."""
    _, state = new_state(record)
    names = [p["name"] for p in record.players]
    state.set_names(names)
    if evaluator is None:
        evaluator = evaluator_for(record.game, record.rules(), len(names))
    unit, thresholds = evaluator.unit, evaluator.thresholds
    totals = [SeatTotals(i, n) for i, n in enumerate(names)]
    steps: list[Step] = []
    accuracies: list[list[float]] = [[] for _ in names]
    current = _position_values(evaluator, state)
    series = [current]
    count = len(record.events)
    for number, event in enumerate(record.events, start=1):
        player = state.current_player() if not state.is_terminal() else CHANCE
        if is_resign(event) and not state.is_terminal():
            apply_event(state, event, number)
            after = _position_values(evaluator, state)
            seat = int(event.actor)
            steps.append(Step(number, "resign", seat, event.move, after[seat]))
        elif state.is_terminal() or player == CHANCE:
            roller = evaluator.roller(state) if not state.is_terminal() else 0
            expected = current
            apply_event(state, event, number)
            after = _position_values(evaluator, state)
            luck = after[roller] - expected[roller]
            steps.append(
                Step(number, "roll", roller, event.move, after[roller], expected=expected[roller], luck=luck)
            )
            totals[roller].rolls += 1
            totals[roller].luck += luck
        else:
            scored = evaluator.decision_values(state)
            played = _played_value(state, scored, event, number)
            best_action, best_value = max(scored, key=lambda av: av[1])
            best_move = state.action_to_string(best_action)
            apply_event(state, event, number)
            after = _position_values(evaluator, state)
            t = totals[player]
            if len(scored) == 1:
                steps.append(Step(number, "forced", player, event.move, played, event.move, best_value))
                t.forced += 1
            else:
                loss = _loss(best_value, played)
                klass = thresholds.classify(loss)
                steps.append(
                    Step(
                        number,
                        "decision",
                        player,
                        event.move,
                        played,
                        best_move,
                        best_value,
                        loss,
                        klass,
                        len(scored),
                    )
                )
                t.decisions += 1
                t.loss += loss
                accuracies[player].append(accuracy(loss, unit, thresholds))
                if klass == "inaccuracy":
                    t.inaccuracies += 1
                elif klass == "mistake":
                    t.mistakes += 1
                elif klass == "blunder":
                    t.blunders += 1
        current = after
        series.append(after)
        if progress is not None:
            progress(number, count)
    check_result(record, state)
    for t, acc in zip(totals, accuracies, strict=True):
        t.accuracy = sum(acc) / len(acc) if acc else 100.0
    done = state.is_terminal()
    return Analysis(
        record.game,
        names,
        unit,
        evaluator.note,
        thresholds,
        steps,
        totals,
        series,
        [float(s) for s in state.scores()] if done else None,
        state.winners() if done else None,
    )


def _position_values(evaluator: Evaluator, state: State[Any]) -> list[float]:
    if state.is_chance_node():
        return evaluator.chance_value(state)
    return evaluator.values(state)


def _played_value(state: State[Any], scored: list[tuple[Any, float]], event: Event, number: int) -> float:
    """The value of the recorded move among the scored decisions (an illegal one is refused as replay does)."""
    for action, value in scored:
        if state.action_to_string(action) == event.move:
            return value
    try:  # the notation may have several spellings of one move: compare actions
        wanted = state.string_to_action(event.move)
    except DicehallError:
        wanted = None
    for action, value in scored:
        if action == wanted:
            return value
    apply_event(state.clone(), event, number)  # raises the replay's own error for an illegal move
    raise RecordError(f"the evaluator has no value for the move {event.move!r}", event=number)


# -- expectation helpers for evaluators -------------------------------------------------------------------------
def expectation(
    outcomes: Sequence[tuple[Any, float]], value_of: Callable[[Any], Sequence[float]], seats: int
) -> list[float]:
    """``sum(p * value_of(outcome))`` per seat over ``outcomes`` (probabilities are renormalised)."""
    acc = [0.0] * seats
    total = 0.0
    for outcome, p in outcomes:
        v = value_of(outcome)
        total += p
        for i in range(seats):
            acc[i] += p * v[i]
    return [a / total for a in acc]


# -- which evaluator for which game (each game's object makes its own) -------------------------------------
_MADE: dict[tuple[str, RuleSet, int], Evaluator] = {}
KEEP_EVALUATORS = 4
"""Evaluators kept per process (a solved table is loaded, or found missing, once per rule set)."""


def evaluator_for(game: str, rules: RuleSet, num_players: int) -> Evaluator:
    """The evaluator of ``game`` for these rules and seats; :class:`AnalysisError` for a game without one."""
    key = (game, rules, num_players)
    found = _MADE.get(key)
    if found is None:
        found = new_evaluator(game, rules, num_players)
        if len(_MADE) >= KEEP_EVALUATORS:
            _MADE.pop(next(iter(_MADE)))
        _MADE[key] = found
    return found


def new_evaluator(game: str, rules: RuleSet, num_players: int) -> Evaluator:
    """A fresh evaluator (:func:`evaluator_for` keeps a few per process)."""
    if not has_evaluator(game):
        title = Message(f"game.{game}.title")
        games = ", ".join(name for name in game_names() if has_evaluator(name))
        raise AnalysisError(Message("analysis.error.no_evaluator", game=title, games=games))
    return get_game(game).new_evaluator(rules, num_players)


def has_evaluator(game: str) -> bool:
    return game in game_names() and get_game(game).has_analysis


def has_hints(game: str) -> bool:
    """Whether players of ``game`` may be given hints (by its evaluator, or the game's own hints: Wurf's map)."""
    if game not in game_names():
        return False
    g = get_game(game)
    return g.has_analysis if g.has_hints is None else g.has_hints


def position_hints(game: str, rules: RuleSet, num_players: int, state: State[Any]) -> Hints:
    """The hints of the seat to move at ``state`` (:class:`AnalysisError` for a game without hints)."""
    if not has_hints(game):
        title = Message(f"game.{game}.title")
        games = ", ".join(name for name in game_names() if has_hints(name))
        raise AnalysisError(Message("analysis.error.no_evaluator", game=title, games=games))
    return get_game(game).position_hints(rules, num_players, state)
