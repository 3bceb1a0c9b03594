"""The Dice 1000 game object that ``dicehall.core.game.get_game("thousand")`` returns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from dicehall.core.game import Game, State
from dicehall.core.rules import RuleSet
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

if TYPE_CHECKING:
    from dicehall.core.analysis import Evaluator


class ThousandGame(Game[ThousandRules]):
    name: ClassVar[str] = "thousand"
    title: ClassVar[str] = "Dice 1000"
    rules_type: ClassVar[type[RuleSet]] = ThousandRules
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8

    def new_initial_state(self, rules: ThousandRules, num_players: int) -> ThousandState:
        n = self.check_player_count(num_players)
        self.check_rules(rules)
        return ThousandState(rules, n)

    def load_bots(self) -> None:
        # bot:optimal builds on the heuristic bots: registered here, after them, so neither imports the other
        from dicehall.thousand import bots  # noqa: F401
        from dicehall.thousand.solver import bot  # noqa: F401

    has_analysis: ClassVar[bool] = True

    def new_evaluator(self, rules: ThousandRules, num_players: int) -> Evaluator:
        from dicehall.thousand.analysis import make_evaluator

        return make_evaluator(rules, num_players)

    def move_words(self, state: State[Any], move: str) -> str:
        from dicehall.thousand.terminal import move_instruction

        assert isinstance(state, ThousandState)
        return move_instruction(state, move)
