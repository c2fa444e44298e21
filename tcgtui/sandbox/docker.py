"""The docker backend (``--sandbox docker``): each check in a container with no network, the
original benchmark's limits and a read-only root; the container is the boundary there."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from typing import Any


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
            "--env", "HOME=/sandbox", "--env", "TMPDIR=/sandbox", image, "python3", "-I", "-S", "-B", "-c", source]


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
