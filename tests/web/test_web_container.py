"""The image itself, built and run by podman (docs/self-hosting.md), where a container engine works: a non-root
server on /data answering its HEALTHCHECK, /readyz ready, the kernels compiled in (not on first use), and the same
image on a fresh PostgreSQL database, migrated at start. Slow (a build): `pytest -m slow tests/web/test_web_container.py`.

Where no registry is reachable, point the build at local base images and say which OCI runtime works:
DICEHALL_TEST_PYTHON_IMAGE, DICEHALL_TEST_NODE_IMAGE, DICEHALL_TEST_OCI_RUNTIME (e.g. runc) and
DICEHALL_TEST_ULIMITS=1 (a sandbox that refuses to raise limits: the container gets this process's own)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.pg import Cluster
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[2]
PODMAN = shutil.which("podman")
IMAGE = "localhost/dicehall:test"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(PODMAN is None, reason="no podman here")]


def podman(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    runtime = os.environ.get("DICEHALL_TEST_OCI_RUNTIME")
    cmd = [str(PODMAN), *(["--runtime", runtime] if runtime else []), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=check)


def _limits() -> list[str]:
    if not os.environ.get("DICEHALL_TEST_ULIMITS"):
        return []
    files = resource.getrlimit(resource.RLIMIT_NOFILE)
    return ["--ulimit", f"nofile={files[0]}:{files[1]}", "--ulimit", "nproc=4096:4096"]


@pytest.fixture(scope="module")
def image() -> str:
    # docker format: the OCI image format has no HEALTHCHECK, and podman would drop it
    args = ["build", "--format", "docker", "--network", "host", *_limits(), "-t", IMAGE]
    for var, arg in (
        ("DICEHALL_TEST_PYTHON_IMAGE", "PYTHON_IMAGE"),
        ("DICEHALL_TEST_NODE_IMAGE", "NODE_IMAGE"),
    ):
        if os.environ.get(var):
            args += ["--build-arg", f"{arg}={os.environ[var]}"]
    built = podman(*args, str(ROOT), timeout=1800, check=False)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return IMAGE


def _run(image: str, name: str, port: int, *env: str) -> Iterator[str]:
    volume = f"{name}-data"
    podman("rm", "-f", name, check=False)
    podman("volume", "rm", "-f", volume, check=False)
    flags = ["--network", "host", "-e", f"DICEHALL_PORT={port}", "-e", "DICEHALL_WARM_UP=0", *env]
    podman("run", "-d", "--name", name, *_limits(), *flags, "-v", f"{volume}:/data", image)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            logs = podman("logs", name, check=False)
            assert time.monotonic() < deadline, logs.stdout[-2000:] + logs.stderr[-2000:]
            threading.Event().wait(0.2)
        yield base
    finally:
        podman("rm", "-f", "-t", "10", name, check=False, timeout=120)
        podman("volume", "rm", "-f", volume, check=False)


def test_the_image_serves_from_its_volume_as_a_user_with_kernels_inside(image: str) -> None:
    name = "dicehall-test-sqlite"
    for base in _run(image, name, free_port()):
        assert podman("healthcheck", "run", name, check=False).returncode == 0  # the HEALTHCHECK itself
        assert httpx.get(f"{base}/readyz", timeout=10).json()["status"] == "ready"
        assert podman("exec", name, "id", "-u").stdout.strip() != "0"
        listed = podman("exec", name, "ls", "/data").stdout.split()
        assert "dicehall.sqlite" in listed
        page = httpx.get(f"{base}/", timeout=10)
        assert page.status_code == 200 and "/assets/" in page.text  # the built front end
        # the kernels load from the image's cache: seconds, where a cold compile takes about a minute
        started = time.monotonic()
        warm = "import dicehall.clever.blocks as b; b.warm(); import dicehall.web.botwarm"
        assert podman("exec", name, "python", "-c", warm, timeout=120).returncode == 0
        assert time.monotonic() - started < 20


def test_the_image_migrates_a_fresh_postgresql_at_start(image: str) -> None:
    with Cluster() as cluster:
        url = cluster.new_database()
        for base in _run(image, "dicehall-test-pg", free_port(), "-e", f"DICEHALL_DB={url}"):
            ready = httpx.get(f"{base}/readyz", timeout=10)
            assert ready.status_code == 200, ready.text
