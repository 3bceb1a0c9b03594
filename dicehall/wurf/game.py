"""The Der große Wurf game object (``get_game("wurf")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from dicehall.core.game import Game, State
from dicehall.core.rules import RuleSet
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState

if TYPE_CHECKING:
    from dicehall.core.analysis import Hints


class WurfGame(Game[WurfRules]):
    name: ClassVar[str] = "wurf"
    title: ClassVar[str] = "Der große Wurf"
    rules_type: ClassVar[type[RuleSet]] = WurfRules
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    live_overrides: ClassVar[dict[str, Any]] = {"arena": "physics"}
    """Live tables simulate every throw with MuJoCo and send its motion; the fast model serves simulation."""

    def new_initial_state(self, rules: WurfRules, num_players: int) -> WurfState:
        n = self.check_player_count(num_players)
        self.check_rules(rules)
        return WurfState(rules, n)

    def render(self, state: State[Any]) -> str:
        from dicehall.wurf.terminal import render_state

        assert isinstance(state, WurfState)
        return render_state(state, state.names)

    has_hints: ClassVar[bool | None] = True
    """Hints without an evaluator: the map of where to aim (``wurf/hints.py``); no analysis of a whole game."""

    def position_hints(self, rules: WurfRules, num_players: int, state: State[Any]) -> Hints:
        from dicehall.wurf.hints import wurf_hints

        assert isinstance(state, WurfState)
        return wurf_hints(state)

    def hint_lines(self, hints: Hints, state: State[Any]) -> list[str]:
        from dicehall.wurf.hint_text import best_line, map_lines
        from dicehall.wurf.hints import WurfHints

        assert isinstance(state, WurfState)
        if not isinstance(hints, WurfHints) or hints.map is None:
            return []
        dice = [(d.x, d.y) for d in state.arena if d.x is not None and d.y is not None]
        return [best_line(hints.map), *map_lines(hints.map, dice)]

    def move_words(self, state: State[Any], move: str) -> str:
        from dicehall.wurf.hints import move_words

        assert isinstance(state, WurfState)
        return move_words(state, move)

    def load_bots(self) -> None:
        from dicehall.wurf import bots  # noqa: F401
