"""Reinforcement-learning environments of the three games (``pip install 'dicehall[rl]'``; ``docs/envs.md``).

- :func:`aec_env` — a PettingZoo AEC environment per game (Dice 1000 2–8 players, Clever 1–4, Wurf 2–5).
- :func:`gym_env` — a Gymnasium single-agent environment: Clever solo, Dice 1000 or Wurf against bots; also
  registered as ``dicehall/Clever-v0``, ``dicehall/Thousand-v0`` and ``dicehall/Wurf-v0`` for ``gymnasium.make``.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"dicehall.envs needs PettingZoo and Gymnasium ({exc.name} is missing): pip install 'dicehall[rl]'"
    ) from exc

from dicehall.envs.aec import DicehallAEC, aec_env
from dicehall.envs.single import DicehallGym, gym_env

__all__ = ["DicehallAEC", "DicehallGym", "aec_env", "gym_env"]

for _name, _game, _opponents in (
    ("Clever", "clever", ()),
    ("Thousand", "thousand", ("expert",)),
    ("Wurf", "wurf", ("cautious",)),
):
    if f"dicehall/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(
            f"dicehall/{_name}-v0",
            entry_point="dicehall.envs.single:DicehallGym",
            kwargs={"game": _game, "opponents": _opponents},
        )
