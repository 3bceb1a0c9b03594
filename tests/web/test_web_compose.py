"""`compose.yaml` itself, run by podman-compose (docs/self-hosting.md, A): PostgreSQL and dicehall on the compose
network, dicehall reaching the database by its service name, migrating it at start and serving on the published
loopback port; a game's table kept in the database volume across `down` and `up`, and gone with `down -v`.
Slow (the image is built): `pytest -m slow tests/web/test_web_compose.py`.

The image is test_web_container.py's (the same build and the same variables for a machine without a registry).
PostgreSQL is the compose file's `postgres:15-bookworm`, or where no registry is reachable
DICEHALL_TEST_POSTGRES_IMAGE, or a stand-in built from `tests/web/postgres-image` on the local base image
DICEHALL_TEST_PYTHON_IMAGE (Debian's PostgreSQL 15 with the official image's environment)."""

from __future__ import annotations

import os
import resource
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.test_web_container import image, podman  # noqa: F401  (the fixture: the image built once)
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = shutil.which("podman-compose")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("podman") is None or COMPOSE is None, reason="no podman-compose here"),
]


@pytest.fixture(scope="module")
def postgres_image() -> str | None:
    """The database image to run instead of the compose file's own (None: the compose file's, pulled)."""
    if os.environ.get("DICEHALL_TEST_POSTGRES_IMAGE"):
        return os.environ["DICEHALL_TEST_POSTGRES_IMAGE"]
    base = os.environ.get("DICEHALL_TEST_PYTHON_IMAGE")
    if not base:
        return None
    name = "localhost/dicehall-postgres-standin:15"
    built = podman(
        "build", "--network", "host", "--build-arg", f"BASE_IMAGE={base}", "-t", name,
        str(ROOT / "tests" / "web" / "postgres-image"), timeout=900, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return name


def _containers_conf(tmp: Path) -> Path:
    """podman's settings for every command podman-compose runs: the OCI runtime and limits this sandbox needs."""
    lines = []
    runtime = os.environ.get("DICEHALL_TEST_OCI_RUNTIME")
    if runtime:
        lines += ["[engine]", f'runtime = "{runtime}"']
    if os.environ.get("DICEHALL_TEST_ULIMITS"):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        lines += ["[containers]", f'default_ulimits = ["nofile={soft}:{hard}", "nproc=4096:4096"]']
    path = tmp / "containers.conf"
    path.write_text("\n".join(lines) + "\n")
    return path


class Project:
    """A copy of compose.yaml in its own directory, with a .env as docs/self-hosting.md says to write it."""

    def __init__(self, tmp: Path, dicehall_image: str, db_image: str | None) -> None:
        self.dir = tmp / "club"
        self.dir.mkdir()
        shutil.copy(ROOT / "compose.yaml", self.dir / "compose.yaml")
        self.port = free_port()
        self.name = f"dhc{secrets.token_hex(3)}"
        (self.dir / ".env").write_text(
            f"POSTGRES_PASSWORD={secrets.token_hex(16)}\nDICEHALL_PUBLISH=127.0.0.1:{self.port}\n"
            "DICEHALL_WARM_UP=0\n"
        )
        # the image built once for the module (not rebuilt by compose); the database image where none is pulled
        override = f"services:\n  dicehall:\n    image: {dicehall_image}\n"
        if db_image is not None:
            override += f"  db:\n    image: {db_image}\n"
        (self.dir / "override.yaml").write_text(override)
        self.env = dict(os.environ, CONTAINERS_CONF=str(_containers_conf(tmp)))
        self.base = f"http://127.0.0.1:{self.port}"

    def compose(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        cmd = [str(COMPOSE), "-p", self.name, "-f", "compose.yaml", "-f", "override.yaml", *args]
        done = subprocess.run(
            cmd, cwd=self.dir, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return done

    def ready(self) -> dict[str, object]:
        """/readyz once it answers 200 (the database reached and migrated), within two minutes."""
        deadline = time.monotonic() + 120
        last = ""
        while time.monotonic() < deadline:
            try:
                r = httpx.get(f"{self.base}/readyz", timeout=2)
                if r.status_code == 200:
                    return dict(r.json())
                last = r.text
            except httpx.HTTPError as exc:
                last = repr(exc)
            threading.Event().wait(0.5)  # another process's start: nothing to await but its answer
        logs = subprocess.run(
            ["podman", "logs", f"{self.name}_dicehall_1"], capture_output=True, text=True, env=self.env
        )
        raise AssertionError(f"not ready in 120 s: {last}\n{logs.stdout[-2000:]}{logs.stderr[-2000:]}")


@pytest.fixture
def project(
    tmp_path: Path,
    image: str,  # noqa: F811
    postgres_image: str | None,
) -> Iterator[Project]:
    p = Project(tmp_path, image, postgres_image)
    try:
        yield p
    finally:
        subprocess.run(
            [str(COMPOSE), "-p", p.name, "-f", "compose.yaml", "-f", "override.yaml", "down", "-v"],
            cwd=p.dir, env=p.env, capture_output=True, timeout=300,
        )  # fmt: skip


def test_compose_serves_from_postgresql_and_keeps_the_games_across_down_and_up(project: Project) -> None:
    project.compose("up", "-d", "--no-build")
    assert project.ready()["status"] == "ready"
    # the server runs on the compose network's PostgreSQL, not on a SQLite file of its own
    env = podman("exec", f"{project.name}_dicehall_1", "printenv", "DICEHALL_DB").stdout
    assert env.startswith("postgresql+psycopg://dicehall:") and env.strip().endswith("@db/dicehall")
    with httpx.Client(base_url=project.base, timeout=10) as c:
        made = c.post(
            "/api/tables",
            json={"game": "thousand", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert"}]},
        )
        assert made.status_code in (200, 201), made.text
        table = made.json()["table_id"]
    tables = podman(
        "exec", f"{project.name}_db_1", "psql", "-U", "dicehall", "-d", "dicehall", "-tAc",
        "select id from dh_tables",
    ).stdout.split()  # fmt: skip
    assert table in tables
    project.compose("down")  # the containers go, the volumes stay
    project.compose("up", "-d", "--no-build")
    project.ready()
    assert httpx.get(f"{project.base}/api/tables/{table}", timeout=10).status_code == 200
    project.compose("down", "-v")  # and with the volumes, the games
    project.compose("up", "-d", "--no-build")
    project.ready()
    assert httpx.get(f"{project.base}/api/tables/{table}", timeout=10).status_code == 404
