"""deploy/dicehall.service passes ``systemd-analyze verify`` (docs/self-hosting.md), with /opt/dicehall standing
for this checkout so that its ExecStart names a real executable."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    text = (ROOT / "deploy/dicehall.service").read_text(encoding="utf-8")
    assert "ExecStart=/opt/dicehall/.venv/bin/dicehall serve" in text
    unit = tmp_path / "dicehall.service"
    unit.write_text(text.replace("/opt/dicehall", str(ROOT)), encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "dicehall.service" not in done.stderr, done.stderr
