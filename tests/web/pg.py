"""The tests' throw-away PostgreSQL cluster (kept in the package for the benchmarks too: dicehall/web/pgtemp.py)."""

from tools.pgtemp import Cluster, PostgresError, free_port, pg_bindir

__all__ = ["Cluster", "PostgresError", "free_port", "pg_bindir"]
