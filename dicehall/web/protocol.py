"""Websocket and REST messages (pydantic). Server → client messages are built as plain dicts for speed; their
shapes are documented in ``docs/web-protocol.md`` and checked by the tests.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, StrictBool

from dicehall.i18n.message import message_json

MAX_MESSAGE_BYTES = 4096
"""Largest client frame the server reads; larger ones get ``too_large`` (the transport cuts at 64 KiB)."""

ERROR_CODES = (
    "bad_message",
    "unknown_type",
    "too_large",
    "not_joined",
    "bad_token",
    "no_such_table",
    "wrong_seat",
    "not_your_turn",
    "not_started",
    "stale_seq",
    "illegal_move",
    "game_over",
    "server_error",
    "rate_limited",
    "rolled_here",
    "nothing_to_undo",
    "moved",
    "already_out",
    "others_joined",
    "not_creator",
    "rated_one_seat",
)


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class JoinMsg(_Msg):
    type: Literal["join"]
    table: str = Field(min_length=1, max_length=64)
    tokens: list[str] = Field(default_factory=list, max_length=8)
    last_seq: int | None = Field(default=None, ge=0)
    link: list[int] = Field(
        default_factory=list,
        max_length=16,
        description="seats held by token to link to this connection's player (a token from an invite link)",
    )
    mine: bool = Field(default=False, description="also hold the seats linked to this connection's player")


class ActMsg(_Msg):
    type: Literal["act"]
    seat: int = Field(ge=0, le=63)
    seq: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=200)


class EnterMsg(_Msg):
    """Real dice: the outcome that fell, in the game's notation, typed in for ``seat``."""

    type: Literal["enter"]
    seat: int = Field(ge=0, le=63)
    seq: int = Field(ge=0)
    outcome: str = Field(min_length=1, max_length=200)


class UndoMsg(_Msg):
    """Real dice: take back the last entered outcome (only its seat, only before anyone decides on it)."""

    type: Literal["undo"]
    seat: int = Field(ge=0, le=63)
    seq: int = Field(ge=0)


class ResignMsg(_Msg):
    """``seat`` gives the game up, whoever is to move (no ``seq``: a resignation is never stale)."""

    type: Literal["resign"]
    seat: int = Field(ge=0, le=63)


class PingMsg(_Msg):
    type: Literal["ping"]


class LobbyMsg(_Msg):
    """Watch the lobby: the open tables now, then a ``lobby_update`` per change (lobby.py)."""

    type: Literal["lobby"]


CLIENT_MESSAGES: dict[str, type[_Msg]] = {
    "join": JoinMsg,
    "act": ActMsg,
    "enter": EnterMsg,
    "undo": UndoMsg,
    "resign": ResignMsg,
    "ping": PingMsg,
    "lobby": LobbyMsg,
}


# -- REST bodies ------------------------------------------------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=40)
    bot: str | None = Field(
        default=None,
        max_length=40,
        validation_alias=AliasChoices("bot", "level"),
        description="bot name (its level), e.g. 'expert'; 'level' is accepted as another name for it",
    )
    open: bool = Field(default=False, description="human seat left for someone to claim with POST .../join")
    me: bool = Field(default=False, description="the creator's own seat: linked to its player, named by it")


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1, max_length=32)
    preset: str | None = Field(
        default=None, min_length=1, max_length=64
    )  # null = the game's default, "" is refused
    overrides: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    dice: Literal["rolled", "real"] = Field(
        default="rolled",
        description="'rolled': the server rolls; 'real': the players throw real dice and enter what fell",
    )
    hints: StrictBool | None = Field(
        default=None,
        description="whether players may ask for hints during the game; "
        "null = on when at most one person plays (alone or against bots), off between people",
    )
    rated: StrictBool | None = Field(
        default=None,
        description="a rated game (ratings.md); null = rated when it can be and every person's seat is the "
        "creator's own or open; real dice, one seat, hints or no person make it unrated (the answer says why)",
    )


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0)
    name: str | None = Field(default=None, max_length=40)


class ResignSeat(BaseModel):
    """``POST /api/tables/{id}/resign``: the seat, and the token that holds it."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=63)
    token: str | None = Field(default=None, max_length=200)


class DeleteTable(BaseModel):
    """``DELETE /api/tables/{id}``: the tokens of the caller's seats (every claimed seat must be among them)."""

    model_config = ConfigDict(extra="forbid")

    tokens: list[str] = Field(default_factory=list, max_length=16)


class RematchRequest(BaseModel):
    """``POST /api/tables/{id}/rematch``: the seats the caller holds at the finished table, by their tokens (a
    hot-seat page holds several); seats linked to the caller's player need none."""

    model_config = ConfigDict(extra="forbid")

    tokens: dict[int, str] = Field(default_factory=dict, max_length=8)


def error(code: str, message: str, rule: str | None = None, reason: str | None = None) -> dict[str, Any]:
    """An error frame; an engine ``reason`` with a message id adds ``msgid``/``params`` (the page words it)."""
    assert code in ERROR_CODES, code
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if rule:
        out["rule"] = rule
    said = message_json(reason)
    if said is not None:
        out["msgid"], out["params"] = said["id"], said["params"]
    return out
