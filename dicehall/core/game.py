"""The game protocol shared by every game (in the spirit of OpenSpiel).

A :class:`State` is mutable and cheap to :meth:`~State.clone`. Whose decision it is comes from
:meth:`~State.current_player`: a seat number, :data:`CHANCE` when dice are to be rolled, or :data:`TERMINAL`.
At a chance node the legal actions are the possible dice outcomes; :meth:`~State.chance_outcomes` gives them with
exact probabilities where they can be enumerated, and :meth:`~State.sample_chance` draws one from a supplied
generator. Every action and outcome has a text form (:meth:`~State.action_to_string` /
:meth:`~State.string_to_action`), which is what records store.

Simulation may use two optional fast paths, both defined to be exactly equivalent to the plain steps:
:meth:`~State.sample_and_apply_chance` (sample, then apply) and, for games that set :attr:`~State.uniform_chance`,
:meth:`~State.apply_chance_uniform` (apply the outcome one ``rng.random()`` draw selects). Faster ways to finish a
whole bot game (Clever's compiled kernel for random bots, say) are registered by the bot modules, not by the
state (:mod:`dicehall.core.playout`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from dicehall.core.errors import IllegalActionError, RuleConfigError, UnknownGameError
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message

if TYPE_CHECKING:
    from dicehall.core.analysis import Evaluator, Hints

CHANCE = -1
"""``current_player()`` at a chance node: the dice decide."""
TERMINAL = -4
"""``current_player()`` once the game is over."""
RESIGN = "resign"
"""The move of a seat that gives the game up (any time, in turn or not: :meth:`State.resign`)."""

A = TypeVar("A")
R = TypeVar("R", bound=RuleSet)


class ChanceNotEnumerable(NotImplementedError):
    """Raised by ``chance_outcomes`` where the outcome set is too large or continuous (e.g. a physics throw)."""


class State(ABC, Generic[A]):
    """One position of a game. Subclasses implement the abstract methods; the rest is shared."""

    game_name: ClassVar[str]

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def current_player(self) -> int:
        """A seat number (0-based), :data:`CHANCE` or :data:`TERMINAL`."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def legal_actions(self) -> Sequence[A]:
        """Decisions of the player to move; at a chance node, the possible outcomes; empty when terminal."""

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """Outcomes of the pending chance event with exact probabilities summing to 1."""
        raise ChanceNotEnumerable(f"{self.game_name}: chance outcomes are not enumerable here")

    @abstractmethod
    def sample_chance(self, rng: np.random.Generator) -> A:
        """Draw the outcome of the pending chance event from ``rng``."""

    @abstractmethod
    def apply_action(self, action: A) -> None:
        """Apply a decision or a chance outcome, or raise :class:`IllegalActionError` and change nothing."""

    uniform_chance: ClassVar[bool] = False
    """True when ``sample_chance(rng)`` draws exactly one ``rng.random()`` and applying
    :meth:`apply_chance_uniform` to that number is the same as applying the sampled outcome."""

    def apply_chance_uniform(self, u: float) -> A:
        """Apply the chance outcome that ``sample_chance`` picks for the uniform draw ``u`` and return it.

        Only for games with :attr:`uniform_chance` (lets a simulation draw its random numbers in batches).
        """
        raise NotImplementedError(f"{self.game_name}: chance outcomes are not drawn from one uniform number")

    def sample_and_apply_chance(self, rng: np.random.Generator) -> A:
        """Draw the pending chance outcome from ``rng``, apply it and return it.

        Exactly ``sample_chance`` followed by ``apply_action``; a game may override it with a faster path.
        """
        action = self.sample_chance(rng)
        self.apply_action(action)
        return action

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Final results per seat: 1 for a win, 0 for a loss, a fraction for a shared win."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score as the game counts it (points, dice left, ...)."""

    @abstractmethod
    def action_to_string(self, action: A) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> A:
        """Parse the notation; raise :class:`~dicehall.core.errors.NotationError` on malformed text."""

    def render(self) -> str:
        """A plain-text picture of the position for humans (by default the game's :meth:`Game.render`)."""
        return get_game(self.game_name).render(self)

    def public_view(self, viewer: int | None = None) -> dict[str, Any]:
        """A JSON-able picture of the position for graphical front ends, as seat ``viewer`` sees it (None: a
        spectator). All information is public, except choices made at once (Clever's passive players): those of
        the other seats show once all have chosen.

        It must contain ``current_player`` (seat, ``"chance"`` or ``null`` when over), ``legal_actions`` (notation
        strings of the player to move), ``terminal``, ``scores`` and ``winners``, plus whatever the game's view needs.
        By default the game's :meth:`Game.public_view` makes it, so that a state module never imports its renderers.
        """
        return get_game(self.game_name).public_view(self, viewer)

    def set_names(self, names: Sequence[str]) -> None:
        """Display names of the seats, for games whose rendering and narration use them."""

    # -- resigning (see each game's doc for what follows) -----------------------------------------------
    def resign(self, seat: int) -> None:
        """``seat`` gives the game up, whoever is to move (also at a chance node or among simultaneous seats).

        What follows is each game's ruling; a game that has none refuses. Raises :class:`IllegalActionError`
        (rule ``"resign"``) and changes nothing when the game is over, the seat does not exist or is out already.
        """
        self.check_resign(seat)
        raise IllegalActionError(Message("refusal.resign.unsupported"), rule="resign")

    plays_on_after_resign: ClassVar[bool] = False
    """Whether a seat that resigned still has moves to make while the game goes on (Clever with 3+ seats: a
    bot plays it); elsewhere a seat out is never to move again."""

    def seats_in(self) -> list[int]:
        """The seats still playing for themselves (all of them unless some resigned or were eliminated)."""
        return list(range(self.num_players))

    def check_resign(self, seat: object) -> int:
        """``seat`` as a seat that may resign now, or the refusal."""
        if self.is_terminal():
            raise IllegalActionError(Message("refusal.game_over"), rule="resign")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise IllegalActionError(Message("refusal.resign.no_seat", seat=repr(seat)), rule="resign")
        if seat not in self.seats_in():
            raise IllegalActionError(Message("refusal.resign.out", seat=seat + 1), rule="resign")
        return seat

    # -- real dice and simultaneous seats (see docs/web-protocol.md) ----------------------------------------
    def roller(self) -> int | None:
        """At a chance node, the seat that throws the dice (with real dice: who types the outcome in).

        ``None`` (the default) when no seat in particular throws; a table with real dice then lets any human seat
        enter the outcome.
        """
        return None

    def simultaneous_seats(self) -> tuple[int, ...]:
        """Seats that choose now at the same time, in the order their choices are recorded (the first one is
        :meth:`current_player`); empty when only the current player chooses (the default).

        A game declares a group only where each seat's choices neither depend on nor change what another seat of
        the group sees or may do (Clever's passive players). Then every seat of the group can choose on its own
        :meth:`simultaneous_branch`, and applying the seats' action sequences one after another, in this order,
        to this state gives the same game as if they had played in turn.
        """
        return ()

    def simultaneous_branch(self, seat: int) -> Self:
        """A copy in which ``seat`` of :meth:`simultaneous_seats` is to move now, as it will be once the seats
        before it in the group have finished (their choices cannot matter to it). ``seat``'s part is over when
        the copy's :meth:`current_player` is no longer ``seat``."""
        group = self.simultaneous_seats()
        if not group or seat != group[0]:
            raise IllegalActionError(
                f"seat {seat} does not choose now (seats choosing now: {list(group) or [self.current_player()]})",
                rule="turn-order",
            )
        return self.clone()

    live_extras: bool = False
    """Set on a live table's state: chance events may then gather :meth:`event_extras` (costs time)."""

    def event_extras(self) -> dict[str, Any] | None:
        """Presentation data for the live event of the action just applied that is not part of the record (a
        replay never has it), e.g. Der große Wurf's flight of the dice; ``None`` when there is none."""
        return None

    def stats(self) -> dict[str, float]:
        """Numbers a simulation aggregates for a finished game (game length, per-area points, ...)."""
        return {}

    def child(self, action: A) -> Self:
        """A copy with ``action`` applied; ``self`` is unchanged."""
        new = self.clone()
        new.apply_action(action)
        return new

    def require_legal(self, action: A) -> None:
        """Generic legality check for games whose legal action lists are small."""
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"{self.action_to_string(action)!r} is not legal now", rule="legal-actions"
            )

    def winners(self) -> list[int]:
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best and v > 0]

    def __str__(self) -> str:
        return self.render()


class Game(ABC, Generic[R]):
    """A game: its name, its rules type, and how to set up a new position."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_type: ClassVar[type[RuleSet]]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    live_overrides: ClassVar[dict[str, Any]] = {}
    """Rule options a live (web) table uses unless its creator sets them, e.g. Wurf's physics arena."""

    @abstractmethod
    def new_initial_state(self, rules: R, num_players: int) -> State[Any]: ...

    def load_bots(self) -> None:
        """Import the modules whose :func:`~dicehall.core.agents.register_bot` calls make this game's bots (they
        also register the bots' fast paths, :mod:`dicehall.core.playout`); nothing where there are none."""

    has_analysis: ClassVar[bool] = False
    """Whether :meth:`new_evaluator` values this game's positions (``dicehall analyze``, hints)."""

    def new_evaluator(self, rules: R, num_players: int) -> Evaluator:
        """The evaluator of these rules and seats (:mod:`dicehall.core.analysis`), where ``has_analysis``."""
        raise NotImplementedError(f"{self.name} has no analysis")

    has_hints: ClassVar[bool | None] = None
    """Whether players may ask for hints; ``None``: where ``has_analysis`` (the hints are the evaluator's)."""

    def position_hints(self, rules: R, num_players: int, state: State[Any]) -> Hints:
        """The hints of the seat to move at ``state``: by default every legal decision valued by the evaluator."""
        from dicehall.core.analysis import evaluator_for, hints

        return hints(evaluator_for(self.name, rules, num_players), state)

    def hint_lines(self, hints: Hints, state: State[Any]) -> list[str]:
        """Lines a terminal prints under the hints table (Wurf's map); none by default."""
        return []

    def move_words(self, state: State[Any], move: str) -> str:
        """How hints name ``move`` (notation) at ``state``; by default the notation itself."""
        return move

    # Presentation lives beside the game object, not in the state module (which the renderers import).
    def render(self, state: State[Any]) -> str:
        """A plain-text picture of ``state`` (games whose states render themselves need not override this)."""
        raise NotImplementedError(f"{self.name} has no text rendering")

    def public_view(self, state: State[Any], viewer: int | None = None) -> dict[str, Any]:
        """``state.public_view(viewer)`` for games whose states do not make it themselves."""
        raise NotImplementedError(f"{self.name} has no public view yet")

    def check_player_count(self, n: object) -> int:
        """``n`` as an ``int``; refuses what is not a whole number in ``min_players``–``max_players``."""
        from dicehall.core.errors import PlayerSpecError

        if not isinstance(n, int | np.integer) or isinstance(n, bool):
            raise PlayerSpecError(
                f"the number of players must be a whole number ({self.min_players}–{self.max_players} for "
                f"{self.title}), got {n!r}"
            )
        if not self.min_players <= n <= self.max_players:
            raise PlayerSpecError(
                msgid="players.error.count",
                params={"game": self.title, "min": self.min_players, "max": self.max_players, "n": str(n)},
            )
        return int(n)

    def check_rules(self, rules: object) -> None:
        """Refuse rules of another game (a programming error a caller should hear about clearly)."""
        if not isinstance(rules, self.rules_type):
            raise RuleConfigError(
                f"{self.title} needs {self.rules_type.__name__}, got {type(rules).__name__}"
            )


# The catalogue: the one place core names the games (each game's front door, imported when asked for).
_GAMES: dict[str, str] = {
    "thousand": "dicehall.thousand.game:ThousandGame",
    "clever": "dicehall.clever.game:CleverGame",
    "wurf": "dicehall.wurf.game:WurfGame",
}


def game_names() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (imported lazily so one game's dependencies never slow another)."""
    import importlib

    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; choose one of: {', '.join(_GAMES)}") from None
    module_name, cls_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    game: Game[Any] = cls()
    return game
