"""Colour is never the only signal: Clever's dice and areas carry a shape each (yellow ◆, blue ▲, green ■, orange ★,
purple ⬢). Seen through Chromium's simulated deuteranopia (CDP ``Emulation.setEmulatedVisionDeficiency``), green
and orange dice, blue and purple ones look alike; their shapes in the screenshot still differ. Screenshots:
``test-artifacts/colour-blind-*.png``."""

from __future__ import annotations

import io
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from .conftest import Server
from .helpers import hold_seats

pytestmark = pytest.mark.browser

AREAS = ["yellow", "blue", "green", "orange", "purple"]


def see_as(page: Any, deficiency: str) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})


def crops(page: Any, selectors: dict[str, str]) -> dict[str, np.ndarray]:
    """Each selector's first element as the screen shows it now (grey levels, 24×24)."""
    shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
    out = {}
    for name, sel in selectors.items():
        box = page.locator(sel).first.bounding_box()
        assert box, f"{sel} is not drawn"
        part = shot.crop((box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]))
        out[name] = np.asarray(part.resize((24, 24)), dtype=float)
    return out


def mean_colour(page: Any, sel: str) -> np.ndarray:
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    box = page.locator(sel).first.bounding_box()
    cx, cy = box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.12  # the body above the pips
    return np.asarray(shot.crop((cx - 2, cy - 2, cx + 2, cy + 2)), dtype=float).reshape(-1, 3).mean(axis=0)


def test_clever_dice_and_areas_told_apart_without_colour(
    new_page: Any, server: Server, artifacts: Path
) -> None:
    page = new_page(1280, 800)
    created = server.post("/api/tables", {"game": "clever", "seats": [{"kind": "human", "name": "Ann"}]})
    hold_seats(page, created["table_id"], {0: created["seats"][0]["token"]})
    page.wait_for_selector(".clever-root[data-state=act] [data-testid=rolled] .cdie-purple")
    page.emulate_media(reduced_motion="reduce")  # no tumble: the dice stand still for the photograph
    page.screenshot(path=str(artifacts / "colour-blind-normal.png"))
    normal = {a: mean_colour(page, f"[data-testid=rolled] .cdie-{a}") for a in ("green", "orange")}

    see_as(page, "deuteranopia")
    page.screenshot(path=str(artifacts / "colour-blind-deuteranopia.png"))
    page.locator(".clever-root").screenshot(path=str(artifacts / "colour-blind-deuteranopia-board.png"))
    seen = {a: mean_colour(page, f"[data-testid=rolled] .cdie-{a}") for a in ("green", "orange")}
    # the filter is really on: green and orange dice, far apart in colour, come much closer
    assert (
        np.abs(seen["green"] - seen["orange"]).sum() < 0.6 * np.abs(normal["green"] - normal["orange"]).sum()
    )

    # every coloured die, every area's title and every coloured bonus square shows its own shape, and the five
    # shapes differ from each other as drawn under the filter
    for where in (
        "[data-testid=rolled] .cdie-{a} .csym",
        ".clever-sheet .area-{a} .csym",
        ".clever-sheet .bonus .csym-{a}",
    ):
        shapes = crops(page, {a: where.format(a=a) for a in AREAS})
        for a, b in combinations(AREAS, 2):
            differ = np.abs(shapes[a] - shapes[b]).mean()
            assert differ > 6, f"{where}: {a} and {b} look alike without colour ({differ:.1f})"


def test_clever_real_dice_entry_shapes(new_page: Any, server: Server, artifacts: Path) -> None:
    page = new_page(390, 844)
    created = server.post(
        "/api/tables", {"game": "clever", "seats": [{"kind": "human", "name": "Ann"}], "dice": "real"}
    )
    hold_seats(page, created["table_id"], {0: created["seats"][0]["token"]})
    page.get_by_test_id("dice-entry").wait_for(state="visible")
    see_as(page, "deuteranopia")
    page.screenshot(path=str(artifacts / "colour-blind-entry-phone.png"))
    shapes = {a: page.locator(f".dice-entry .die-{a}").first for a in AREAS}
    drawn = {a: el.evaluate("e => getComputedStyle(e, '::after').clipPath") for a, el in shapes.items()}
    assert len(set(drawn.values())) == len(AREAS) and all(v.startswith("polygon") for v in drawn.values()), (
        drawn
    )
