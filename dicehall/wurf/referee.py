"""Referee mode: real dice on a real table. After each throw the players type what lies in the arena; the
software resolves it with the same rules engine, moves dice between supplies, says whose turn it is, handles
the big throw, eliminations and the match score, and can undo entries (the input format is :data:`HELP`).

Nothing is invented for the record: a real throw is recorded as ``throw real`` (its aim and power are unknown),
its outcome as the typed faces without positions, and the first die as ``start <face>`` without a place.
"""

from __future__ import annotations

import re

from dicehall.core.errors import DicehallError, NotationError
from dicehall.core.game import TERMINAL
from dicehall.core.record import GameRecord
from dicehall.wurf.actions import EndTurn, Landed, Outcome, RealThrow, Setup, face_name, parse_face
from dicehall.wurf.rules import TOTAL_DICE, WurfRules
from dicehall.wurf.state import CHOICE, OVER, SETUP, THROW, WurfState

# Printed as is: every line fits an 80-column terminal, so nothing re-wraps it at 80-120 columns.
HELP = """\
Type one line after each event at the table (upper or lower case):

  start 4          at the start of each game: the face of the first die
                   put into the arena from the box (any face but X)
  3 3 5 6 X out    after a throw: every die that was in the arena or was
                   thrown into it. Faces are X or 2-6 (these dice have no
                   1: the X is where a 1 would be); 'out' = left the
                   arena, 'rim' = rests on the rim; 'out*2' counts two.
                   A cocked die is re-thrown outside the arena first:
                   type its new face (X if it shows X).
  end              end the turn (only after a throw in which all numbers
                   differed)
  undo             take back the last entry (also after the last throw)
  done             close the session once the game is over
  show             supplies, the arena and match points
  help             this text

The record stores each real throw as 'throw real' followed by the dice
as typed; nothing about aim, power or positions is made up."""


ONE_IS_X = "these dice have no 1: the face where a 1 would be shows X, so type X"


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
                raise NotationError(f"cannot read {tok!r}: {ONE_IS_X}")
            raise NotationError(
                f"cannot read {tok!r}: type faces X or 2..6, 'out' or 'rim' (e.g. '3 3 5 X out*2')"
            )
        digits = (m.group(2) or "1").lstrip("0") or "0"
        count = int(digits) if len(digits) <= 4 else limit + 1  # never build a huge list
        if count < 1:
            raise NotationError(f"cannot read {tok!r}: a count after '*' is at least 1")
        if len(dice) + count > limit:
            where = "lie in or were thrown into the arena" if expected is not None else "exist"
            raise NotationError(f"too many dice: {limit} {where}, the entry lists more")
        word = m.group(1)
        die = Landed(word) if word in ("out", "rim") else Landed("arena", parse_face(word))
        dice.extend([die] * count)
    if not dice:
        raise NotationError("type what lies in the arena, e.g. '3 3 5 X out'")
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
            over = "The match is over." if s.rules.match else "The game is over."
            return f"{over} Type 'undo' to take back the last entry, or 'done' to close the session."
        if s.phase == SETUP:
            game = f"game {s.game_index + 1} of {s.games_total}: " if s.rules.match else ""
            return f"{game}put one die from the box into the arena (not X) and type: start <face>"
        who = self.names[s.current]
        n = s.throw_count()
        expect = len(s.arena) + n
        if s.phase == THROW:
            what = (
                f"BIG THROW — {who} throws all {n} dice"
                if s.big_next
                else f"{who} must throw 1 die ({s.supply[s.current]} in supply)"
            )
        else:
            what = f"{who} may throw another die ({s.supply[s.current]} in supply) or type 'end'"
        return f"{what}; then type all {expect} dice (faces, out, rim)"

    def summary(self) -> str:
        s = self.state
        parts = [f"{n}: {s.supply[i]}{'' if s.alive[i] else ' (out)'}" for i, n in enumerate(self.names)]
        line = "supplies — " + ", ".join(parts)
        arena = " ".join(face_name(d.face) for d in s.arena) or "empty"
        line += f"\narena: {arena}; out of the game: {s.out_of_game}"
        if s.rules.match:
            pts = ", ".join(f"{n} {p}" for n, p in zip(self.names, s.match_points, strict=True))
            line += f"\nmatch points (lowest wins): {pts}"
        return line

    def _report(self, before: WurfState) -> list[str]:
        s = self.state
        rep = s.last
        out: list[str] = []
        if rep is not None and s.last is not before.last:
            who = self.names[rep.thrower]
            bits = []
            if rep.left:
                bits.append(f"{rep.left} out of the arena")
            if rep.x_removed or rep.cocked_lost:
                bits.append(f"{rep.x_removed + rep.cocked_lost} X removed")
            if rep.taken:
                faces = ", ".join(face_name(f) for f in rep.taken_faces)
                bits.append(f"{who} takes {rep.taken} dice (repeated: {faces})")
            else:
                bits.append("all numbers differ")
            out.append("; ".join(bits) + ".")
            if rep.eliminated:
                out.append(f"{who} has no dice left and is out of the game.")
        if s.game_index > before.game_index or s.phase == OVER:
            log = s.elimination_log[before.game_index]
            out.append(f"{self.names[log[-1]]} wins the game!")
            if s.rules.match:
                out.append(self.summary().splitlines()[-1])
        if s.phase == OVER:
            out.append("Winner: " + ", ".join(self.names[w] for w in s.winners()))
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
            return [HELP]
        if low in ("show", "status"):
            return [self.summary(), self.prompt()]
        if self.closed:
            return ["The session is closed."]
        if low == "undo":
            if not self.history:
                return ["Nothing to undo."]
            self.state, n_events = self.history.pop()
            del self.record.events[n_events:]
            self.record.result = None
            return ["Undone.", self.summary(), self.prompt()]
        if s.current_player() == TERMINAL:
            if low in ("done", "close", "quit", "q"):
                self.closed = True
                return ["Session closed."]
            return [self.prompt()]
        if low in ("done", "close"):
            return ["The game is not over yet; Ctrl-D ends the session early.", self.prompt()]
        before = s.clone()
        try:
            words = low.split()
            if words[0] == "start":
                if s.phase != SETUP:
                    return ["The first die is placed only at the start of a game."]
                if len(words) != 2:
                    return [
                        "Type 'start' and the face of the die you put into the arena, e.g. 'start 4'.",
                        self.prompt(),
                    ]
                if words[1] == "1":
                    return [
                        f"Not accepted: {ONE_IS_X} (and X may not start a game: put in another die).",
                        self.prompt(),
                    ]
                face = parse_face(words[1])
                self._apply([Setup(face, None, None)])  # placed by hand: its place is unknown
            elif words[0] == "end":
                if len(words) > 1:
                    return [f"Not accepted: 'end' takes nothing after it, got {text!r}.", self.prompt()]
                self._apply([EndTurn()])
            else:
                if s.phase == SETUP:
                    return ["First place a die: start <face>."]
                if s.phase not in (THROW, CHOICE):
                    return [self.prompt()]
                dice = parse_arena_entry(text, len(s.arena) + s.throw_count())
                self._apply([RealThrow(), Outcome(tuple(dice))])
        except DicehallError as exc:
            rule = getattr(exc, "rule", "")
            return [f"Not accepted: {exc}" + (f" (rule: {rule})" if rule else ""), self.prompt()]
        return [*self._report(before), self.summary(), self.prompt()]
