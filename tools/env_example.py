"""Writes ``.env.example``: every ``DICEHALL_`` variable ``dicehall serve`` reads, with its default and meaning
(``python -m tools.env_example > .env.example``; tests/web/test_web_settings_env.py checks the file is current)."""

from __future__ import annotations

import dataclasses

from dicehall.web.settings import ServerSettings, env_name

SERVE_OPTIONS = [
    ("DICEHALL_HOST", "127.0.0.1", "address to listen on (0.0.0.0: every interface, e.g. in a container)"),
    ("DICEHALL_PORT", "8000", "TCP port"),
    (
        "DICEHALL_DB",
        "",
        "SQLAlchemy URL, e.g. postgresql+psycopg://USER:PASSWORD@HOST/DB (default: SQLite in the "
        "user data directory)",
    ),
    (
        "DICEHALL_DB_WAIT",
        "0",
        "seconds to keep trying a database that does not answer yet (a database container)",
    ),
    ("DICEHALL_SETTINGS", "", "a TOML file of the settings below (the variables win over it)"),
    ("DICEHALL_SQLITE_SYNC", "NORMAL", "SQLite synchronous level: NORMAL or FULL"),
    ("DICEHALL_TRUSTED_PROXY", "", "reverse proxy address(es) whose X-Forwarded-For names the client"),
    (
        "DICEHALL_NODE_URL",
        "",
        "this process's address for other processes on one PostgreSQL (docs/scaling.md)",
    ),
    ("DICEHALL_LOG_FORMAT", "text", 'log lines as text, or json: one object a line (docs/web.md, "Logs")'),
    ("DICEHALL_ACCESS_LOG", "false", "true: log every HTTP request too (tokens and cookies never shown)"),
]


def render() -> str:
    lines = [
        '# dicehall serve: every setting as an environment variable (docs/web.md, "Settings").',
        "# A flag wins over the environment, the environment over the --settings file, the file over the default.",
        "# Uncomment what you change; a bad value stops the server at start with the variable named.",
        "",
        "# -- the server",
    ]
    for var, default, doc in SERVE_OPTIONS:
        lines += [f"# {doc}", f"# {var}={default}"]
    lines += ["", "# -- limits and behaviour"]
    for f in dataclasses.fields(ServerSettings):
        lines += [f"# {f.metadata['doc']}", f"# {env_name(f.name)}={f.default}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
