"""``GET /api/strategy/clever``: the shipped figures of Clever's strategy page (tests/clever/test_strategy.py
checks the figures themselves against the games they came from)."""

from __future__ import annotations

import gzip
from typing import Any

from dicehall.clever.strategy import shipped


def test_the_api_sends_the_figures_without_the_sample_plain_or_gzipped(server: Any) -> None:
    with server() as c:
        plain = c.get("/api/strategy/clever", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
        assert plain.json() == {k: v for k, v in shipped().items() if k != "sample"}
        packed = c.get("/api/strategy/clever", headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip"
        assert packed.json() == plain.json()
        assert len(gzip.compress(plain.content)) < len(plain.content) / 2
        assert "max-age" in packed.headers["Cache-Control"]
