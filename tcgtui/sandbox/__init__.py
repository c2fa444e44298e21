"""Run untrusted puzzle code: is ``mystery(value)`` True?  Every game that runs code uses this.

Each check is a fresh ``python -I -S`` process (``child.py``) in its own process
group, in an empty temporary directory, with nothing of the caller's environment,
its own resource limits, no network (a new network namespace where the system
allows one, and an audit hook in every case), and a wall-clock timeout after which
the whole group is killed.  The code and the value travel as JSON on stdin, so the
value is never spliced into the program.  The verdict comes back on the child's
private copy of its stdout, under a nonce the puzzle cannot read.

Results: ``true``, ``false`` (mystery returned anything but True), ``error`` (an
exception, a refused operation, a crash, a value that does not parse) or ``timeout``.
Docker is an optional backend for users who have it (``Sandbox("docker")``).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import secrets
import shutil
import signal
import tempfile
import time
import weakref
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable

from tcgtui.sandbox.isolation import DockerMissing, docker_client_env, docker_command, local_command, stdlib_is_public

TRUE, FALSE, ERROR, TIMEOUT = "true", "false", "error", "timeout"
RESULTS = (TRUE, FALSE, ERROR, TIMEOUT)
BACKENDS = ("local", "docker")
NOBODY = 65534
DOCKER_FAILED = 125            # docker run's own failure (no image, no daemon), never the puzzle's
_CHILD = (Path(__file__).with_name("child.py")).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Limits:
    """What one check may use; the defaults follow the original benchmark (5 s including start-up)."""

    timeout: float = 5.0           # wall-clock seconds, start-up included
    memory_mb: int = 512           # address space
    file_mb: int = 1               # largest file the puzzle may write (in its temporary directory)
    open_files: int = 32
    output_chars: int = 65_536     # printed by the puzzle, and read back from the child

    def rlimits(self) -> dict[str, int]:
        mb = 1 << 20
        return {"RLIMIT_AS": self.memory_mb * mb, "RLIMIT_CPU": math.ceil(self.timeout) + 1,
                "RLIMIT_FSIZE": self.file_mb * mb, "RLIMIT_NOFILE": self.open_files, "RLIMIT_NPROC": 0,
                "RLIMIT_CORE": 0}


@dataclass(frozen=True)
class Verdict:
    """One check's result, as ``tcgtui duel check`` prints it and a duel records it."""

    result: str
    seconds: float
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "seconds": round(self.seconds, 4)}


_GATES: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]" = weakref.WeakKeyDictionary()


def _core_gate() -> asyncio.Semaphore:
    """The event loop's bound on checks at once (one per core): a bench's concurrent duels share it."""
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        gate = _GATES[loop] = asyncio.Semaphore(os.cpu_count() or 1)
    return gate


class Sandbox:
    """Runs checks with one backend and one set of limits; ``workers`` bounds concurrent checks."""

    def __init__(self, backend: str = "local", limits: Limits | None = None, workers: int | None = None,
                 image: str = "python:3.11-slim") -> None:
        if backend not in BACKENDS:
            raise ValueError(f"sandbox {backend!r}: expected one of {', '.join(BACKENDS)}")
        self.backend = backend
        self.limits = limits or Limits()
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.image = image

    async def check(self, code: str, value: str) -> Verdict:
        """One check; at most one per core runs at a time in this event loop, whoever asks."""
        async with _core_gate():
            return await self._check(code, value)

    async def _check(self, code: str, value: str) -> Verdict:
        nonce = secrets.token_hex(16)
        drop = self.backend == "local" and os.geteuid() == 0 and stdlib_is_public()
        request = json.dumps({"code": code, "value": value, "nonce": nonce, "drop": drop,
                              "limits": self.limits.rlimits(), "output_cap": self.limits.output_chars}).encode()
        tmp = tempfile.mkdtemp(prefix="tcgtui-check-")
        name = f"tcgtui-check-{nonce}"
        try:
            if drop:
                os.chown(tmp, NOBODY, NOBODY)
            if self.backend == "docker":
                argv, cwd, env = docker_command(self.image, self.limits, name, _CHILD), None, docker_client_env()
            else:
                argv, cwd, env = local_command(_CHILD), tmp, {"HOME": tmp, "TMPDIR": tmp, "LC_ALL": "C.UTF-8"}
            started = time.perf_counter()
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, cwd=cwd, env=env, start_new_session=True)
            try:
                data = await asyncio.wait_for(self._exchange(proc, request), self.limits.timeout)
            except asyncio.TimeoutError:
                return Verdict(TIMEOUT, time.perf_counter() - started, f"over {self.limits.timeout:g} s")
            finally:
                await self._kill(proc, name)
            if self.backend == "docker" and proc.returncode == DOCKER_FAILED:
                raise DockerMissing(f"sandbox docker: docker run failed (exit status {DOCKER_FAILED})")
            return self._verdict(data, nonce, proc.returncode, time.perf_counter() - started)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    async def check_many(self, pairs: Iterable[tuple[str, str]]) -> list[Verdict]:
        """Every (code, value) checked, at most ``workers`` at a time, verdicts in the given order."""
        gate = asyncio.Semaphore(self.workers)

        async def one(code: str, value: str) -> Verdict:
            async with gate:
                return await self.check(code, value)
        return list(await asyncio.gather(*(one(c, v) for c, v in pairs)))

    def check_sync(self, code: str, value: str) -> Verdict:
        return asyncio.run(self.check(code, value))

    async def _exchange(self, proc: asyncio.subprocess.Process, request: bytes) -> bytes | None:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(request)
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass
        chunks, size, cap = [], 0, self.limits.output_chars + 1024
        while chunk := await proc.stdout.read(65_536):
            size += len(chunk)
            if size > cap:
                return None
            chunks.append(chunk)
        await proc.wait()
        return b"".join(chunks)

    async def _kill(self, proc: asyncio.subprocess.Process, name: str) -> None:
        """The whole process group goes, whatever the puzzle started (and a docker container by name)."""
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.backend == "docker":
            kill = await asyncio.create_subprocess_exec("docker", "kill", name, stdout=asyncio.subprocess.DEVNULL,
                                                        stderr=asyncio.subprocess.DEVNULL)
            await kill.wait()
        if proc.returncode is None:
            await proc.wait()

    @staticmethod
    def _verdict(data: bytes | None, nonce: str, code: int | None, seconds: float) -> Verdict:
        if data is None:
            return Verdict(ERROR, seconds, "output over the cap")
        parts = data.split(b"\n", 2)
        word = parts[1].decode("ascii", "replace") if len(parts) == 3 else ""
        if parts[0] == nonce.encode() and word in (TRUE, FALSE, ERROR):
            return Verdict(word, seconds, parts[2].decode("utf-8", "replace"))
        if code is not None and code < 0:
            return Verdict(ERROR, seconds, f"killed by {signal.Signals(-code).name}" if -code in signal.valid_signals()
                           else f"killed by signal {-code}")
        return Verdict(ERROR, seconds, f"no verdict (exit status {code})")
