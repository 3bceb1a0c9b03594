"""The Der große Wurf game object (``get_game("wurf")``)."""

from __future__ import annotations

from typing import Any, ClassVar

from dicehall.core.game import Game, State
from dicehall.core.rules import RuleSet
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState


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

    def load_bots(self) -> None:
        from dicehall.wurf import bots  # noqa: F401
