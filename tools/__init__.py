"""Developer tools, not part of the installed ``dicehall`` package: the load generator (``python -m tools.loadgen``),
the abuse mix (``python -m tools.abuse``), the real server as a subprocess (``server.py``), a throw-away PostgreSQL
cluster (``pgtemp.py``) and the held-out figures of ``bot:master`` (``master_eval.py``). Used by the benchmarks
(``bench/``), the tests and ``scripts/``; run from the repository root.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository root: a subprocess that runs ``python -m tools.…`` runs there, so that ``tools`` is found."""
