"""REST routes: games and their rules, creating/listing/joining tables, records, health."""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from dicehall.core.agents import bots_for
from dicehall.core.analysis import has_hints
from dicehall.core.errors import DicehallError, RuleConfigError
from dicehall.core.game import Game, game_names, get_game
from dicehall.core.names import check_name
from dicehall.core.rules import RuleSet
from dicehall.web.botinfo import ranked_bots
from dicehall.web.db import Player
from dicehall.web.forward import HEADER as FORWARDED
from dicehall.web.forward import forward_request
from dicehall.web.lifecycle import DAY
from dicehall.web.limits import CreationLimits, LimitExceeded, Quota
from dicehall.web.owners import Elsewhere
from dicehall.web.players import Players, clear_cookie, player_json, players_of
from dicehall.web.protocol import CreateTable, DeleteTable, JoinSeat, RematchRequest, ResignSeat
from dicehall.web.settings import ServerSettings
from dicehall.web.tables import TableError, TableManager, public_seats
from dicehall.web.yourgames import my_games_page, table_item

router = APIRouter(prefix="/api")
# Every route is ``async``: it runs on the event loop, like the websocket handlers, so the table manager and its
# database connection are only ever used from one thread.

_HTTP_STATUS = {
    "no_such_table": 404,
    "seat_taken": 409,
    "others_joined": 409,
    "not_creator": 403,
    "not_your_seat": 403,
    "not_finished": 409,
    "rated_one_seat": 409,
}


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _players(request: Request) -> Players:
    return players_of(request, _manager(request).store)


def _http_error(exc: DicehallError) -> HTTPException:
    code = exc.code if isinstance(exc, TableError) else "bad_request"
    return HTTPException(status_code=_HTTP_STATUS.get(code, 400), detail=str(exc))


def _refusal(exc: DicehallError) -> JSONResponse:
    """A refused request as ``{"detail"}`` (the English text) plus, when the reason is a message, its ``msgid`` and
    ``params`` (and a refused rule set's ``option``), so that a page words it in its reader's language."""
    error = _http_error(exc)
    body: dict[str, Any] = {"detail": error.detail}
    if isinstance(exc, TableError):
        body["code"] = exc.code
    if isinstance(exc, RuleConfigError):
        body.update(_problem(exc))
    else:
        said = exc.message_json()
        if said is not None:
            body["msgid"], body["params"] = said["id"], said["params"]
    return JSONResponse(body, status_code=error.status_code)


def _package_version() -> str:
    try:
        return version("dicehall")
    except PackageNotFoundError:
        return "unknown"


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    try:
        _manager(request).store.ping()
        db = "ok"
    except Exception as exc:  # report, do not crash: health is what monitors call when things go wrong
        db = f"error: {type(exc).__name__}"
    body = {"status": "ok" if db == "ok" else "degraded", "db": db, "version": _package_version()}
    return JSONResponse(body, status_code=200 if db == "ok" else 503)


def _type_name(rules_type: type[RuleSet], key: str) -> str:
    hint = typing.get_type_hints(rules_type)[key]
    if hint in (bool, int, float, str):
        return str(hint.__name__)
    origin = typing.get_origin(hint)
    return "list" if origin in (tuple, list) else "any"


def _options(rules: RuleSet) -> list[dict[str, Any]]:
    fields = {f.name: f for f in dataclasses.fields(rules)}
    out = []
    for key, value, doc in rules.describe():
        rt = type(rules)
        item: dict[str, Any] = {"key": key, "value": value, "doc": doc, "type": _type_name(rt, key)}
        choices = fields[key].metadata.get("choices")
        if choices:
            item["choices"] = list(choices)
        bounds = rt.range_of(key)
        if item["type"] in ("int", "float", "list"):
            # min/max bound the number (for a list: every number in it); null = unbounded
            item["min"] = bounds.get("min")
            item["max"] = bounds.get("max")
            item.update({k: bounds[k] for k in ("step", "max_items") if k in bounds})
            item["allowed"] = rt.allowed(key)
        out.append(item)
    return out


def _live_presets(game: Game[Any]) -> list[str]:
    """The presets that make different tables here: one that differs from an earlier one only in what a live
    table fixes (Wurf's physics presets: every live throw is simulated) is left out."""
    rt = game.rules_type
    seen: set[str] = set()
    out = []
    for name in rt.PRESETS:
        rules = rt.from_preset(name, game.live_overrides).to_dict()
        rules.pop("preset", None)
        key = json.dumps(rules, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(name)
    return out


def _game_info(game: Game[Any]) -> dict[str, Any]:
    rt = game.rules_type
    return {
        "name": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "presets": list(rt.PRESETS),
        "live_presets": _live_presets(game),  # the presets a new table here offers
        "live_overrides": game.live_overrides,  # options a live table fixes: not offered
        "default_preset": rt.DEFAULT_PRESET,
        "options": _options(rt.from_preset(None)),
        "bots": ranked_bots(game.name, bots_for(game.name)),  # weakest first, with measured strength
        "hints": has_hints(game.name),  # whether players may be offered hints at its tables
    }


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    """Every game this installation can host (games whose engine is not installed yet are left out)."""
    out = []
    for name in game_names():
        try:
            out.append(_game_info(get_game(name)))
        except ImportError:
            continue
    return out


@router.get("/games/{game}/rules", response_model=None)
async def game_rules(game: str, preset: str | None = None) -> list[dict[str, Any]] | JSONResponse:
    try:
        return _options(get_game(game).rules_type.from_preset(preset))
    except ImportError:
        raise HTTPException(404, f"game {game!r} is not installed") from None
    except DicehallError as exc:
        return _refusal(exc)


class RulesCheck(BaseModel):
    """Body of ``POST /api/rules/check``: a rule set as the lobby form would create it."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=32)
    preset: str | None = Field(default=None, max_length=64)
    overrides: dict[str, Any] = Field(default_factory=dict, max_length=64)


def _problem(exc: RuleConfigError) -> dict[str, Any]:
    """A rule-set problem for a form: the option, the English text, and its message id + parameters if any."""
    out: dict[str, Any] = {"option": exc.option, "message": str(exc)}
    said = exc.message_json()
    if said is not None:
        out["msgid"], out["params"] = said["id"], said["params"]
    return out


@router.post("/rules/check")
async def check_rules(body: RulesCheck) -> dict[str, Any]:
    """Validate a rule set without creating anything: ``{"ok": true, "rules": {...}}`` or every problem found.

    Problems with the body's shape are 422; an unknown or uninstalled game is 400/404 like the other routes; any
    problem with the rules themselves is a 200 answer with ``ok: false`` so a form can show it as you type.
    """
    try:
        rules_type = get_game(body.game).rules_type
    except ImportError:
        raise HTTPException(404, f"game {body.game!r} is not installed") from None
    except DicehallError as exc:
        raise _http_error(exc) from None
    rules, errors = rules_type.check(body.preset, body.overrides)
    if rules is None:
        return {"ok": False, "errors": [_problem(e) for e in errors]}
    return {"ok": True, "rules": rules.to_dict()}


def _creation_limits(request: Request) -> CreationLimits:
    """The app's creation limits, made on first use from its settings and its database's salt."""
    state = request.app.state
    manager = _manager(request)
    store = manager.store
    made: tuple[object, CreationLimits] | None = getattr(state, "creation_limits", None)
    if made is None or made[0] is not store:  # one per store (an app started again gets a new one)
        settings: ServerSettings = getattr(state, "settings", None) or ServerSettings()
        limits = CreationLimits(
            Quota(settings.tables_per_hour, settings.unfinished_per_client),
            Quota(settings.tables_per_hour_per_address, settings.unfinished_per_address),
            store.secret("creator_salt"),
            store.unfinished_summary,
            settings.abandon_after_days * DAY,
            manager.lifecycle.sweep_period(),
            wall_clock=manager.clock,
            correspondence=settings.correspondence_per_client,
        )
        made = state.creation_limits = (store, limits)
    return made[1]


UNFINISHED_LISTED = 20
"""Unfinished tables a quota refusal lists (the least recently active first)."""


def _too_many(exc: LimitExceeded, request: Request, player: Player | None = None) -> JSONResponse:
    """A 429 with an honest ``Retry-After``, the refusal as words and as a message id, and, when a player's own
    unfinished tables are what is full, those tables (so that the page can offer to resign the oldest)."""
    seconds = max(1, math.ceil(exc.retry_after))
    _manager(request).metrics.rate_limited(exc.code)
    body: dict[str, Any] = {
        "detail": str(exc),
        "code": exc.code,
        "retry_after": seconds,
        "msgid": exc.msgid,
        "params": exc.params,
        "scope": exc.scope,
    }
    if exc.code == "too_many_unfinished" and exc.scope == "player" and player is not None:
        manager = _manager(request)
        listed = manager.store.unfinished_by_activity(player_id=player.id, limit=UNFINISHED_LISTED)
        body["unfinished"] = [
            {
                "table_id": meta.id,
                "game": meta.game,
                "created": meta.created,
                "last_activity": last,
                "seats": public_seats(meta.seats),
                "my_seats": [i for i, s in enumerate(meta.seats) if s.get("player") == player.id],
            }
            for meta, last in listed
        ]
    return JSONResponse(body, status_code=429, headers={"Retry-After": str(seconds)})


@router.post("/tables", status_code=201, response_model=None)
async def create_table(body: CreateTable, request: Request, response: Response) -> dict[str, Any] | Response:
    limits = _creation_limits(request)
    creator = limits.key(request.client.host if request.client else None)
    # The quota counts per player: a client that has none yet is counted by its address only (and gets its
    # player, with the cookie, only when the table is made: a refused request makes no player).
    known, _stale = _players(request).current(request)
    known_id = known.id if known is not None else None
    try:
        limits.check(creator, known_id, correspondence=body.move_days is not None)
    except LimitExceeded as exc:
        return _too_many(exc, request, known)
    player = _players(request).ensure(request, response)  # the creator: its seat ("me") and its quota
    if known_id is None:
        limits.count_for_new_player(player.id)
    try:
        table, tokens = _manager(request).create(body, creator=creator, player=player)
    except ImportError:
        limits.refund(creator, player.id)
        raise HTTPException(400, f"game {body.game!r} is not installed") from None
    except DicehallError as exc:
        limits.refund(creator, player.id)
        return _with_cookie(_refusal(exc), response)
    seats = public_seats(table.seats)
    for s in seats:
        if s["seat"] in tokens:
            token = tokens[s["seat"]]
            s["token"] = token
            s["invite"] = f"/table/{table.id}#seat={s['seat']}&token={token}"
        elif s["kind"] == "human":
            s["invite"] = f"/table/{table.id}#join={s['seat']}"
    info = table.describe()
    return {
        "table_id": table.id,
        "status": table.status,
        "seats": seats,
        "rated": info["rated"],
        "unrated": info["unrated"],
        "dice_commit": table.meta.dice_commit,
    }


@router.get("/tables")
async def list_tables(
    request: Request,
    status: str = Query("open", pattern="^(open|waiting|playing|finished|abandoned|all)$"),
    limit: int = Query(100, ge=1, le=500),
    before: float | None = Query(None, ge=0, le=1e11),
    game: list[str] | None = Query(None, max_length=8),
    joinable: bool = False,
) -> list[dict[str, Any]]:
    """Tables, newest first; ``open`` = waiting for players or in play. Pages: pass the last table's ``created``
    as ``before`` for the next (an index walk, never an offset count); ``game`` (repeatable) keeps those games.
    ``joinable=true``: only tables with a free seat, and none the caller created or sits at (its own are in
    ``/api/me/games``)."""
    wanted = {"open": ["waiting", "playing"], "all": None}.get(status, [status])
    not_of = None
    if joinable:
        wanted = [s for s in (wanted or ["waiting"]) if s == "waiting"]
        player, _stale = _players(request).current(request)
        not_of = player.id if player is not None else None
    manager = _manager(request)
    metas = manager.store.list_tables(wanted, limit, before, game, not_of=not_of)
    manager.store.show_player_names(metas)
    return [table_item(manager, meta) for meta in metas]


def _with_cookie(answer: Response, response: Response) -> Response:
    """``answer`` with the session cookie that ``response`` (FastAPI's, dropped when a route returns its own) set."""
    for key, value in response.raw_headers:
        if key == b"set-cookie":
            answer.raw_headers.append((key, value))
    return answer


@router.post("/tables/{table_id}/join", response_model=None)
async def join_table(
    table_id: str, body: JoinSeat, request: Request, response: Response
) -> dict[str, Any] | Response:
    players = _players(request)
    player = players.ensure(request, response)  # the joiner's seat is linked to it
    try:
        token = _manager(request).claim(table_id, body.seat, body.name, player)
    except Elsewhere as moved:  # another server process owns the table (forward.py)
        who = players.forward_header(player)
        forwarded = await forward_request(request, moved.url, body.model_dump(mode="json"), who)
        return _with_cookie(forwarded, response)
    except DicehallError as exc:
        return _with_cookie(_refusal(exc), response)  # a refused name says its rule as a message
    return {
        "table_id": table_id,
        "seat": body.seat,
        "token": token,
        "invite": f"/table/{table_id}#seat={body.seat}&token={token}",
    }


@router.post("/tables/{table_id}/resign", response_model=None)
async def resign_seat(table_id: str, body: ResignSeat, request: Request) -> dict[str, Any] | Response:
    """The seat held by ``token``, or linked to the request's player, gives the game up (as the websocket's
    ``resign``); forwarded to the owner."""
    manager = _manager(request)
    players = _players(request)
    player, _stale = players.current(request)
    try:
        table = manager.get(table_id)
        held = manager.seats_for_tokens(table, [body.token]) if body.token else []
        held = sorted({*held, *manager.seats_of_player(table, player)})
        manager.resign(table, held, body.seat)
    except Elsewhere as moved:
        who = players.forward_header(player)
        return await forward_request(request, moved.url, body.model_dump(mode="json"), who)
    except DicehallError as exc:
        return _refusal(exc)
    manager.evict_if_idle(table)
    return {"table_id": table_id, "seat": body.seat, "status": table.status}


@router.delete("/tables/{table_id}", response_model=None)
async def delete_table(table_id: str, body: DeleteTable, request: Request) -> dict[str, Any] | Response:
    """Delete a table its creator alone plays at (not over, every claimed seat held by ``tokens``). The creator
    is checked where the request arrives (a forwarded request was checked by the process that forwarded it)."""
    manager = _manager(request)
    meta = manager.store.get_table(table_id)
    if meta is None:
        return _refusal(TableError("no_such_table", f"there is no table {table_id!r}"))
    if meta.status not in ("waiting", "playing"):  # (a finished table has no creator key any more)
        return _refusal(
            TableError("game_over", "a finished table stays for its record; it cannot be deleted")
        )
    if not request.headers.get(FORWARDED):
        key = _creation_limits(request).key(request.client.host if request.client else None)
        if meta.creator != key:
            return _refusal(TableError("not_creator", "only the table's creator can delete it"))
    try:
        manager.delete(table_id, body.tokens)
    except Elsewhere as moved:
        return await forward_request(request, moved.url, body.model_dump(mode="json"))
    except DicehallError as exc:
        return _refusal(exc)
    return {"table_id": table_id, "status": "deleted"}


@router.post("/tables/{table_id}/rematch", response_model=None)
async def rematch(
    table_id: str, body: RematchRequest, request: Request, response: Response
) -> dict[str, Any] | Response:
    """Offer a rematch of a finished table, or accept the offer made: ``{table_id, tokens: {seat: token},
    ready}``. A new offer is a new table: it counts against the caller's table quotas."""
    manager = _manager(request)
    player: Player | None = _players(request).ensure(request, response)
    player_id = player.id if player is not None else None
    limits = _creation_limits(request)
    creator = limits.key(request.client.host if request.client else None)
    try:
        offered = manager.store.rematch_of(table_id) is not None
        if not offered:
            old = manager.store.get_table(table_id)
            limits.check(creator, player_id, correspondence=old is not None and old.move_seconds is not None)
        answer = manager.rematches.offer_or_accept(table_id, body.tokens, player_id, creator)
    except LimitExceeded as exc:
        return _too_many(exc, request, player)
    except Elsewhere as moved:  # another server process owns the table (forward.py)
        return await forward_request(request, moved.url, body.model_dump(mode="json"))
    except DicehallError as exc:
        if not offered:
            limits.refund(creator, player_id)
        return _refusal(exc)
    return {"table_id": answer.table_id, "tokens": answer.tokens, "ready": answer.ready}


@router.get("/tables/{table_id}", response_model=None)
async def get_table(table_id: str, request: Request) -> dict[str, Any] | Response:
    manager = _manager(request)
    try:
        table = manager.get(table_id)
    except Elsewhere as moved:
        return await forward_request(request, moved.url)
    except DicehallError as exc:
        raise _http_error(exc) from None
    description = table.describe()
    if table.status == "finished":
        description["rematch"] = manager.rematches.describe(table_id)
    manager.evict_if_idle(table)
    return description


@router.get("/tables/{table_id}/record")
async def get_record(table_id: str, request: Request) -> JSONResponse:
    try:
        record = _manager(request).record(table_id)
    except DicehallError as exc:
        raise _http_error(exc) from None
    return JSONResponse(
        record.to_json(),
        headers={"Content-Disposition": f'attachment; filename="{record.game}-{table_id}.json"'},
    )


# -- the player behind the request (players.py) ------------------------------------------------------------------
class NameBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)  # core/names.py says what a name may be; this only bounds the work


@router.get("/me")
async def me(request: Request, response: Response) -> dict[str, Any]:
    """``{"player": {"id", "name", "kind"}}``, or ``{"player": null}`` without a session (a GET makes none); a
    cookie naming no live session is cleared."""
    player, stale = _players(request).current(request)
    if stale:
        clear_cookie(request, response)
    return {"player": player_json(player)}


@router.put("/me/name", response_model=None)
async def set_my_name(body: NameBody, request: Request, response: Response) -> dict[str, Any] | JSONResponse:
    """Name the request's player (a new guest when it has none); a refused name is 400 with the rule's message."""
    players = _players(request)
    try:
        check_name(body.name)
    except DicehallError as exc:
        return _refusal(exc)
    player = players.rename(request, players.ensure(request, response), body.name)
    _manager(request).player_renamed(player)
    return {"player": player_json(player)}


@router.post("/me")
async def make_me(request: Request, response: Response) -> dict[str, Any]:
    """The request's player, made (a new guest with its cookie) when it has none: a page opening an invite link
    calls it so that the seat it takes can be linked to it."""
    return {"player": player_json(_players(request).ensure(request, response))}


@router.get("/me/games")
async def my_games(
    request: Request,
    response: Response,
    limit: int = Query(20, ge=1, le=100),
    before: float | None = Query(None, ge=0, le=1e11),
    before_id: str | None = Query(None, max_length=32),
) -> dict[str, Any]:
    """ "Your games" (yourgames.py): ``your_turn``, ``waiting`` (first page only) and ``finished`` (a keyset page
    after ``before``/``before_id``), with ``next``, the cursor of the page after, or null."""
    player, stale = _players(request).current(request)
    if stale:
        clear_cookie(request, response)
    return my_games_page(_manager(request), player, limit, before, before_id)


@router.get("/me/summary")
async def my_summary(request: Request) -> dict[str, int]:
    """``{"your_turn": N}``: tables where one of the player's seats is to move (polled by every page)."""
    player, _stale = _players(request).current(request)
    return {"your_turn": 0 if player is None else _manager(request).store.your_turn_count(player.id)}
