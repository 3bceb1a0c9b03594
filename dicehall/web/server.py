"""Running the server with uvicorn (used by ``dicehall serve`` and ``python -m dicehall.web``)."""

from __future__ import annotations

import argparse
import logging
import os
import socket
from typing import Any

from dicehall.i18n import Message, tr
from dicehall.web import logs
from dicehall.web.db import SQLITE_SYNC_MODES
from dicehall.web.logs import LOG_FORMATS

SERVE_ENV = frozenset(
    "DICEHALL_" + name
    for name in (
        "HOST",
        "PORT",
        "DB",
        "DB_WAIT",
        "BOT_DELAY",
        "SQLITE_SYNC",
        "SETTINGS",
        "TRUSTED_PROXY",
        "NODE_URL",
        "PUBLIC_ORIGIN",
        "LOG_FORMAT",
        "ACCESS_LOG",
    )
)
"""``dicehall serve``'s options as environment variables (Typer reads them; a flag wins)."""

MAX_DB_WAIT = 3600.0
"""The longest ``--db-wait``: an hour (a database that is not up by then will not be)."""
DB_WAIT_HELP = (
    "seconds to keep trying a database that does not answer yet before giving up (a database container "
    "still starting); default 0: fail at once"
)

WS_MAX_FRAME = 64 * 1024
"""The transport drops frames above this; frames between 4 KiB and this get a ``too_large`` error."""

TRUSTED_PROXY_HELP = (
    "address(es) of a reverse proxy whose X-Forwarded-For names the client (comma-separated, '*' for any); "
    "without it the client address used by the limits is the socket peer"
)


PUBLIC_ORIGIN_HELP = (
    "the address people open, https://HOST[:PORT]: passkeys (accounts) are bound to its host; without it they "
    "work only on http://localhost (docs/web.md)"
)


NODE_URL_HELP = (
    "this process's address as the other server processes reach it (http://HOST:PORT): serve one PostgreSQL "
    "database together with them, each table owned by one process at a time (docs/scaling.md)"
)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_delay: float | None = None,
    sqlite_sync: str = "NORMAL",
    access_log: bool = False,
    log_level: str = "info",
    settings_file: str | None = None,
    trusted_proxy: str | None = None,
    node_url: str | None = None,
    public_origin: str | None = None,
    log_format: str = "text",
    db_wait: float = 0.0,
) -> None:
    import uvicorn

    from dicehall.web.app import create_app
    from dicehall.web.db import check_database, default_db_url
    from dicehall.web.settings import ServerSettings
    from dicehall.web.transport import DicehallWebSocketProtocol

    if sqlite_sync.upper() not in SQLITE_SYNC_MODES:
        raise ValueError(
            Message("serve.sqlite_sync", modes=", ".join(SQLITE_SYNC_MODES), got=repr(sqlite_sync))
        )
    if bot_delay is not None and bot_delay < 0:
        raise ValueError(Message("serve.bot_delay_negative"))
    if log_format not in LOG_FORMATS:
        raise ValueError(Message("serve.log_format", formats=", ".join(LOG_FORMATS), got=repr(log_format)))
    logs.configure(log_format, getattr(logging, log_level.upper(), logging.INFO))
    logging.getLogger("alembic").setLevel(logging.WARNING)  # a line per migration plugin is noise at start-up
    db = db or default_db_url()
    if node_url is not None:
        from dicehall.web.app import check_node_url

        check_node_url(node_url, db)
    if not 0 <= db_wait <= MAX_DB_WAIT:  # NaN too
        raise ValueError(Message("serve.db_wait", max=f"{MAX_DB_WAIT:g}", got=repr(db_wait)))
    check_database(db, db_wait)
    # the default, then the file, then DICEHALL_<KEY> variables, then the flags (which Typer also reads from
    # DICEHALL_<OPTION>)
    settings = ServerSettings.from_toml(settings_file) if settings_file else ServerSettings()
    settings = settings.with_env(os.environ, also=SERVE_ENV)
    if public_origin is not None:
        settings = settings.with_values({"public_origin": public_origin})
    app = create_app(db, bot_delay=bot_delay, sqlite_sync=sqlite_sync, settings=settings, node_url=node_url)
    grace = settings.shutdown_grace
    if log_level.lower() in ("info", "debug"):
        if log_format == "json":  # every line of the output an object
            logging.getLogger("dicehall.web").info(tr("serve.open", host=host, port=str(port), db=db))
        else:
            print(tr("serve.open", host=host, port=str(port), db=db), flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=WS_MAX_FRAME,
        ws_per_message_deflate=False,  # tiny JSON frames: compression costs more CPU than it saves
        access_log=access_log,
        log_level=log_level,
        # JSON: uvicorn's loggers go to the root handler that logs.configure set (uvicorn's own would be text)
        log_config=None if log_format == "json" else uvicorn.config.LOGGING_CONFIG,
        timeout_graceful_shutdown=grace * 0.3,  # type: ignore[arg-type]  # a float works; the hint says int
        ws=DicehallWebSocketProtocol,  # clean 1009/1007 closes, no log flood (transport.py)
        # The client address (limits) is the socket peer, unless it is a trusted proxy (docs/web.md).
        proxy_headers=trusted_proxy is not None,
        forwarded_allow_ips=trusted_proxy,
    )
    graceful_server(config, app, grace).run()


def graceful_server(config: Any, app: Any, grace: float) -> Any:
    """uvicorn's server, but SIGTERM (or Ctrl-C) first closes every websocket with 1012 "server restarting"
    (uvicorn's own close has no reason) after what is queued for it, so that the whole stop fits ``grace``."""
    import uvicorn

    from dicehall.web.app import begin_shutdown

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for server in self.servers:
                server.close()  # no new connections while the open ones are told
            await begin_shutdown(app, grace)
            await super().shutdown(sockets)

    return Server(config)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m dicehall.web", description="Run the dicehall web server.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite in the user data directory)")
    p.add_argument("--bot-delay", type=float, default=None, help="seconds a bot waits before moving")
    p.add_argument("--sqlite-sync", default="NORMAL", choices=SQLITE_SYNC_MODES)
    p.add_argument("--access-log", action="store_true")
    p.add_argument("--log-level", default="info")
    p.add_argument("--log-format", default="text", choices=LOG_FORMATS)
    p.add_argument("--settings", default=None, help="TOML file of server limits (see docs/web.md)")
    p.add_argument("--trusted-proxy", default=None, help=TRUSTED_PROXY_HELP)
    p.add_argument("--node-url", default=None, help=NODE_URL_HELP)
    p.add_argument("--public-origin", default=None, help=PUBLIC_ORIGIN_HELP)
    p.add_argument("--db-wait", type=float, default=0.0, help=DB_WAIT_HELP)
    a = p.parse_args(argv)
    try:
        serve(
            a.host,
            a.port,
            a.db,
            a.bot_delay,
            a.sqlite_sync,
            a.access_log,
            a.log_level,
            a.settings,
            trusted_proxy=a.trusted_proxy,
            node_url=a.node_url,
            public_origin=a.public_origin,
            log_format=a.log_format,
            db_wait=a.db_wait,
        )
    except ValueError as exc:
        p.exit(2, f"error: {exc}\n")
