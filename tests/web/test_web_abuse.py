"""The abuse mix, briefly (figures: ``python -m tools.abuse``, ``make bench``): the flooder is refused and
then cut off, the creator gets 429 with Retry-After past its quota, normal players and health are served."""

from __future__ import annotations

import math

from tools.abuse import AbuseResult, run


def test_abuse_mix_flooder_creator_and_normal_players() -> None:
    def seen_all(r: AbuseResult) -> bool:  # the window stretches (up to 2 minutes) on a slow machine
        return bool(
            r.flood_codes.get("rate_limited")
            and r.flood_closes.get(1008)
            and r.refused
            and r.latencies
            and r.health
            and r.pathological_tables
        )

    out = run(
        normal=4,
        duration=3.0,
        warmup=0.5,
        settings={"tables_per_hour": 3},
        bot="random",
        bot_delay=0.05,
        until=seen_all,
    )
    assert out["pathological_tables"] >= 1
    assert out["flood_codes"].get("rate_limited", 0) > 0, out
    assert out["flood_closes"].get("1008", 0) >= 1, out
    assert out["creator_refused_429"] > 0 and out["creator_retry_after_ok"], out
    assert "try again in" in out["creator_first_refusal"]
    assert out["creator_created"] <= 3
    assert out["normal_moves"] > 0 and not out["normal_errors"] and out["normal_refused"] == 0, out
    assert out["health_requests"] > 0 and out["health_failures"] == 0, out
    assert math.isfinite(out["server_rss_max_mb"]) and out["server_rss_max_mb"] > 10
    assert out["server_cpu_per_s"] > 0
