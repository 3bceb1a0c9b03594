"""The Ganz schön clever game object (``get_game("clever")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.game import Game, State
from dicehall.core.rules import RuleSet

if TYPE_CHECKING:
    from dicehall.core.analysis import Evaluator


class CleverGame(Game[CleverRules]):
    name: ClassVar[str] = "clever"
    title: ClassVar[str] = "Ganz schön clever"
    rules_type: ClassVar[type[RuleSet]] = CleverRules
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4

    def new_initial_state(self, rules: CleverRules, num_players: int) -> CleverState:
        n = self.check_player_count(num_players)
        self.check_rules(rules)
        return CleverState(rules, n)

    def render(self, state: State[Any]) -> str:
        from dicehall.clever.terminal import render_plain

        assert isinstance(state, CleverState)
        return render_plain(state)

    def public_view(self, state: State[Any], viewer: int | None = None) -> dict[str, Any]:
        from dicehall.clever.view import public_view

        assert isinstance(state, CleverState)
        return public_view(state, viewer)

    def load_bots(self) -> None:
        from dicehall.clever import bots  # noqa: F401

    has_analysis: ClassVar[bool] = True

    def new_evaluator(self, rules: CleverRules, num_players: int) -> Evaluator:
        from dicehall.clever.analysis import make_evaluator

        return make_evaluator(rules, num_players)

    def move_words(self, state: State[Any], move: str) -> str:
        from dicehall.clever.terminal import move_instruction

        assert isinstance(state, CleverState)
        return move_instruction(state, move)
