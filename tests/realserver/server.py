"""llama.cpp's OpenAI-compatible server (``llama-cpp-python``) as a test fixture.

The server lives in a venv of its own (``scripts/llama_server_env.sh`` builds it; ``.ci/run``
exports its python as ``TCGTUI_LLAMA_PYTHON``).  Without that venv the real-server tests skip,
saying so; with ``TCGTUI_LLAMA_PYTHON`` set to something that does not work they fail.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
ENV_VAR = "TCGTUI_LLAMA_PYTHON"
SMOLLM2_VAR = "TCGTUI_SMOLLM2_GGUF"


def llama_python() -> tuple[str | None, str]:
    """(the server venv's python or None, why not)."""
    given = os.environ.get(ENV_VAR)
    if given:
        return given, ""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    default = cache / "tcgtui-ci" / "llama-venv" / "bin" / "python"
    if default.exists():
        return str(default), ""
    return None, (f"llama.cpp server venv absent: set {ENV_VAR} to its python, or run "
                  "scripts/llama_server_env.sh (.ci/run does both)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def smollm2_model() -> tuple[Path | None, str]:
    """(SmolLM2-135M-Instruct's GGUF or None, why not): ``TCGTUI_SMOLLM2_GGUF``, else where
    ``scripts/smollm2_model.sh`` caches it."""
    given = os.environ.get(SMOLLM2_VAR)
    if given:
        return Path(given), ""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    found = sorted((cache / "tcgtui-ci" / "smollm2").glob("*/SmolLM2-135M-Instruct.Q4_1.gguf"))
    if found:
        return found[-1], ""
    return None, (f"SmolLM2 absent: set {SMOLLM2_VAR} to its GGUF, or run scripts/smollm2_model.sh "
                  "(.ci/run does both)")


def make_model(python: str, out: Path, seed: int = 0) -> Path:
    subprocess.run([python, str(HERE / "tiny_model.py"), str(out), "--seed", str(seed)], check=True,
                   capture_output=True, timeout=120)
    return out


class LlamaServer:
    """``python -m llama_cpp.server`` on a free loopback port; start, kill, start again."""

    def __init__(self, python: str, model: Path, n_ctx: int, log: Path, port: int | None = None,
                 alias: str = "tiny", threads: int = 1) -> None:
        self.python, self.model, self.n_ctx, self.log = python, model, n_ctx, log
        self.alias, self.threads = alias, threads
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, wait: bool = True) -> LlamaServer:
        cmd = [self.python, "-m", "llama_cpp.server", "--model", str(self.model), "--model_alias", self.alias,
               "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(self.n_ctx),
               "--n_threads", str(self.threads), "--n_threads_batch", str(self.threads), "--n_batch", "512",
               "--verbose", "False"]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                if httpx.get(self.base_url + "/models", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"llama.cpp server not ready after {timeout:g} s:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL, as a crash or an out-of-memory kill would."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
