"""How a check's process is started: the local interpreter (in a new network namespace
where the system allows one) or a Docker container.

The namespace is probed once per process: ``unshare --net`` works for root, and for
other users where unprivileged user namespaces are enabled (``--map-root-user``).
Where neither works the child still has its audit hook, which refuses sockets.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from typing import Any


def python_argv(source: str) -> list[str]:
    """This interpreter, isolated (-I: no environment, no user site) and without site-packages (-S)."""
    return [sys.executable, "-I", "-S", "-c", source]


@functools.lru_cache(maxsize=1)
def network_prefix() -> tuple[str, ...]:
    """The command prefix that gives a check its own empty network namespace, or () if none works."""
    tool = shutil.which("unshare")
    if tool is None:
        return ()
    prefix = (tool, "--net") if os.geteuid() == 0 else (tool, "--net", "--map-root-user")
    try:
        done = subprocess.run([*prefix, sys.executable, "-I", "-S", "-c", "pass"], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ()
    return prefix if done.returncode == 0 else ()


@functools.lru_cache(maxsize=1)
def stdlib_is_public() -> bool:
    """Whether another user (nobody) could run this interpreter's standard library: only then does a
    check started by root drop to nobody (an interpreter under /root stays root, held by the audit hook)."""
    roots = [sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib"), os.path.dirname(sys.executable)]
    for root in roots:
        path = os.path.realpath(root)
        if not os.stat(path).st_mode & stat.S_IROTH:
            return False
        while path != os.path.dirname(path):
            if not os.stat(path).st_mode & stat.S_IXOTH:
                return False
            path = os.path.dirname(path)
    return True


def local_command(source: str) -> list[str]:
    return [*network_prefix(), *python_argv(source)]


class DockerMissing(RuntimeError):
    """The docker backend was chosen where there is no docker command: the game errors, it is not scored."""


def docker_command(image: str, limits: Any, name: str, source: str) -> list[str]:
    """``docker run`` with no network, the limits of the original benchmark and a read-only root.
    Raises DockerMissing where no daemon answers (a check must never be scored for want of one)."""
    docker = shutil.which("docker")
    if docker is None or not docker_available():
        raise DockerMissing("sandbox docker: no docker daemon answers here; use the local sandbox")
    return [docker, "run", "--rm", "-i", "--name", name, "--network", "none",
            "--memory", f"{limits.memory_mb}m", "--pids-limit", "64", "--cpus", "1", "--read-only",
            "--tmpfs", "/sandbox:rw,size=16m", "--workdir", "/sandbox", "--user", "65534:65534",
            "--env", "HOME=/sandbox", "--env", "TMPDIR=/sandbox", image, "python3", "-I", "-S", "-c", source]


def docker_client_env() -> dict[str, str]:
    """What the docker client (on the host, not in the container) needs: PATH, HOME and DOCKER_* only."""
    return {k: v for k, v in os.environ.items() if k in ("PATH", "HOME") or k.startswith("DOCKER_")}


@functools.lru_cache(maxsize=1)
def docker_available() -> bool:
    """True where a Docker daemon answers (the docker backend's tests run only there)."""
    if shutil.which("docker") is None:
        return False
    try:
        done = subprocess.run(["docker", "version", "--format", "{{.Server.Version}}"], capture_output=True,
                              timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and bool(done.stdout.strip())
