"""The container files (Dockerfile, compose.yaml, .dockerignore; docs/self-hosting.md) where no container can run:
the image's own command line, environment and health check, read from the Dockerfile, run here against a
temporary /data (SQLite, the image's default) and against a fresh PostgreSQL database (compose's), which the
server migrates at start before /readyz says ready."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from tests.web.pg import Cluster, PostgresError
from tests.web.served import clean_env, serving
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[2]


def _run_stage() -> list[tuple[str, str]]:
    """The final stage's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = [
        line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    last_from = max(i for i, line in enumerate(lines) if line.startswith("FROM "))
    return [(line.split(None, 1)[0], line.split(None, 1)[1]) for line in lines[last_from:]]


def _image() -> tuple[dict[str, str], list[str], list[str]]:
    """(ENV, CMD, the HEALTHCHECK's command) of the image."""
    env: dict[str, str] = {}
    cmd: list[str] = []
    check: list[str] = []
    for op, args in _run_stage():
        if op == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(args))
        elif op == "CMD":
            cmd = json.loads(args)
        elif op == "HEALTHCHECK":
            check = json.loads(args.split(" CMD ", 1)[1])
    return env, cmd, check


def test_the_image_runs_as_a_user_with_data_in_a_volume() -> None:
    stage = dict(_run_stage())
    assert stage["USER"] not in ("root", "0") and json.loads(stage["VOLUME"]) == ["/data"]
    env, cmd, check = _image()
    assert env["DICEHALL_HOST"] == "0.0.0.0" and env["DICEHALL_DB"] == "sqlite:////data/dicehall.sqlite"
    assert cmd == ["dicehall", "serve"] and "/healthz" in check[-1]
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".git", ".venv", "web/node_modules", "dicehall/web/static"} <= set(ignored)


def _container_env(tmp: Path, port: int, **over: str) -> dict[str, str]:
    env, _, _ = _image()
    env = {
        k: v.replace("/data", str(tmp / "data"))
        for k, v in env.items()
        if k.startswith(("DICEHALL_", "HOME"))
    }
    (tmp / "data").mkdir(exist_ok=True)
    return clean_env(**{**env, "DICEHALL_PORT": str(port), **over})


def _health_check(port: int) -> int:
    _, _, check = _image()
    assert check[0] == "python"
    env = clean_env(DICEHALL_PORT=str(port))  # the image's port variable, as a container run with -e sets it
    return subprocess.run([sys.executable, *check[1:]], env=env, timeout=30).returncode


def test_the_image_command_serves_from_data_and_passes_its_health_check(tmp_path: Path) -> None:
    port = free_port()
    _, cmd, _ = _image()
    log = tmp_path / "serve.log"
    with serving(_container_env(tmp_path, port), log, tuple(cmd[1:])) as base:
        assert _health_check(port) == 0
        assert httpx.get(f"{base}/readyz", timeout=10).json()["status"] == "ready"
    assert (tmp_path / "data" / "dicehall.sqlite").is_file()
    assert all(json.loads(line)["level"] for line in log.read_text(encoding="utf-8").splitlines())
    assert _health_check(port) != 0  # and fails once the server is gone


def test_compose_waits_for_a_healthy_postgresql_which_the_server_migrates(tmp_path: Path) -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    db, app = compose["services"]["db"], compose["services"]["dicehall"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["environment"]["DICEHALL_DB"].startswith("postgresql+psycopg://")
    try:
        cluster = Cluster()
        cluster.start()
    except PostgresError as exc:
        pytest.skip(f"no PostgreSQL here: {exc}")
    try:
        url = cluster.new_database()  # empty, as compose's first start finds it
        port = free_port()
        env = _container_env(tmp_path, port, DICEHALL_DB=url)
        with serving(env, tmp_path / "serve.log", ("serve",)) as base:
            ready = httpx.get(f"{base}/readyz", timeout=10)
            assert ready.status_code == 200, ready.text
    finally:
        cluster.stop()
