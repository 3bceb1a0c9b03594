"""Where the table code lives (one concern per module); this module keeps the old import path working.

| module | what |
|---|---|
| :mod:`dicehall.web.live` | ``LiveTable``: state, seats, recent events, subscribers, event messages |
| :mod:`dicehall.web.manager` | ``TableManager``: create, load, claim, act, commit then broadcast, records |
| :mod:`dicehall.web.bots` | ``BotRunner``: bot seats' moves via the worker pool, delay, fallback |
| :mod:`dicehall.web.botpool` / :mod:`dicehall.web.botworker` | the worker processes, budget, caches |
| :mod:`dicehall.web.lifecycle` | loading at start, unloading idle tables, abandonment |
"""

from dicehall.web.bots import DEFAULT_BOT_DELAY, bot_delay_from_env
from dicehall.web.live import (
    RECENT_EVENTS,
    SNAPSHOT_LOG,
    LiveTable,
    Subscriber,
    TableError,
    dumps,
    public_seats,
)
from dicehall.web.manager import TableManager

__all__ = [
    "DEFAULT_BOT_DELAY",
    "RECENT_EVENTS",
    "SNAPSHOT_LOG",
    "LiveTable",
    "Subscriber",
    "TableError",
    "TableManager",
    "bot_delay_from_env",
    "dumps",
    "public_seats",
]
