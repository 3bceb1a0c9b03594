"""Driving the Clever table like a person: hand the device over, click a die, click a lit cell, or press a button."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

# What the page shows and allows now (the view marks its root with data-state: act / wait / handover / over).
LOOK_JS = """() => {
  const root = document.querySelector('.clever-root');
  const over = !!document.querySelector('[data-testid=gameover]');
  if (!root) return {state: over ? 'over' : 'none'};
  const sheet = root.querySelector('.clever-sheet');
  return {
    state: over ? 'over' : root.dataset.state,
    dice: [...root.querySelectorAll('.cdie.pickable')].map((d) => [d.dataset.die, Number(d.dataset.moves)]),
    targets: [...root.querySelectorAll('.clever-sheet .cell.target')].map((c) => c.dataset.target),
    buttons: [...root.querySelectorAll('.clever-controls button')].map((b) => b.dataset.testid),
    why: (root.querySelector('[data-testid=why]') || {}).textContent || '',
    status: (root.querySelector('[data-testid=turn-status]') || {}).textContent || '',
    seat: sheet ? Number(sheet.dataset.seat) : null,
    total: Number((root.querySelector('[data-score=total] .score-num') || {}).textContent || 0),
    seq: Number((document.querySelector('[data-testid=log] > li') || {dataset: {}}).dataset.seq || 0),
    // a simultaneous phase: [seat, done] for each seat choosing in it (empty when none is open)
    sim: [...root.querySelectorAll('[data-testid=together]:not([hidden]) li')].map(
      (li) => [Number(li.dataset.seat), li.dataset.done === 'true']),
    entry: !!document.querySelector('[data-testid=dice-entry]:not([hidden])'),
  };
}"""

# The sheet as drawn, without the short-lived marks (the last entry's flash, a roll's tumble).
SHEET_JS = """() => {
  const svg = document.querySelector('.clever-sheet');
  return svg ? svg.outerHTML.replace(/ fresh/g, '') : '';
}"""


def look(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(LOOK_JS)
    return result


def sheet_html(page: Any, *, marks: bool = False) -> str:
    """The sheet's SVG; with ``marks`` also the last entry's flash (which must not betray a hidden choice)."""
    html: str = page.evaluate(
        "() => document.querySelector('.clever-sheet').outerHTML" if marks else SHEET_JS
    )
    return html


def shown_totals(page: Any) -> list[int]:
    """The totals row of the game-over card, by seat."""
    cells = page.locator("[data-testid=results] tbody tr.total td").all_inner_texts()
    return [int("".join(ch for ch in c if ch.isdigit())) for c in cells]


def click_cell(page: Any, key: str) -> None:
    page.locator(f'.clever-sheet .cell.target[data-target="{key}"]').first.click()


@dataclass
class CleverPlayer:
    """Plays whatever this page may play: random dice and cells, +1 and re-rolls sometimes, keys sometimes."""

    page: Any
    seed: int = 1
    moves: int = 0
    handovers: int = 0
    used: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def state(self) -> str:
        s: str = look(self.page)["state"]
        return s

    def move(self, seen: dict[str, Any] | None = None) -> None:
        """One move on what the page shows now; ``seen``: the look the caller decided on, so that a page that has
        moved on since (the server's answer, a bot) is left for the caller to look at again (and maybe stop at)."""
        page = self.page
        s = look(page)
        if s["state"] == "wait":  # the table moved on since the caller looked (the server's answer, a bot)
            return
        if seen is not None and any(s.get(k) != seen.get(k) for k in ("state", "seat", "seq")):
            return
        if s["state"] == "handover":
            page.get_by_test_id("handover-ready").click()
            self.handovers += 1
            return
        if s["targets"]:  # a bonus cross to place
            click_cell(page, self.rng.choice(s["targets"]))
            self.used.add("bonus")
        elif "reroll-btn" in s["buttons"] and self.rng.random() < 0.15:
            page.keyboard.press("r")
            self.used.add("reroll")
        elif s["dice"] and not ("stop-btn" in s["buttons"] and self.rng.random() < 0.4):
            die, n = self.rng.choice(s["dice"])
            if self.rng.random() < 0.3:
                page.keyboard.press(
                    str(["white", "yellow", "blue", "green", "orange", "purple"].index(die) + 1)
                )
            else:
                page.locator(f'.cdie.pickable[data-die="{die}"]').first.click()
            if n > 1:
                page.wait_for_selector(".clever-sheet .cell.target")
                click_cell(page, self.rng.choice(look(page)["targets"]))
            self.used.add("plus" if "stop-btn" in s["buttons"] else "die")
        else:
            for b in ("stop-btn", "pass-btn", "forfeit-btn"):
                if b in s["buttons"]:
                    page.get_by_test_id(b).click()
                    self.used.add(b)
                    break
            else:
                raise AssertionError(f"nothing to do on an acting page: {s}")
        self.moves += 1


def play_clever(
    players: list[CleverPlayer], *, timeout: float = 120.0, max_moves: int = 2000, stop: Any = None
) -> None:
    """Let every page act whenever it may, until all show the game over (or ``stop(looks)`` is true)."""
    deadline = time.monotonic() + timeout
    total = 0
    while time.monotonic() < deadline:
        looks = [look(p.page) for p in players]
        if all(x["state"] == "over" for x in looks):
            return
        if stop is not None and stop(looks):
            return
        acted = False
        for p, x in zip(players, looks, strict=True):
            if x["state"] in ("act", "handover"):
                p.move(x)
                total += 1
                acted = True
                if total >= max_moves:
                    raise AssertionError(f"no game over after {max_moves} moves")
        if not acted:
            time.sleep(0.02)
    raise AssertionError(
        f"game not over within {timeout} s ({total} moves): {[look(p.page) for p in players]}"
    )


# -- real dice: the faces tapped in, then confirmed ------------------------------------------------------------
def tap(page: Any, faces: list[int]) -> None:
    """Tap these faces into the entry pad's slots, in order (the dice by colour, white first)."""
    for f in faces:
        page.get_by_test_id(f"entry-face-{f}").click()


def seq(page: Any) -> int:
    return int(look(page)["seq"])


def confirm(page: Any) -> None:
    """Send the tapped throw and wait until the table has logged it."""
    before = seq(page)
    page.get_by_test_id("entry-confirm").click()
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=log] > li')?.dataset.seq) > {before}"
    )


def play_real(page: Any, rng: random.Random, timeout: float, stop: Any = None) -> int:
    """At a real-dice table held by this page: enter random throws, hand the screen over and play random moves
    until the game is over (or ``stop(look)``); returns the number of throws entered."""
    me = CleverPlayer(page, seed=rng.randrange(1000))
    entries = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = look(page)
        if s["state"] == "over" or (stop is not None and stop(s)):
            return entries
        if s["state"] == "enter":
            n = page.get_by_test_id("entry-slot").count()
            tap(page, [rng.randint(1, 6) for _ in range(n)])
            confirm(page)
            entries += 1
        elif s["state"] in ("act", "handover"):
            me.move(s)
            page.wait_for_function("() => document.querySelector('.clever-root').dataset.state !== 'wait'")
        else:
            time.sleep(0.02)
    raise AssertionError(f"not over within {timeout} s: {look(page)}")
