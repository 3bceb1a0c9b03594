"""Ray as a ``concurrent.futures`` executor: the same chunks of seeded games, run on a Ray cluster.

``pip install 'dicehall[cluster]'``. Without an address a local Ray instance with ``num_cpus`` workers is started
(and stopped again at :meth:`RayExecutor.shutdown`); with one (``auto``, ``HOST:6379``, ``ray://HOST:10001``) the
executor joins that cluster and leaves it running. See ``docs/cluster.md``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

from dicehall.core.errors import DicehallError

T = TypeVar("T")
BACKENDS = ("processes", "ray")
LOCAL_OBJECT_STORE = 128 * 1024**2
"""Bytes of shared memory a local Ray instance reserves: only chunk descriptions and small results travel."""


class ClusterError(DicehallError):
    """Ray is not installed, or the cluster cannot be reached."""


def _call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    return fn(*args, **kwargs)


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("--backend ray needs Ray: pip install 'dicehall[cluster]'") from None
    return ray


class RayExecutor(Executor):
    """Runs each submitted call as a Ray task; :meth:`submit` returns an ordinary ``Future``."""

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        ray = import_ray()
        self._ray = ray
        self._owned = not ray.is_initialized()
        if self._owned:
            try:
                if address is None:
                    ray.init(
                        num_cpus=num_cpus,
                        object_store_memory=LOCAL_OBJECT_STORE,
                        include_dashboard=False,
                        logging_level=logging.WARNING,
                    )
                else:
                    ray.init(address=address, logging_level=logging.WARNING)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ClusterError(
                    f"cannot start or join the Ray cluster {address or '(local)'}: {exc}"
                ) from exc
        self._task = ray.remote(_call)
        self._live: list[tuple[Any, Future[Any]]] = []  # tasks submitted and not yet known to be done

    @property
    def workers(self) -> int:
        """CPUs the cluster offers (how many tasks run at once)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        ref = self._task.remote(fn, *args, **kwargs)
        future: Future[T] = ref.future()
        self._live = [(r, f) for r, f in self._live if not f.done()]
        self._live.append((ref, future))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for ref, future in self._live:
                if future.done():
                    continue
                with contextlib.suppress(Exception):  # a task that has just finished cannot be cancelled
                    self._ray.cancel(ref, force=True)
        self._live = []
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()


def make_executor(backend: str, jobs: int, address: str | None = None) -> Executor | None:
    """Where a run's independent pieces go: ``processes`` — a pool of ``jobs`` worker processes (``None`` for one
    job: the caller runs them itself); ``ray`` — a :class:`RayExecutor` (a local Ray with ``jobs`` CPUs, or the
    cluster at ``address``). The caller shuts it down."""
    if backend not in BACKENDS:
        raise ClusterError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ClusterError("a cluster address needs --backend ray")
    if backend == "ray":
        return RayExecutor(address, None if address else jobs)
    return ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
