"""Bad input for Clever over the websocket: a pick for a die that is not there, a +1 on a die already used this
step, a move out of turn, a forged seat. Each gets a clear error, to that client only, and nothing changes. A real
dice table makes the game exact: the dice are entered from a game planned offline with the engine."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import numpy as np
from webtools import WS, connect, create

from dicehall.clever.game import CleverGame
from dicehall.clever.rules import CleverRules
from dicehall.core.game import CHANCE


def plan() -> tuple[list[tuple[int | str, str]], str]:
    """A two-player game (random moves, random dice) up to a +1 step in which the seat, having used one +1, may
    still use another: the moves so far and that first +1."""
    for attempt in range(500):
        rng, dice = random.Random(attempt), np.random.default_rng(attempt)
        state = CleverGame().new_initial_state(CleverRules(), 2)
        done: list[tuple[int | str, str]] = []
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                outcome = state.sample_chance(dice)
                done.append(("chance", state.action_to_string(outcome)))
                state.apply_action(outcome)
                continue
            texts = [state.action_to_string(a) for a in state.legal_actions()]
            plus = [x for x in texts if x.startswith("+1")]
            if plus:
                after = state.clone()
                after.apply_action(after.string_to_action(plus[0]))
                if after.current_player() == seat and any(
                    state.action_to_string(a).startswith("+1") for a in after.legal_actions()
                ):
                    return done, plus[0]
            move = rng.choice(texts)
            done.append((seat, move))
            state.apply_action(state.string_to_action(move))
    raise AssertionError("no game with two +1 in one step")


def test_bad_clever_input_is_refused_to_the_sender_only(server):
    moves, plus = plan()
    with server() as c, ExitStack() as stack:
        t = create(c, game="clever", dice="real")
        tid = t["table_id"]
        ann, bob, watcher = (stack.enter_context(connect(c)) for _ in range(3))
        ann.join(tid, [t["seats"][0]["token"]])
        bob.join(tid, [t["seats"][1]["token"]])
        watcher.join(tid)
        conns = {0: ann, 1: bob}
        table = c.app.state.manager.get(tid)

        def refused(ws: WS, msg: dict[str, Any], code: str) -> dict[str, Any]:
            seq, view = table.seq, table.view()
            got = ws.request({**msg, "seq": seq})
            assert [m["type"] for m in got] == ["error"] and got[0]["code"] == code, got
            assert got[0]["message"]
            for other in (w for w in (ann, bob, watcher) if w is not ws):
                assert other.drain() == [], "an error goes to its sender only"
            assert table.seq == seq and table.view() == view, "nothing changed"
            return got[0]

        def play(actor: int | str, move: str) -> None:
            if actor == "chance":
                seat = table.view()["real_dice"]["enter"][0]
                got = conns[seat].request({"type": "enter", "seat": seat, "seq": table.seq, "outcome": move})
            else:
                got = conns[int(actor)].act(int(actor), table.seq, move)
            assert not [m for m in got if m["type"] == "error"], got
            for w in (ann, bob, watcher):
                w.drain()

        checked_pick = False
        for actor, move in moves:
            view = table.view()
            if not checked_pick and view["step"] == "pick" and actor != "chance":
                gone = next(
                    (d["die"] for d in view["dice"] if d["where"] != "rolled" and d["die"] == "orange"), None
                )
                if gone is not None and len(view["sheets"][actor]["orange"]["written"]) < 11:
                    # a pick for a die that is not among the rolled ones
                    err = refused(conns[actor], {"type": "act", "seat": actor, "move": "O:O"}, "illegal_move")
                    assert "orange" in err["message"].lower() or err.get("rule"), err
                    # the other player, out of turn; and a forged seat
                    other = 1 - actor
                    refused(conns[other], {"type": "act", "seat": other, "move": move}, "not_your_turn")
                    refused(conns[other], {"type": "act", "seat": actor, "move": move}, "wrong_seat")
                    checked_pick = True
            play(actor, move)
        assert checked_pick, "the planned game had a pick with the orange die gone"

        seat = table.state.current_player()
        play(seat, plus)
        used = plus.split()[1].split(":")[0]
        again = next(
            a
            for a in (table.state.action_to_string(x) for x in table.state.legal_actions())
            if a.startswith("+1")
        )
        assert not again.startswith(f"+1 {used}:"), "the engine offers no second +1 on the same die"
        err = refused(conns[seat], {"type": "act", "seat": seat, "move": plus}, "illegal_move")
        assert err.get("rule"), err
        # and a move made out of turn by the other player during the +1 step
        refused(conns[1 - seat], {"type": "act", "seat": 1 - seat, "move": again}, "not_your_turn")
        play(seat, again)  # the other +1 is still fine
