"""``simulate --backend ray``: the same seeded games on Ray give the report ``--jobs`` gives."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import parse_players
from dicehall.core.cluster import ClusterError, RayExecutor
from dicehall.core.simulate import SimulationJob, simulate
from dicehall.thousand.rules import ThousandRules
from dicehall.wurf.rules import WurfRules

_register_games()
runner = CliRunner()


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance for the module (starting one costs seconds); executors join it."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 1024**2)
    yield
    ray.shutdown()


JOBS = [
    SimulationJob(
        "thousand", ThousandRules.from_preset("classic"), tuple(parse_players("bot:cautious,bot:bold")), 9
    ),
    SimulationJob(
        "wurf", WurfRules.from_preset("standard"), tuple(parse_players("bot:cautious,bot:random")), 4
    ),
]


@pytest.mark.parametrize("job", JOBS, ids=lambda j: j.game)
def test_ray_gives_the_report_of_processes(local_ray: None, job: SimulationJob) -> None:
    games = 150  # two chunks, the last one short
    seen: list[int] = []
    by_ray, _ = simulate(job, games, jobs=2, progress=seen.append, backend="ray")
    by_processes, _ = simulate(
        job, games, jobs=2 if job.game == "thousand" else 1
    )  # jobs never change results
    assert by_ray == by_processes
    assert seen == [100, 50]  # the progress bar advances chunk by chunk, as with processes


def test_cli_backend_ray(local_ray: None) -> None:
    args = ["simulate", "thousand", "--players", "bot:cautious,bot:bold", "--games", "120", "--seed", "3"]
    res = runner.invoke(app, [*args, "--backend", "ray", "--json"])
    assert res.exit_code == 0, res.output
    plain = runner.invoke(app, [*args, "--json"])
    assert json.loads(res.stdout) == json.loads(plain.stdout)


def test_executor_joins_a_running_instance_and_leaves_it_running(local_ray: None) -> None:
    import ray

    pool = RayExecutor()
    assert pool.submit(pow, 3, 4).result() == 81
    assert pool.workers == 2
    pool.shutdown()
    assert ray.is_initialized()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--backend", "spark"], "--backend must be processes or ray"),
        (["--address", "auto"], "add --backend ray"),
    ],
)
def test_cli_refuses_bad_backend_options(extra: list[str], message: str) -> None:
    res = runner.invoke(app, ["simulate", "thousand", "--players", "bot:bold,bot:bold", "-n", "5", *extra])
    assert res.exit_code == 2
    assert message in res.output


def test_missing_ray_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(ClusterError, match=r"dicehall\[cluster\]"):
        simulate(JOBS[0], 10, backend="ray")
    with pytest.raises(ClusterError, match="unknown backend"):
        simulate(JOBS[0], 10, backend="spark")
