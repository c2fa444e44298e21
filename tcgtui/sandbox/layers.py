"""What the operating system offers a check here, probed once per process, and the plan each
check's stage (``stage.py``) follows.

The boundary is made of layers the kernel enforces, never of code inside the puzzle's
interpreter.  The layers, and what each one stops:

- **namespaces** (user, mount, network, IPC, UTS, PID; a user namespace where the system
  allows one, else directly as root): no network interface but an unconfigured loopback,
  no process of the host visible or addressable, a private tmpfs as the check's folder
  (bounded in size and inodes; nothing left on the disk);
- **pid_max** of the check's PID namespace (Linux 6.14+): a bound on its threads and processes
  that holds for root too (``RLIMIT_NPROC`` does not bind root);
- **Landlock** (Linux 5.13+): reading only the Python installation and the system's shared
  libraries, reading and writing only the check's folder, executing nothing; from ABI 4 no TCP
  bind or connect, from ABI 6 no signal and no abstract Unix socket outside the check;
- **seccomp** (a filter compiled with libseccomp): no socket of any family, no new process
  (threads only), no namespace, mount, ptrace, keyring, BPF, io_uring or kernel module calls,
  and no change of any file's owner, mode, times or extended attributes (which Landlock does not cover);
- resource limits, ``no_new_privs`` and no capabilities, in every case.

A check runs only where the boundary holds: Landlock, seccomp, and something that stops
signals to other processes (the PID namespace, or Landlock ABI 6).  Elsewhere the sandbox
refuses with one line saying why, unless the user chose ``--sandbox unsafe``.
"""

from __future__ import annotations

import functools
import marshal
import os
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

STAGE = (Path(__file__).with_name("stage.py")).read_text(encoding="utf-8")
SYSTEM_LIBRARIES = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")
READ_FILES = ("/etc/ld.so.cache",)           # the loader's index of shared libraries (extension modules)
DEVICES = ("/dev/null",)
FOLDER_KB, FOLDER_INODES = 16 * 1024, 2048
TASKS = 301                                   # the smallest pid_max the kernel takes: ~300 threads at most
THREADS = 16                                  # RLIMIT_NPROC where it binds (a check running as nobody or a user)
# Syscalls a check never needs: each fails with EPERM (new processes: clone without CLONE_THREAD).
REFUSED_SYSCALLS = (
    "socket", "socketpair", "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "ptrace",
    "process_vm_readv", "process_vm_writev", "kcmp", "fork", "vfork", "execve", "execveat", "bpf",
    "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "init_module", "finit_module",
    "delete_module", "kexec_load", "kexec_file_load", "open_by_handle_at", "name_to_handle_at",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "fsopen", "fsconfig", "fsmount", "fspick",
    "move_mount", "open_tree", "mount_setattr", "pidfd_open", "pidfd_getfd", "pidfd_send_signal", "quotactl",
    "swapon", "swapoff", "reboot", "acct", "syslog", "iopl", "ioperm", "personality", "lookup_dcookie",
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "capset",
    # metadata Landlock does not cover: owners, modes, times and extended attributes of any file
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime", "utimes",
    "utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr", "setxattrat", "removexattr",
    "lremovexattr", "fremovexattr", "removexattrat")
CLONE_THREAD = 0x00010000
ENOSYS, EPERM = 38, 1


def python_argv() -> list[str]:
    """This interpreter, isolated (-I), without site-packages (-S), writing no bytecode (-B)."""
    return [sys.executable, "-I", "-S", "-B", "-c", STAGE]


@functools.lru_cache(maxsize=1)
def seccomp_program() -> str:
    """The filter as raw BPF (hex), compiled once by libseccomp; "" where libseccomp is missing."""
    try:
        # optional at run time: without libseccomp the sandbox refuses, in one line
        import pyseccomp as seccomp
    except (ImportError, OSError):
        return ""
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in REFUSED_SYSCALLS:
        try:
            rules.add_rule(seccomp.ERRNO(EPERM), name)
        except (OSError, ValueError):
            continue                              # a syscall this architecture does not have
    rules.add_rule(seccomp.ERRNO(EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(seccomp.ERRNO(ENOSYS), "clone3")      # the C library falls back to clone for threads
    with tempfile.TemporaryFile() as f:
        rules.export_bpf(f)
        f.seek(0)
        return f.read().hex()


@functools.lru_cache(maxsize=1)
def read_roots() -> tuple[str, ...]:
    """What a check may read: the interpreter's standard library (with its extension modules) and
    the system's shared libraries, which extension modules load.  Found once per process."""
    roots = {os.path.realpath(sysconfig.get_path(k)) for k in ("stdlib", "platstdlib")}
    return tuple(sorted(roots | {os.path.realpath(p) for p in SYSTEM_LIBRARIES if os.path.isdir(p)}))


@functools.lru_cache(maxsize=1)
def read_files() -> tuple[str, ...]:
    """Single files a check may read (and ``/dev/null`` write) where they exist, found once."""
    return tuple(f for f in (*READ_FILES, *DEVICES) if os.path.exists(f))


@dataclass(frozen=True)
class Boundary:
    """The layers that hold on this machine, as probed."""

    landlock: int = 0          # the Landlock ABI, 0 where there is none
    namespaces: str = ""       # "user" (a new user namespace), "root" (namespaces made by root), or ""
    pid_max: bool = False
    seccomp: bool = False
    root: bool = False
    nobody: bool = False       # root without a user namespace drops to nobody where the stdlib allows

    @property
    def signals_contained(self) -> bool:
        return bool(self.namespaces) or self.landlock >= 6

    @property
    def threads_bounded(self) -> bool:
        return self.pid_max or self.nobody or not self.root

    def missing(self) -> list[str]:
        """The keys of what is missing for a boundary (empty: the boundary holds)."""
        out = []
        if self.landlock < 1:
            out.append("landlock")
        if not self.seccomp:
            out.append("seccomp")
        if not self.signals_contained:
            out.append("signals")
        return out

    def plan(self, work: str, limits: dict[str, int], output_cap: int) -> dict[str, object]:
        if self.pid_max:                             # the namespace's pid_max bounds tasks instead
            limits = dict(limits)
            limits.pop("RLIMIT_NPROC", None)
        return {"namespaces": bool(self.namespaces), "userns": self.namespaces == "user",
                "pid_max": TASKS if self.pid_max else 0, "nobody": self.nobody, "landlock": self.landlock,
                "seccomp": seccomp_program() if self.seccomp else "", "read_roots": read_roots(),
                "files": read_files(), "work": work,
                "folder_kb": FOLDER_KB, "folder_inodes": FOLDER_INODES, "limits": limits,
                "output_cap": output_cap}


NONE = Boundary()


def unsafe_plan(work: str, limits: dict[str, int], output_cap: int) -> dict[str, object]:
    """``--sandbox unsafe`` (and the Docker container, which is its own boundary): limits only."""
    plan = NONE.plan(work, limits, output_cap)
    plan["read_roots"], plan["files"] = (), ()
    return plan


def stdlib_is_public() -> bool:
    """Whether nobody could read this interpreter's standard library (root drops to nobody only then)."""
    for root in [*read_roots(), os.path.dirname(os.path.realpath(sys.executable))]:
        path = root
        while True:
            if not os.stat(path).st_mode & 0o001:
                return False
            if path == os.path.dirname(path):
                break
            path = os.path.dirname(path)
    return True


@functools.lru_cache(maxsize=1)
def probe() -> Boundary:
    """Tries each layer once, in throw-away children of a stage process (no code runs)."""
    work = tempfile.mkdtemp(prefix="tcgtui-probe-")
    try:
        plan = NONE.plan(work, {}, 0)
        plan.update(seccomp=seccomp_program(), pid_max=TASKS)
        request = marshal.dumps({"probe": True, "parent": os.getpid(), "plan": plan})
        try:
            done = subprocess.run(python_argv(), input=request, capture_output=True, timeout=30, cwd=work,
                                  env={"LC_ALL": "C.UTF-8"})
            found = marshal.loads(done.stdout)
        except (OSError, subprocess.SubprocessError, ValueError):
            return NONE
    finally:
        os.rmdir(work)
    root = os.geteuid() == 0
    namespaces = "user" if found["userns"] else "root" if found["rootns"] else ""
    return Boundary(landlock=int(found["landlock"]), namespaces=namespaces, pid_max=bool(found["pid_max"]),
                    seccomp=bool(found["seccomp"]), root=root,
                    nobody=root and namespaces != "user" and stdlib_is_public())
