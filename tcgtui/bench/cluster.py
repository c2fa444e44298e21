"""Where simulation work runs: the local process pool, or a Ray cluster (``--ray ADDRESS``).

Ray is an optional extra (``pip install tcgtui[ray]``).  Work items are plain data and
each result comes back to the process that started the run, which alone writes the store
and the output files: a cluster only computes, so every result lands exactly once.
``--ray local`` starts a Ray instance on this machine (for trying it, and for tests).
"""

from __future__ import annotations

import socket
from concurrent.futures import Executor, Future
from typing import Any, Callable

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError

LOCAL = "local"


def _call(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    return fn(*args, **kwargs)


REACH_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """Refuse an address where nothing answers, in one line: Ray itself retries such a one for minutes.
    ``local`` and ``auto`` (a cluster this machine belongs to) are Ray's to find."""
    if address in (LOCAL, "auto"):
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        return                                  # Ray's own parser says what is wrong with it
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise UserError(locales.load().t("cmd_bench.errors.ray_unreachable", address=clean(address),
                                         why=clean(str(why)))) from None


class RayExecutor(Executor):
    """A ``concurrent.futures`` executor whose calls run as Ray tasks."""

    def __init__(self, address: str) -> None:
        try:
            # optional dependency (the ray extra)
            import ray
        except ImportError:
            raise UserError(locales.load().t("cmd_bench.errors.no_ray")) from None
        self._ray = ray
        _check_reachable(address)
        try:
            ray.init(address=None if address == LOCAL else address, ignore_reinit_error=True,
                     log_to_driver=False, include_dashboard=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise UserError(f"--ray: {address}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") \
                from None
        self._task = ray.remote(_call)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return self._task.remote(fn, args, kwargs).future()

    def slots(self) -> int:
        """The cluster's CPUs: how many tasks run at once."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._ray.shutdown()


def executor(address: str | None) -> Executor:
    """Ray when an address is given, else the bench's local process pool."""
    if address:
        return RayExecutor(address)
    # start-up time: a process pool only when a sweep asks for one
    from tcgtui.bench.pool import process_pool
    return process_pool()
