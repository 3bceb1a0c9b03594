"""The tests' throw-away PostgreSQL cluster (``tools/pgtemp.py``, shared with the benchmarks)."""

from tools.pgtemp import Cluster, PostgresError, free_port, pg_bindir

__all__ = ["Cluster", "PostgresError", "free_port", "pg_bindir"]
