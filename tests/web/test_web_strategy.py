"""``GET /api/strategy/thousand``: the strategy maps of classic Dice 1000 (tests/thousand/test_strategy.py checks
the maps themselves against the shipped table)."""

from __future__ import annotations

import gzip
import json
from typing import Any

from dicehall.thousand.house_rules import shipped_effects
from dicehall.thousand.practical import measured
from dicehall.thousand.solver.strategy import classic_strategy


def test_the_api_sends_the_maps_plain_or_gzipped(server: Any) -> None:
    with server() as c:
        plain = c.get("/api/strategy/thousand", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
        want = {**classic_strategy(), "house_rules": shipped_effects(), "practical": measured()}
        assert plain.json() == json.loads(json.dumps(want))
        packed = c.get("/api/strategy/thousand", headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip"
        assert packed.json() == plain.json()  # the client unpacks it
        assert len(gzip.compress(plain.content)) < len(plain.content) / 3
        assert "max-age" in packed.headers["Cache-Control"]
