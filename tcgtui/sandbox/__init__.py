"""Run untrusted puzzle code: is ``mystery(value)`` true?  Every game that runs code uses this.

Each check is a fresh isolated interpreter running ``stage.py``, which puts the
operating system's layers in place (``layers.py``: namespaces, Landlock, seccomp,
limits) before the puzzle's first line, then evaluates ``mystery(<value>)``: the
value is any Python expression, read as the call's arguments, as The Token Games'
arena runs it.  The code and the value travel as data on stdin, never spliced into
a program.  The verdict comes back on the check's own stdout pipe (a puzzle can
forge nothing but its own); a wall clock ends every check, whatever it writes.

Results: ``true``, ``false``, ``error`` (an exception, a crash, output over the cap)
or ``timeout``.  ``strict`` (tcgtui's rule) counts only the value True as true;
``seed`` counts any true-looking result, as The Token Games does.  Backends: ``local``
(refused where the boundary does not hold), ``docker`` (a container per check) and
``unsafe`` (no boundary, chosen by name, recorded as such).
"""

from __future__ import annotations

import ast
import asyncio
import marshal
import math
import os
import signal
import time
import weakref
from dataclasses import asdict, dataclass
from typing import Iterable

from tcgtui.errors import UserError
from tcgtui.sandbox import layers, workdirs
from tcgtui.sandbox.docker import DockerMissing, docker_client_env, docker_command

TRUE, FALSE, ERROR, TIMEOUT = "true", "false", "error", "timeout"
VALUE = "value"                # a value's own check: its result, as literals (never a verdict)
RESULTS = (TRUE, FALSE, ERROR, TIMEOUT)
BACKENDS = ("local", "docker", "unsafe")
JUDGES = ("strict", "seed")
DOCKER_FAILED = 125            # docker run's own failure (no image, no daemon), never the puzzle's
READY = b"ready\n"
DRAIN_SECONDS = 2.0            # a killed check's pipes close at once; only unsafe code can hold them open


class SandboxUnavailable(UserError):
    """No operating-system boundary here (or a layer failed to go up): model code does not run,
    and the command says why in one line."""


@dataclass(frozen=True)
class Limits:
    """What one check may use; the defaults follow the original benchmark (5 s including start-up)."""

    timeout: float = 5.0           # wall-clock seconds, start-up included
    memory_mb: int = 512           # address space
    file_mb: int = 1               # largest file the puzzle may write (in its folder)
    open_files: int = 32
    output_chars: int = 65_536     # printed by the puzzle, and read back from the child

    def rlimits(self) -> dict[str, int]:
        mb = 1 << 20
        return {"RLIMIT_AS": self.memory_mb * mb, "RLIMIT_CPU": math.ceil(self.timeout) + 1,
                "RLIMIT_FSIZE": self.file_mb * mb, "RLIMIT_NOFILE": self.open_files,
                "RLIMIT_NPROC": layers.THREADS, "RLIMIT_CORE": 0}


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


def boundary_or_refuse(backend: str) -> layers.Boundary:
    """The probed boundary for ``local``; raises SandboxUnavailable (one line) where it does not hold."""
    if backend != "local":
        return layers.NONE
    found = layers.probe()
    missing = found.missing()
    if missing:
        raise SandboxUnavailable("sandbox local: no operating-system boundary here (missing: " + ", ".join(missing)
                                 + "); model code does not run. Use Linux 5.13+ with Landlock and libseccomp "
                                 "(and user namespaces or Landlock ABI 6), --sandbox docker, or --sandbox unsafe "
                                 "to run it anyway")
    return found


class Sandbox:
    """Runs checks with one backend and one set of limits; ``workers`` bounds concurrent checks."""

    def __init__(self, backend: str = "local", limits: Limits | None = None, workers: int | None = None,
                 image: str = "python:3.11-slim", judge: str = "strict") -> None:
        if backend not in BACKENDS:
            raise ValueError(f"sandbox {backend!r}: expected one of {', '.join(BACKENDS)}")
        if judge not in JUDGES:
            raise ValueError(f"judge {judge!r}: expected one of {', '.join(JUDGES)}")
        self.backend = backend
        self.limits = limits or Limits()
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.image = image
        self.judge = judge
        self.boundary = boundary_or_refuse(backend)
        workdirs.sweep()

    async def check(self, code: str, value: str) -> Verdict:
        """One check; at most one per core runs at a time in this event loop, whoever asks.

        A value that is more than literals is code its author wrote: it is computed first in a check
        of its own (after the puzzle's code, whose names it may use, but with no verdict there), and
        the verdict's check gets its result only if that is literals: the answer's code never runs
        where the verdict is computed."""
        async with _core_gate():
            if literal_call(value):
                return await self._check(code, value)
            computed = await self._check(code, value, answer_only=True)
            if computed.result != VALUE:
                result = TIMEOUT if computed.result == TIMEOUT else ERROR
                return Verdict(result, computed.seconds, "the value: " + computed.detail)
            if not literal_call(computed.detail):
                return Verdict(ERROR, computed.seconds, "the value is not data (literals such as numbers, text, "
                                                        "lists, tuples, sets and dicts of them)")
            verdict = await self._check(code, computed.detail)
            return Verdict(verdict.result, computed.seconds + verdict.seconds, verdict.detail)

    def _request(self, code: str, value: str, work: str, answer_only: bool = False) -> bytes:
        limits, cap = self.limits.rlimits(), self.limits.output_chars
        plan = (self.boundary.plan(work, limits, cap) if self.backend == "local"
                else layers.unsafe_plan("/sandbox" if self.backend == "docker" else work, limits, cap))
        return marshal.dumps({"code": code, "value": value, "strict": self.judge == "strict", "plan": plan,
                              "answer_only": answer_only,
                              "parent": None if self.backend == "docker" else os.getpid()})

    async def _check(self, code: str, value: str, answer_only: bool = False) -> Verdict:
        work = workdirs.make()
        name = os.path.basename(work)
        try:
            if self.backend == "docker":
                argv, cwd, env = docker_command(self.image, self.limits, name, layers.STAGE), None, docker_client_env()
            else:
                argv, cwd, env = layers.python_argv(), work, {"HOME": work, "TMPDIR": work, "LC_ALL": "C.UTF-8"}
            request = self._request(code, value, work, answer_only)
            started = time.perf_counter()
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, cwd=cwd, env=env, start_new_session=True)
            try:
                data, ready = await asyncio.wait_for(self._exchange(proc, request), self.limits.timeout)
            except asyncio.TimeoutError:
                return Verdict(TIMEOUT, time.perf_counter() - started, f"over {self.limits.timeout:g} s")
            finally:
                await self._kill(proc, name)
            if self.backend == "docker" and proc.returncode == DOCKER_FAILED:
                raise DockerMissing(f"sandbox docker: docker run failed (exit status {DOCKER_FAILED})")
            if not ready.startswith(READY):
                why = ready.decode("utf-8", "replace").strip().splitlines()
                raise SandboxUnavailable(f"sandbox {self.backend}: a layer did not go up ("
                                         f"{why[-1] if why else f'exit status {proc.returncode}'})")
            return self._verdict(data, proc.returncode, time.perf_counter() - started)
        finally:
            await asyncio.to_thread(workdirs.remove, work)

    async def check_many(self, pairs: Iterable[tuple[str, str]]) -> list[Verdict]:
        """Every (code, value) checked, at most ``workers`` at a time, verdicts in the given order."""
        gate = asyncio.Semaphore(self.workers)

        async def one(code: str, value: str) -> Verdict:
            async with gate:
                return await self.check(code, value)
        return list(await asyncio.gather(*(one(c, v) for c, v in pairs)))

    def check_sync(self, code: str, value: str) -> Verdict:
        return asyncio.run(self.check(code, value))

    async def _exchange(self, proc: asyncio.subprocess.Process, request: bytes) -> tuple[bytes | None, bytes]:
        """Sends the request; reads the readiness channel and the verdict, each up to a cap (past it
        the check is killed at once and the rest is read and dropped)."""
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        try:
            proc.stdin.write(request)
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass
        data, ready = await asyncio.gather(_read_capped(proc.stdout, self.limits.output_chars + 1024, proc),
                                           _read_capped(proc.stderr, 4096, proc))
        await proc.wait()
        return data, ready or b""

    async def _kill(self, proc: asyncio.subprocess.Process, name: str) -> None:
        """The stage's group goes; the check's own processes die with it (parent-death signal, PID
        namespace), and a docker container by name.  Its pipes are then read to their end: until
        they close, asyncio's ``wait()`` does not return (Python 3.11 waits for the pipes)."""
        _kill_group(proc)
        if self.backend == "docker":
            kill = await asyncio.create_subprocess_exec("docker", "kill", name, stdout=asyncio.subprocess.DEVNULL,
                                                        stderr=asyncio.subprocess.DEVNULL)
            await kill.wait()
        assert proc.stdout is not None and proc.stderr is not None
        try:
            await asyncio.wait_for(asyncio.gather(_drain(proc.stdout), _drain(proc.stderr)), DRAIN_SECONDS)
        except asyncio.TimeoutError:
            # only ``--sandbox unsafe`` code can fork a holder of the pipes out of the group: close them
            proc._transport.close()  # type: ignore[attr-defined]  # asyncio offers no public way
        if proc.returncode is None:
            await proc.wait()

    @staticmethod
    def _verdict(data: bytes | None, code: int | None, seconds: float) -> Verdict:
        if data is None:
            return Verdict(ERROR, seconds, "output over the cap")
        word, _, detail = data.partition(b"\n")
        if word in (b"true", b"false", b"error", b"value"):
            return Verdict(word.decode("ascii"), seconds, detail.decode("utf-8", "replace"))
        if code is not None and code < 0:
            return Verdict(ERROR, seconds, f"killed by {signal.Signals(-code).name}" if -code in signal.valid_signals()
                           else f"killed by signal {-code}")
        return Verdict(ERROR, seconds, f"no verdict (exit status {code})")


def literal_call(value: str) -> bool:
    """Whether ``mystery(<value>)`` has nothing but literals as its arguments (no code to run)."""
    try:
        call = ast.parse("mystery(" + value + "\n)", mode="eval").body
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "mystery"):
            return False
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return False
        for node in [*call.args, *(k.value for k in call.keywords)]:
            ast.literal_eval(node)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return False
    return True


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


async def _read_capped(stream: asyncio.StreamReader, cap: int, proc: asyncio.subprocess.Process) -> bytes | None:
    """Everything until end of file, or None past ``cap`` bytes: then the check is killed and the
    rest is dropped as it comes (a pipe left unread would stall the exchange)."""
    chunks, size = [], 0
    while chunk := await stream.read(65_536):
        size += len(chunk)
        if size > cap:
            _kill_group(proc)
            await _drain(stream)
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(65_536):
        pass
