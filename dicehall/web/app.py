"""The FastAPI application factory: REST under /api, the websocket at /ws, the built front end everywhere else."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, Response

from dicehall.web import (
    analysis_api,
    api,
    auth,
    fairdice_api,
    health,
    profile_api,
    push_api,
    puzzles_api,
    ratings_api,
    strategy_api,
)
from dicehall.web.analyst import Analyst, analyst_from_env
from dicehall.web.assets import HashedAssets
from dicehall.web.bots import bot_delay_from_env
from dicehall.web.db import Store, default_db_url
from dicehall.web.manager import TableManager
from dicehall.web.owners import Owners
from dicehall.web.push import Pusher
from dicehall.web.security import OriginCheck, SecurityHeaders, install_log_redaction
from dicehall.web.settings import ServerSettings
from dicehall.web.warmup import Warmer, warm_up_from_env
from dicehall.web.ws import websocket_endpoint

log = logging.getLogger("dicehall.web")

STATIC_DIR = Path(__file__).parent / "static"

NOT_BUILT = """<!doctype html><html><head><meta charset="utf-8"><title>dicehall</title></head>
<body>
<h1>dicehall</h1><p>The front end is not built; run <code>make</code> (or <code>make run</code>) in the project
directory. The server itself works: see <a href="/api/health">/api/health</a> and <a href="/docs">/docs</a>.</p>
</body></html>"""


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    sqlite_sync: str = "NORMAL",
    static_dir: Path | None = None,
    settings: ServerSettings | None = None,
    bot_setup: Sequence[str] = (),
    node_url: str | None = None,
    warm_up: bool | None = None,
    analyst: bool | None = None,
) -> FastAPI:
    """The server. ``db_url`` defaults to a SQLite file in the user's data directory; ``bot_delay`` (which
    overrides ``settings.bot_delay``) to ``$DICEHALL_BOT_DELAY`` or the settings' value. ``bot_setup``:
    ``module:function`` hooks every bot worker process calls at start (the tests register a test game).
    ``node_url``: this process's address as the other server processes reach it; several processes then share
    one PostgreSQL database, each table owned by one of them at a time (owners.py, docs/scaling.md). ``warm_up``
    (default: ``$DICEHALL_WARM_UP``, on unless 0): make hints' and analyses' evaluators and finished games' analyses
    in the background before they are asked for (warmup.py). ``analyst`` (default: ``$DICEHALL_ANALYST``, on unless
    0): analyse finished games of linked seats in the background and store the figures profiles show (analyst.py)."""
    if node_url is not None:
        check_node_url(node_url, db_url or "")
    url = db_url or default_db_url()
    base = settings or ServerSettings()
    if bot_delay is None and settings is None:
        bot_delay = bot_delay_from_env()
    settings = base.with_values({"bot_delay": bot_delay})
    static = STATIC_DIR if static_dir is None else static_dir

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(url, sqlite_sync)
        owners = None
        if node_url is not None:
            owners = Owners(lambda: store._conn, node_url, settings.lease_seconds)
        manager = TableManager(store, settings, bot_setup=tuple(bot_setup), owners=owners)
        pusher = Pusher(store, settings.push_hosts, settings.push_claim)
        await pusher.start()
        manager.pusher = pusher
        resumed = manager.load_unfinished()
        manager.resume_bots()
        manager.lifecycle.start()
        manager.start_shared()
        warmer = Warmer(manager) if (warm_up_from_env() if warm_up is None else warm_up) else None
        if warmer is not None:
            warmer.start()  # in its own thread: start-up does not wait
        on = analyst_from_env() if analyst is None else analyst
        analyst_ = Analyst(url) if on else None
        if analyst_ is not None:
            analyst_.start(manager)  # a thread; the analyses in a worker process
        log.info(
            "dicehall server: database %s, %d bot tables resumed%s",
            url,
            resumed,
            f", serving as {node_url} beside other processes" if node_url else "",
        )
        app.state.manager = manager
        app.state.settings = settings
        app.state.warmer = warmer
        app.state.analyst = analyst_
        app.state.pusher = pusher
        freeze_start_up_heap()
        try:
            yield
        finally:
            if analyst_ is not None:
                await analyst_.stop()
            if warmer is not None:
                warmer.stop()
            await manager.close()
            await pusher.close()
            store.close()

    app = FastAPI(title="dicehall", lifespan=lifespan)
    app.include_router(api.router)
    app.include_router(health.router)  # /healthz, /readyz, /metrics
    app.include_router(analysis_api.router)
    app.include_router(fairdice_api.router)  # GET .../verify: the dice checked from the record
    app.include_router(profile_api.router)
    app.include_router(ratings_api.router)
    app.include_router(puzzles_api.router)  # Dice 1000 puzzles and their ratings
    app.include_router(strategy_api.router)  # Dice 1000's solved strategy as maps
    app.include_router(auth.router)  # accounts with passkeys
    app.include_router(push_api.router)  # Web Push subscriptions
    app.add_exception_handler(auth.AuthRefused, auth.refused)
    app.add_middleware(OriginCheck)  # security.py: no state-changing request from another site's page
    app.add_middleware(SecurityHeaders)  # security.py: CSP, no framing, no sniffing, no referrer
    install_log_redaction()

    @app.websocket("/ws")
    async def ws_route(websocket: WebSocket) -> None:
        await websocket_endpoint(websocket, websocket.app.state.manager)

    index = static / "index.html"
    if index.is_file():
        assets = static / "assets"
        if assets.is_dir():
            app.mount("/assets", HashedAssets(directory=assets), name="assets")  # compressed, kept a year

        @app.get("/", include_in_schema=False)
        @app.get("/table/{rest:path}", include_in_schema=False)
        @app.get("/player/{rest:path}", include_in_schema=False)
        @app.get("/leaderboard/{rest:path}", include_in_schema=False)
        @app.get("/puzzles/{rest:path}", include_in_schema=False)
        @app.get("/strategy/{rest:path}", include_in_schema=False)
        def spa(rest: str = "") -> Response:
            return FileResponse(index, headers={"Cache-Control": "no-cache"})

        @app.get("/{name}", include_in_schema=False)
        def top_level_file(name: str) -> Response:
            path = static / name
            if name and path.is_file() and path.resolve().parent == static.resolve():
                return FileResponse(path, headers={"Cache-Control": "no-cache"})  # not named by a hash
            return FileResponse(index, headers={"Cache-Control": "no-cache"})

    else:

        @app.get("/", include_in_schema=False)
        @app.get("/table/{rest:path}", include_in_schema=False)
        @app.get("/player/{rest:path}", include_in_schema=False)
        @app.get("/leaderboard/{rest:path}", include_in_schema=False)
        @app.get("/puzzles/{rest:path}", include_in_schema=False)
        @app.get("/strategy/{rest:path}", include_in_schema=False)
        def not_built(rest: str = "") -> HTMLResponse:
            return HTMLResponse(NOT_BUILT)

    return app


def freeze_start_up_heap() -> None:
    """What start-up made (modules, the rules' tables, the tables loaded) lives as long as the server: moved out of
    the garbage collector's reach, a full collection visits only what requests made since. Its pauses (about
    80 ms on a loaded machine) were the tail of "Your games" and of a finish's rating update."""
    gc.collect()
    gc.freeze()


def check_node_url(node_url: str, db_url: str) -> None:
    """``--node-url`` needs PostgreSQL (leases, row locks, NOTIFY) and an http(s) address."""
    if not db_url.startswith("postgresql"):
        raise ValueError(
            "--node-url (several server processes on one database) needs PostgreSQL: "
            "--db postgresql+psycopg://USER@HOST/DB"
        )
    if not node_url.startswith(("http://", "https://")) or "/" in node_url.split("://", 1)[1].rstrip("/"):
        raise ValueError(f"--node-url must be an address like http://10.0.0.5:8000, not {node_url!r}")


async def begin_shutdown(app: FastAPI, grace: float) -> None:
    """SIGTERM (called by the server before uvicorn's own shutdown): no new bot moves, every websocket closed
    with 1012 "server restarting" after what was already committed and queued for it; waits up to 40 % of the
    grace period for the closes to go out (uvicorn then waits 30 % more for connections still open). A move being committed finishes first (commits run on this loop)."""
    manager: TableManager | None = getattr(app.state, "manager", None)
    if manager is None:
        return
    manager.begin_shutdown()
    loop = asyncio.get_running_loop()
    end = loop.time() + grace * 0.4
    while manager.connections and loop.time() < end:
        await asyncio.sleep(0.02)
