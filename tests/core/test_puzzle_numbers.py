"""A puzzle's reason sentence shows its numbers as the page's list of values does (one decimal, halves up)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess

import pytest

from dicehall.clever import puzzle_play
from dicehall.clever.puzzles import load_puzzles
from dicehall.core.puzzles import tenths

# Values where Python's round() (exact decimal, halves to even) and the page's Math.round(v * 10) / 10 part.
HALVES = [218.85, 0.15, 1.45, 2.675, 99.95, 263.05, -0.05, -3.25, 41.35, 12.5]


def test_tenths_rounds_halves_up_as_the_page_does() -> None:
    assert tenths(218.85) == 218.9 != round(218.85, 1)
    assert tenths(0.15) == 0.2 != round(0.15, 1)
    assert tenths(218.84) == 218.8


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run the page's rounding")
def test_tenths_equals_the_page_rounding_on_many_values() -> None:
    values = HALVES + [i / 100 for i in range(-2000, 40000, 7)]
    script = "const v = JSON.parse(process.argv[1]); console.log(JSON.stringify(v.map((x) => Math.round(x * 10) / 10)))"
    out = subprocess.run(
        ["node", "-e", script, json.dumps(values)], capture_output=True, text=True, check=True
    )
    page = json.loads(out.stdout)
    assert [tenths(v) for v in values] == [float(x) for x in page]


def test_the_reason_sentence_uses_the_page_rounding() -> None:
    p = load_puzzles()[0]
    other = next(k for k in p.options if k != p.best)
    p = dataclasses.replace(p, options={**p.options, p.best: 218.85, other: 200.05})
    p = dataclasses.replace(
        p, options={k: (v if k in (p.best, other) else 100.0) for k, v in p.options.items()}
    )
    msg = puzzle_play.why(p)
    assert msg.params["best"] == 218.9 and msg.params["other"] == 200.1
    assert msg.params["margin"] == pytest.approx(18.8)
