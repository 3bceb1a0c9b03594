"""Accounts with passkeys (WebAuthn, py_webauthn; docs/players-design.md step 6, docs/web.md "Accounts").

A guest saves itself as an account by registering a passkey; any browser then signs in to it with that passkey
(a discoverable credential: no user name is typed). Every ceremony is two POSTs: ``…/options`` makes a challenge,
stored in ``dh_challenges`` for 5 minutes, and ``…/verify`` consumes it with ``DELETE … RETURNING`` — one answer on
whichever server process, so a replayed response finds none. Signing in, saving a passkey and signing out rotate
the session (players.py). The guest this browser played as before signing in is merged into the account when it
has games. Sign-in is rate limited per client address and for the whole server (per process), and a credential
that failed 5 times waits; every 429 says when to come back.

Passkeys are bound to a host (the relying party id): ``--public-origin https://HOST`` names it; without it they
work only for pages opened on ``http://localhost`` (browsers refuse IP addresses), and the routes say so (404).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
import math
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import IntegrityError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from dicehall.i18n.message import Message
from dicehall.web.account_store import Credential
from dicehall.web.db import Player
from dicehall.web.limits import KeyedBuckets, TokenBucket, client_key
from dicehall.web.live import name_players
from dicehall.web.manager import TableManager, web_record
from dicehall.web.players import Players, clear_cookie, player_json
from dicehall.web.security import proven_same_origin
from dicehall.web.settings import ServerSettings

router = APIRouter(prefix="/api")
log = logging.getLogger("dicehall.web")

RP_NAME = "dicehall"
CHALLENGE_SECONDS = 300.0
MAX_OUTSTANDING = 5
"""Live challenges one session or one client address may hold at once."""
PER_ADDRESS_PER_MINUTE, PER_ADDRESS_BURST = 10, 20
GLOBAL_PER_MINUTE = 200
FAILURES, FAILURE_WINDOW = 5, 900.0
"""A credential refused this many times waits; the allowance comes back over the window (seconds)."""
MAX_BODY = 16 * 1024
"""A WebAuthn response is a few hundred bytes to a few KiB (attestation none)."""
EXPORT_FORMAT = "dicehall-export/1"


class AuthRefused(Exception):
    """A refused account request: HTTP status, a ``code`` the page words in its reader's language, the English
    ``detail``, and for 429 the seconds to wait."""

    def __init__(self, status: int, code: str, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.retry_after = status, code, detail, retry_after

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"detail": self.detail, "code": self.code}
        headers = {}
        if self.retry_after is not None:
            seconds = max(1, math.ceil(self.retry_after))
            body["retry_after"] = seconds
            headers["Retry-After"] = str(seconds)
        return JSONResponse(body, status_code=self.status, headers=headers)


def _refused(detail: str) -> AuthRefused:
    return AuthRefused(400, "passkey_refused", detail)


NO_SESSION = AuthRefused(
    401, "no_session", "you are not signed in; sign in with a passkey or play a game first"
)
EXPIRED = AuthRefused(
    400, "challenge_expired", "this passkey request expired or was already used; try again from the start"
)


@dataclass(frozen=True)
class Party:
    """The relying party a request talks to: its id (a host) and the origin its pages are served from."""

    rp_id: str
    origin: str


def party(request: Request) -> Party:
    settings: ServerSettings = getattr(request.app.state, "settings", None) or ServerSettings()
    if settings.public_origin:
        assert settings.rp_id is not None  # the settings check made sure it has a host
        return Party(settings.rp_id, settings.origin)
    if request.url.hostname == "localhost":
        return Party("localhost", f"{request.url.scheme}://{request.headers.get('host', 'localhost')}")
    raise AuthRefused(
        404,
        "passkeys_off",
        "passkeys need --public-origin: this server was started without the address people open "
        "(dicehall serve --public-origin https://HOST); without it passkeys work only on http://localhost",
    )


class Guard:
    """Sign-in limits of one server process (several processes: each has its own, docs/web.md)."""

    def __init__(self, salt: bytes) -> None:
        self.salt = salt
        self.per_address = KeyedBuckets(PER_ADDRESS_PER_MINUTE / 60, PER_ADDRESS_BURST, max_keys=20_000)
        self.everyone = TokenBucket(GLOBAL_PER_MINUTE / 60, GLOBAL_PER_MINUTE)
        self.failures = KeyedBuckets(FAILURES / FAILURE_WINDOW, FAILURES, max_keys=20_000)

    def address(self, request: Request) -> str:
        return client_key(request.client.host if request.client else None, self.salt)

    def sign_in_attempt(self, address: str) -> None:
        """Count one sign-in attempt, or raise 429 with the wait (the global bucket is not charged then)."""
        wait = self.per_address.wait(address) or self.everyone.wait()
        if not wait:
            self.per_address.take(address)
            self.everyone.take()
        else:
            raise AuthRefused(
                429, "too_many_sign_ins", "too many sign-in attempts; wait a moment and try again", wait
            )

    def check_credential(self, credential_id: str) -> None:
        wait = self.failures.wait(credential_id)
        if wait:
            raise AuthRefused(
                429,
                "too_many_failures",
                "this passkey was refused too often; wait a few minutes and try again",
                wait,
            )

    def failed(self, credential_id: str) -> None:
        self.failures.take(credential_id)


# -- plumbing ------------------------------------------------------------------------------------------------------
def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _players(request: Request) -> Players:
    from dicehall.web.api import _players as players  # one Players per app, shared with the table routes

    return players(request)


def _guard(request: Request) -> Guard:
    state = request.app.state
    store = _manager(request).store
    made: tuple[object, Guard] | None = getattr(state, "auth_guard", None)
    if made is None or made[0] is not store:
        made = state.auth_guard = (store, Guard(store.secret("creator_salt")))
    return made[1]


def _check_origin(request: Request) -> None:
    settings: ServerSettings = getattr(request.app.state, "settings", None) or ServerSettings()
    if not proven_same_origin(request.scope, settings.origin):
        raise AuthRefused(
            403,
            "bad_origin",
            "a request from another site, or one that does not say where it came from (its Origin)",
        )


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _refused("the passkey's answer is too large")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise _refused("the passkey's answer is not JSON") from None
    if not isinstance(body, dict):
        raise _refused("the passkey's answer is not a JSON object")
    return body


def _b64url(text: Any) -> bytes:
    if not isinstance(text, str) or len(text) > 8192:
        raise _refused("malformed base64url in the passkey's answer")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise _refused("malformed base64url in the passkey's answer") from None


def challenge_id(challenge: bytes) -> str:
    """The challenge's row id: found again from the client data the browser signed, so no extra field travels."""
    return hashlib.sha256(challenge).hexdigest()[:32]


def _signed_challenge(body: dict[str, Any]) -> bytes:
    response = body.get("response")
    if not isinstance(response, dict):
        raise _refused("the passkey's answer has no response")
    try:
        client_data = json.loads(_b64url(response.get("clientDataJSON")))
        return _b64url(client_data["challenge"])
    except (ValueError, KeyError, TypeError):
        raise _refused("the passkey's answer has no readable challenge") from None


def _new_challenge(
    request: Request, purpose: str, session_hash: str | None, address: str, now: float
) -> bytes:
    accounts = _players(request).accounts
    accounts.sweep_challenges(now)
    live = accounts.outstanding(session_hash, address, now)
    if len(live) >= MAX_OUTSTANDING:
        raise AuthRefused(
            429,
            "too_many_challenges",
            "too many passkey requests are open at once; finish one or try again when one has expired",
            live[0] - now,
        )
    challenge = secrets.token_bytes(32)
    accounts.add_challenge(
        challenge_id(challenge), purpose, challenge, session_hash, address, now + CHALLENGE_SECONDS
    )
    return challenge


def _refresh_live_tables(request: Request, table_ids: list[str]) -> None:
    """Seats rewritten in the database (merge, deletion): this process's live copies follow. A table another
    process holds in memory keeps its copy until it reloads it (docs/web.md)."""
    manager = _manager(request)
    for table_id in table_ids:
        live = manager.tables.get(table_id)
        meta = manager.store.get_table(table_id) if live is not None else None
        if live is not None and meta is not None:
            live.meta.seats = meta.seats
            name_players(live.state, live.meta.seats)


async def refused(_request: Request, exc: Exception) -> Response:
    """The app's handler of :class:`AuthRefused` (app.py)."""
    assert isinstance(exc, AuthRefused)
    return exc.response()


# -- saving a passkey -------------------------------------------------------------------------------------------
@router.post("/auth/register/options", response_model=None)
async def register_options(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    rp = party(request)
    players = _players(request)
    player, session_hash = players.ensure_session(request, response)
    now = time.time()
    challenge = _new_challenge(request, "register", session_hash, _guard(request).address(request), now)
    name = player.name or str(Message("seat.player", n=1))
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_id=players.accounts.webauthn_user(player.id),
        user_name=name,
        user_display_name=name,
        challenge=challenge,
        timeout=int(CHALLENGE_SECONDS * 1000),
        attestation=AttestationConveyancePreference.NONE,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=_b64url(c.id))
            for c in players.accounts.credentials_of(player.id)
        ],
    )
    return options_to_json_dict(options)


@router.post("/auth/register/verify", response_model=None)
async def register_verify(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    rp = party(request)
    body = await _json_body(request)
    players = _players(request)
    live = players.session(request)
    if live is None:
        raise NO_SESSION
    player, session_hash = live
    now = time.time()
    taken = players.accounts.take_challenge(challenge_id(_signed_challenge(body)), "register", now)
    if taken is None or taken[1] != session_hash:
        raise EXPIRED
    try:
        verified = verify_registration_response(
            credential=body, expected_challenge=taken[0], expected_rp_id=rp.rp_id, expected_origin=rp.origin
        )
    except (InvalidRegistrationResponse, ValueError, TypeError, KeyError) as exc:
        raise _refused(f"the passkey was not saved: {exc}") from None
    transports = body["response"].get("transports") if isinstance(body.get("response"), dict) else None
    credential = Credential(
        id=base64.urlsafe_b64encode(verified.credential_id).rstrip(b"=").decode(),
        player_id=player.id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[str(t) for t in transports][:8] if isinstance(transports, list) else [],
        backed_up=verified.credential_backed_up,
        created=now,
        last_used=None,
    )
    try:
        players.accounts.add_credential(credential)
    except IntegrityError:
        raise AuthRefused(409, "passkey_known", "this passkey is already saved here") from None
    account = replace(player, kind="account")
    players.forget(player.id)
    players.rotate(request, response, account)
    return {"player": player_json(account), "passkey": credential.to_json()}


# -- signing in and out -----------------------------------------------------------------------------------------
@router.post("/auth/login/options", response_model=None)
async def login_options(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    rp = party(request)
    guard = _guard(request)
    address = guard.address(request)
    guard.sign_in_attempt(address)
    live = _players(request).session(request)
    challenge = _new_challenge(request, "login", live[1] if live else None, address, time.time())
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        challenge=challenge,
        timeout=int(CHALLENGE_SECONDS * 1000),
        allow_credentials=[],
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return options_to_json_dict(options)


@router.post("/auth/login/verify", response_model=None)
async def login_verify(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    rp = party(request)
    body = await _json_body(request)
    guard = _guard(request)
    credential_id = body.get("id")
    if not isinstance(credential_id, str) or not 0 < len(credential_id) <= 512:
        raise _refused("the passkey's answer names no credential")
    guard.check_credential(credential_id)
    players = _players(request)
    now = time.time()
    try:
        signed = _signed_challenge(body)
    except AuthRefused:
        guard.failed(credential_id)
        raise
    taken = players.accounts.take_challenge(challenge_id(signed), "login", now)
    stored = players.accounts.credential(credential_id)
    if taken is None or stored is None:
        guard.failed(credential_id)
        raise (
            EXPIRED
            if taken is None
            else AuthRefused(
                400,
                "passkey_unknown",
                "this passkey is not saved here (removed, or its account was deleted); sign in with another",
            )
        )
    account = players.accounts.player(stored.player_id)
    handle = body["response"].get("userHandle") if isinstance(body.get("response"), dict) else None
    if account is None or (handle and _b64url(handle) != players.accounts.webauthn_user(stored.player_id)):
        guard.failed(credential_id)
        raise _refused("the passkey belongs to another account")
    try:
        verified = verify_authentication_response(
            credential=body,
            expected_challenge=taken[0],
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origin,
            credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count,
        )
    except (InvalidAuthenticationResponse, ValueError, TypeError, KeyError) as exc:
        guard.failed(credential_id)
        raise _refused(f"the passkey's signature was refused: {exc}") from None
    if not players.accounts.use_credential(credential_id, stored.sign_count, verified.new_sign_count, now):
        guard.failed(credential_id)
        raise _refused("the passkey was used by another sign-in at the same moment")
    merged = _merge_guest(request, account)
    players.rotate(request, response, account)
    return {"player": player_json(account), "merged": merged}


def _merge_guest(request: Request, account: Player) -> bool:
    """This browser's guest (if it has games) becomes part of the account: its seats and tables move over."""
    players = _players(request)
    guest, _stale = players.current(request)
    if guest is None or guest.id == account.id or guest.kind != "guest":
        return False
    if not players.accounts.has_games(guest.id):
        return False
    _refresh_live_tables(request, players.accounts.merge(guest.id, account.id))
    players.forget(guest.id)
    return True


@router.post("/auth/logout", response_model=None)
async def logout(request: Request, response: Response) -> dict[str, Any]:
    _check_origin(request)
    _players(request).end(request)
    clear_cookie(request, response)
    return {"player": None}


# -- the account's passkeys, export and deletion ----------------------------------------------------------------
def _me(request: Request) -> Player:
    player, _stale = _players(request).current(request)
    if player is None:
        raise NO_SESSION
    return player


@router.get("/me/passkeys", response_model=None)
async def my_passkeys(request: Request) -> dict[str, Any]:
    player = _me(request)
    return {"passkeys": [c.to_json() for c in _players(request).accounts.credentials_of(player.id)]}


@router.delete("/me/passkeys/{credential_id}", response_model=None)
async def remove_passkey(credential_id: str, request: Request) -> dict[str, Any]:
    _check_origin(request)
    player = _me(request)
    outcome = _players(request).accounts.remove_credential(player.id, credential_id)
    if outcome == "unknown":
        raise AuthRefused(404, "no_such_passkey", "this account has no such passkey; reload the list")
    if outcome == "last":
        raise AuthRefused(
            409,
            "last_passkey",
            "this is the account's only passkey: save another one first, or delete the account",
        )
    return {"removed": credential_id}


@router.get("/me/export", response_model=None)
async def export_games(request: Request) -> Response:
    """Every game of the player's as one ``dicehall-export/1`` JSON file of records, read and built in a worker
    thread on a connection of its own (a player with thousands of games does not hold up the tables)."""

    player = _me(request)
    store = _manager(request).store
    data = await asyncio.to_thread(build_export, store, player)
    stamp = time.strftime("%Y%m%d", time.gmtime())
    return Response(
        json.dumps(data, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="dicehall-{stamp}.json"'},
    )


def build_export(store: Any, player: Player) -> dict[str, Any]:
    from dicehall.web.account_store import export_tables

    games = []
    for meta, events, seats in export_tables(store, player.id):
        games.append({"seats": seats, "status": meta.status, "record": web_record(meta, events).to_json()})
    return {
        "format": EXPORT_FORMAT,
        "player": player_json(player),
        "exported": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
        "games": games,
    }


@router.delete("/me", response_model=None)
async def delete_me(request: Request, response: Response) -> dict[str, Any]:
    """Delete the account (or guest): open games resigned, passkeys and sessions dropped, the name gone; the
    games stay, its seats named "deleted player"."""

    _check_origin(request)
    player = _me(request)
    players = _players(request)
    resigned = _resign_open_games(request, player)
    changed = players.accounts.delete_account(player.id, time.time())
    _refresh_live_tables(request, changed)
    players.forget(player.id)
    clear_cookie(request, response)
    return {"player": None, "resigned": resigned}


def _resign_open_games(request: Request, player: Player) -> int:
    """Resign the player's seats in games still in play, where the table manager can resign (step 3).

    TODO(issue 23, step 3): ``TableManager.resign(table, seat)`` is being written; until it is on main, open games
    are left as they are (they end as abandoned after ``abandon_after_days``), their seats named "deleted player"."""
    manager = _manager(request)
    resign = getattr(manager, "resign", None)
    if resign is None:
        return 0
    count = 0
    for table_id, seat in _players(request).accounts.open_seats(player.id):
        try:
            resign(manager.get(table_id), seat)
            count += 1
        except Exception as exc:  # a table another process owns, or a seat already out: the deletion goes on
            log.warning("account deletion: table %s not resigned: %s", table_id, exc)
    return count
