"""Referee mode: real dice on a real table. After each throw the players type what lies in the arena; the
software resolves it with the same rules engine, moves dice between supplies, says whose turn it is, handles
the big throw, eliminations and the match score, and can undo entries (the input format: :func:`referee_help`).

Nothing is invented for the record: a real throw is recorded as ``throw real`` (its aim and power are unknown),
its outcome as the typed faces without positions, and the first die as ``start <face>`` without a place.
"""

from __future__ import annotations

import re

from dicehall.core.errors import DicehallError, NotationError
from dicehall.core.game import TERMINAL
from dicehall.core.record import GameRecord
from dicehall.i18n import Message, tr
from dicehall.wurf.actions import EndTurn, Landed, Outcome, RealThrow, Setup, face_name, parse_face
from dicehall.wurf.rules import TOTAL_DICE, WurfRules
from dicehall.wurf.state import CHOICE, OVER, SETUP, THROW, WurfState


def referee_help() -> str:
    """The input format, in the process's language; printed as is: every line fits an 80-column terminal, so
    nothing re-wraps it at 80-120 columns (tests check each language)."""
    return tr("wurf.ref.help")


def parse_arena_entry(text: str, expected: int | None = None) -> list[Landed]:
    """The dice typed after a real throw, as outcome entries (no positions).

    ``expected`` is how many dice the entry must list (those in the arena plus those thrown); a longer entry,
    or a repeat count like ``out*1000``, is refused before anything is built.
    """
    limit = TOTAL_DICE if expected is None else expected
    dice: list[Landed] = []
    for tok in re.split(r"[\s,;]+", text.strip()):
        if not tok:
            continue
        m = re.fullmatch(r"(out|rim|x|[2-6])(?:\*(\d+))?", tok.lower())
        if not m:
            if re.fullmatch(r"1(\*\d+)?", tok):
                raise NotationError(Message("wurf.ref.cannot_read_one", token=repr(tok)))
            raise NotationError(Message("wurf.ref.cannot_read", token=repr(tok)))
        digits = (m.group(2) or "1").lstrip("0") or "0"
        count = int(digits) if len(digits) <= 4 else limit + 1  # never build a huge list
        if count < 1:
            raise NotationError(Message("wurf.ref.count_zero", token=repr(tok)))
        if len(dice) + count > limit:
            key = "wurf.ref.too_many" if expected is not None else "wurf.ref.too_many_exist"
            raise NotationError(Message(key, n=limit))
        word = m.group(1)
        die = Landed(word) if word in ("out", "rim") else Landed("arena", parse_face(word))
        dice.extend([die] * count)
    if not dice:
        raise NotationError(Message("wurf.ref.nothing_typed"))
    return dice


class RefereeSession:
    """A referee-mode game (or match) for ``names``; feed it lines with :meth:`handle`."""

    def __init__(self, names: list[str], match: bool = False) -> None:
        self.names = names
        self.rules = WurfRules.from_preset("match" if match else "standard")
        self.state = WurfState(self.rules, len(names))
        self.state.set_names(names)
        self.record = GameRecord.start("wurf", self.rules, names)
        self.history: list[tuple[WurfState, int]] = []
        self.closed = False  # set by 'done' once the game is over; until then the last entry can be undone

    # -- helpers ------------------------------------------------------------------------------------------
    def _apply(self, actions: list[Setup | RealThrow | Outcome | EndTurn]) -> None:
        trial = self.state.clone()
        for a in actions:
            trial.apply_action(a)  # raises before anything of ours changes
        self.history.append((self.state.clone(), len(self.record.events)))
        for a in actions:
            self.record.add(self.state, a)
            self.state.apply_action(a)
        if self.state.is_terminal():
            self.record.finish(self.state)

    def prompt(self) -> str:
        s = self.state
        if s.phase == OVER:
            return tr("wurf.ref.over_match" if s.rules.match else "wurf.ref.over_game")
        if s.phase == SETUP:
            if s.rules.match:
                return tr("wurf.ref.setup_match", game=s.game_index + 1, games=s.games_total)
            return tr("wurf.ref.setup")
        who = self.names[s.current]
        n = s.throw_count()
        expect = len(s.arena) + n
        if s.phase == THROW:
            what = (
                tr("wurf.ref.big", who=who, n=n)
                if s.big_next
                else tr("wurf.ref.must_throw", who=who, n=s.supply[s.current])
            )
        else:
            what = tr("wurf.ref.may_throw", who=who, n=s.supply[s.current])
        return tr("wurf.ref.then_type", what=what, n=expect)

    def summary(self) -> str:
        s = self.state
        out = tr("wurf.ref.out_mark")
        parts = [f"{n}: {s.supply[i]}{'' if s.alive[i] else ' ' + out}" for i, n in enumerate(self.names)]
        line = tr("wurf.ref.supplies", supplies=", ".join(parts))
        arena = " ".join(face_name(d.face) for d in s.arena) or tr("wurf.ref.empty")
        line += "\n" + tr("wurf.ref.arena_line", arena=arena, out=s.out_of_game)
        if s.rules.match:
            pts = ", ".join(f"{n} {p}" for n, p in zip(self.names, s.match_points, strict=True))
            line += "\n" + tr("wurf.ref.points", points=pts)
        return line

    def _report(self, before: WurfState) -> list[str]:
        s = self.state
        rep = s.last
        out: list[str] = []
        if rep is not None and s.last is not before.last:
            who = self.names[rep.thrower]
            bits = []
            if rep.left:
                bits.append(tr("wurf.narrate.n_out", n=rep.left))
            if rep.x_removed or rep.cocked_lost:
                bits.append(tr("wurf.ref.x_removed", n=rep.x_removed + rep.cocked_lost))
            if rep.taken:
                faces = ", ".join(face_name(f) for f in rep.taken_faces)
                bits.append(tr("wurf.ref.takes", who=who, n=rep.taken, faces=faces))
            else:
                bits.append(tr("wurf.ref.all_differ"))
            out.append("; ".join(bits) + ".")
            if rep.eliminated:
                out.append(tr("wurf.ref.eliminated", who=who))
        if s.game_index > before.game_index or s.phase == OVER:
            log = s.elimination_log[before.game_index]
            out.append(tr("wurf.play.wins", name=self.names[log[-1]]))
            if s.rules.match:
                out.append(self.summary().splitlines()[-1])
        if s.phase == OVER:
            out.append(tr("wurf.ref.winner", names=", ".join(self.names[w] for w in s.winners())))
        return out

    # -- input --------------------------------------------------------------------------------------------
    def handle(self, line: str) -> list[str]:
        """Process one typed line; return the messages to show. Bad input changes nothing."""
        text = line.strip()
        low = text.lower()
        s = self.state
        if not text:
            return [self.prompt()]
        if low in ("help", "?"):
            return [referee_help()]
        if low in ("show", "status"):
            return [self.summary(), self.prompt()]
        if self.closed:
            return [tr("wurf.ref.closed")]
        if low == "undo":
            if not self.history:
                return [tr("wurf.ref.nothing_to_undo")]
            self.state, n_events = self.history.pop()
            del self.record.events[n_events:]
            self.record.result = None
            return [tr("wurf.ref.undone"), self.summary(), self.prompt()]
        if s.current_player() == TERMINAL:
            if low in ("done", "close", "quit", "q"):
                self.closed = True
                return [tr("wurf.ref.session_closed")]
            return [self.prompt()]
        if low in ("done", "close"):
            return [tr("wurf.ref.not_over"), self.prompt()]
        before = s.clone()
        try:
            words = low.split()
            if words[0].startswith("start"):
                words = ["start", *low[5:].split()]  # 'start4' reads like 'start 4'
                if s.phase != SETUP:
                    return [tr("wurf.ref.start_only_at_start")]
                if len(words) != 2:
                    return [tr("wurf.ref.start_usage"), self.prompt()]
                if words[1] == "1":
                    return [tr("wurf.ref.refused", reason=tr("wurf.ref.start_one")), self.prompt()]
                face = parse_face(words[1])
                self._apply([Setup(face, None, None)])  # placed by hand: its place is unknown
            elif words[0] == "end":
                if len(words) > 1:
                    return [tr("wurf.ref.end_alone", text=repr(text)), self.prompt()]
                self._apply([EndTurn()])
            else:
                if s.phase == SETUP:
                    return [tr("wurf.ref.place_first")]
                if s.phase not in (THROW, CHOICE):
                    return [self.prompt()]
                dice = parse_arena_entry(text, len(s.arena) + s.throw_count())
                self._apply([RealThrow(), Outcome(tuple(dice))])
        except DicehallError as exc:
            rule = getattr(exc, "rule", "")
            reason = exc.localized() + (f" ({tr('clever.cli.rule', rule=rule)})" if rule else "")
            return [tr("wurf.ref.refused", reason=reason), self.prompt()]
        return [*self._report(before), self.summary(), self.prompt()]
