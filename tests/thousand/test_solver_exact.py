"""The registry of exact models besides classic's (``solver/exact.py``): every preset goes to the model meant for
it (or to classic's: none), no rule set to two, and ``bot:optimal``, the hints and ``dicehall solve thousand``
ask the registry (each model's own path is tested in ``test_solver_yard_table.py`` and
``test_solver_variant2_table.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.core.agents import make_bot
from dicehall.core.analysis import evaluator_for
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import exact, variant2_table, yard_table
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.exact import ExactModel, model_for, models
from dicehall.thousand.solver.space import SolveError

PRESET_MODEL = {
    "classic": None,
    "classic-open": None,  # the open barrel: no exact model yet (docs/thousand-solved.md)
    "classic-nobarrel": None,
    "variant2": "variant2",
    "yard": "yard",
}


def test_every_preset_maps_to_its_exact_model_or_to_none() -> None:
    assert set(PRESET_MODEL) == set(ThousandRules.PRESETS)  # a new preset says where it goes
    for preset, name in PRESET_MODEL.items():
        rules = ThousandRules.from_preset(preset)
        model = model_for(rules)
        assert (model.name if model else None) == name, preset
        # never two models for one rule set: the order of models() does not decide
        assert [m.name for m in models() if m.covers(rules)] == ([name] if name else []), preset


def test_the_registered_models_are_the_table_modules_own() -> None:
    assert [m.name for m in models()] == ["yard", "variant2"]
    assert models()[0] is yard_table.MODEL and models()[1] is variant2_table.MODEL
    assert all(isinstance(m, ExactModel) for m in models())
    yard = ThousandRules.from_preset("yard")
    assert yard_table.MODEL.covers(yard) == yard_table.is_yard(yard)
    # rules no model follows: classic's refuses or solves them
    assert model_for(ThousandRules.from_preset("yard", {"free_set_aside": True})) is None
    assert model_for(ThousandRules.from_preset("variant2", {"bolts": True})) is None


@pytest.mark.parametrize("preset", ["yard", "variant2"])
def test_bot_optimal_and_the_hints_go_through_the_registered_model(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the model's table missing, ``bot:optimal`` says the model's refusal and the hints its cost: both read
    from the registered model (here one wrapped to count what is asked of it)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    rules = ThousandRules.from_preset(preset)
    real = model_for(rules)
    assert real is not None
    asked: list[str] = []

    class Counted(type(real)):  # type: ignore[misc]
        def load(self, rules: ThousandRules, floor: int = -300) -> None:
            asked.append("load")
            return super().load(rules)  # type: ignore[return-value]

    monkeypatch.setattr(exact, "models", lambda: (Counted(),))
    with pytest.raises(SolveError) as refused:
        make_bot("thousand", "optimal", rules)
    assert str(refused.value) == str(real.missing(rules))
    from dicehall.core import analysis

    analysis._MADE.clear()
    evaluator = evaluator_for("thousand", rules, 2)
    analysis._MADE.clear()
    assert evaluator.unit == "points"
    assert asked == ["load", "load"]


def test_classic_rules_stay_with_the_classic_bot() -> None:
    bot = make_bot("thousand", "optimal", ThousandRules.from_preset("classic"))
    assert type(bot) is OptimalBot
