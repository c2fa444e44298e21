"""The program every check runs, as ``python -I -S -B -c`` (standard library only).

It is trusted until it runs the puzzle, and does everything that needs trust first.
The outer process reads the request (``marshal`` data on stdin: quick to load, and
only the parent writes it), asks to die with its parent,
and, as the plan says, enters new user, mount, network, IPC, UTS and PID
namespaces and mounts a small tmpfs over the check's folder.  It then forks the
inner process (PID 1 of the new PID namespace), which bounds the tasks of that
namespace, mounts a fresh ``/proc`` of it (only the check's own processes), drops
every capability, sets its resource limits and ``no_new_privs``, restricts itself
with Landlock (read the Python installation, read and write its folder, no TCP,
no signals or abstract sockets outside) and loads the seccomp
filter the parent built (no sockets, no new processes or namespaces, no ptrace,
no mounts).  Only then does it close the readiness channel (stderr) with the word
``ready`` and run the puzzle: ``mystery(<value>)``, the value parsed as the call's
arguments, as The Token Games' arena runs it.  A value that is more than literals is
computed first in a check of its own (``answer_only``: after the puzzle's code, with no
verdict), and the verdict's check gets its result as literals: the answer's code never
runs where the verdict is computed.

Nothing here is a boundary once the puzzle runs: the operating system is.  The
verdict goes to the check's own stdout pipe, so a puzzle can forge only its own.
Setup failures go to stderr before ``ready``, where no puzzle line can reach.
"""

import ctypes
import marshal
import os
import resource
import sys

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAPBSET_DROP = 1, 38, 22, 24
SECCOMP_MODE_FILTER = 2
SIGKILL = 9
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18
LANDLOCK_CREATE, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT = 444, 445, 446     # the same number on every arch
RULE_PATH_BENEATH = 1
FS_READ = (1 << 2) | (1 << 3)                  # READ_FILE, READ_DIR
FS_READ_WRITE_FILE = (1 << 1) | (1 << 2)       # WRITE_FILE, READ_FILE
# everything in the folder but EXECUTE and making devices, sockets and fifos
FS_FOLDER = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 7) | (1 << 8) | (1 << 12)
FS_ABI_EXTRA = {2: 1 << 13, 3: 1 << 14, 5: 1 << 15}      # REFER, TRUNCATE, IOCTL_DEV
LIBC = ctypes.CDLL(None, use_errno=True)


class Setup(Exception):
    """A layer the plan asked for could not be put in place: the check must not run."""


def ok(result, what):
    if result < 0:
        err = ctypes.get_errno()
        raise Setup("%s: %s" % (what, os.strerror(err)))
    return result


def write_file(path, text):
    with open(path, "w") as f:
        f.write(text)


def enter_namespaces(plan):
    """New namespaces; in a new user namespace the process maps its own ids (no helper needed)."""
    flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID
    uid, gid = os.geteuid(), os.getegid()
    if plan["userns"]:
        flags |= CLONE_NEWUSER
    ok(LIBC.unshare(flags), "unshare")
    if plan["userns"]:
        write_file("/proc/self/setgroups", "deny")
        write_file("/proc/self/uid_map", "%d %d 1" % (uid, uid))
        write_file("/proc/self/gid_map", "%d %d 1" % (gid, gid))
    ok(LIBC.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")
    options = "size=%dk,nr_inodes=%d,mode=0777" % (plan["folder_kb"], plan["folder_inodes"])
    ok(LIBC.mount(b"tmpfs", plan["work"].encode(), b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                  options.encode()), "mount tmpfs")
    os.chdir(plan["work"])                           # onto the tmpfs, not the folder beneath it


def bound_tasks(count):
    """Per-PID-namespace pid_max (Linux 6.14+): threads and processes of the check, root or not."""
    write_file("/proc/sys/kernel/pid_max", str(count))


def fresh_proc():
    """``/proc`` of the check's own PID namespace, where the check is PID 1: the host's named every
    process and its owner to ``stat``.  Where a new procfs cannot be mounted (a host whose ``/proc``
    is partly covered, as in a container), an empty read-only one instead."""
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    if LIBC.mount(b"proc", b"/proc", b"proc", flags, None) == 0:
        return
    ok(LIBC.mount(b"tmpfs", b"/proc", b"tmpfs", flags | MS_RDONLY, b"size=4k,nr_inodes=1,mode=0555"),
       "mount an empty /proc")


def drop_capabilities():
    for cap in range(64):
        if LIBC.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 and ctypes.get_errno() == 22:
            break                                    # EINVAL: past the last capability
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)    # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    ok(LIBC.capset(header, data), "capset")


def drop_to_nobody():
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)


def landlock(abi, read_roots, files, work):
    fs = (1 << 13) - 1
    for level, bit in FS_ABI_EXTRA.items():
        if abi >= level:
            fs |= bit
    fields = [fs]
    if abi >= 4:
        fields.append(1 | 2)                         # BIND_TCP, CONNECT_TCP: no rule allows either
    if abi >= 6:
        fields.append(1 | 2)                         # scoped: abstract unix sockets, signals
    attr = (ctypes.c_uint64 * len(fields))(*fields)
    ruleset = ok(LIBC.syscall(LANDLOCK_CREATE, ctypes.byref(attr), ctypes.sizeof(attr), 0), "landlock ruleset")

    def allow(path, access):
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        try:
            rule = (ctypes.c_uint8 * 12)()
            ctypes.memmove(rule, (access & fs).to_bytes(8, "little") + fd.to_bytes(4, "little", signed=True), 12)
            ok(LIBC.syscall(LANDLOCK_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0), "landlock " + path)
        finally:
            os.close(fd)
    for root in read_roots:
        if os.path.isdir(root):
            allow(root, FS_READ)
    for path in files:
        allow(path, FS_READ_WRITE_FILE)
    allow(work, FS_FOLDER | FS_ABI_EXTRA[2] * (abi >= 2) | FS_ABI_EXTRA[3] * (abi >= 3))
    ok(LIBC.syscall(LANDLOCK_RESTRICT, ruleset, 0), "landlock restrict")
    os.close(ruleset)


def seccomp(program):
    """Loads the filter the parent compiled with libseccomp (struct sock_fprog over raw BPF)."""
    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    raw = ctypes.create_string_buffer(program, len(program))
    prog = Prog(len(program) // 8, ctypes.cast(raw, ctypes.c_void_p))
    ok(LIBC.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "seccomp")


def confine(plan):
    """Everything the inner process does before the puzzle's first line, in this order."""
    if plan["pid_max"]:
        bound_tasks(plan["pid_max"])
    if plan["namespaces"]:
        fresh_proc()
    if plan["nobody"]:
        drop_to_nobody()
    if plan["namespaces"] or plan["nobody"]:
        drop_capabilities()
    for name, value in plan["limits"].items():
        resource.setrlimit(getattr(resource, name), (value, value))
    ok(LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if plan["landlock"]:
        landlock(plan["landlock"], plan["read_roots"], plan["files"], plan["work"])
    if plan["seccomp"]:
        seccomp(bytes.fromhex(plan["seccomp"]))


class CappedOutput:
    """The puzzle's sys.stdout and sys.stderr: printing is allowed and goes nowhere, up to a cap."""

    def __init__(self, cap):
        self.cap, self.used = cap, 0

    def write(self, text):
        self.used += len(text)
        if self.used > self.cap:
            raise OSError("output over %d characters" % self.cap)
        return len(text)

    def flush(self):
        return None


def describe(exc):
    try:
        text = "%s: %s" % (type(exc).__name__, exc)
    except BaseException:
        text = "an exception"
    return text[:500]


def call_of(value):
    """``mystery(<value>)`` as one call: the value must read as the call's arguments, nothing more."""
    # the compiler's flag constant, only when a value is checked
    import _ast
    tree = compile("mystery(" + value + "\n)", "<value>", "eval", _ast.PyCF_ONLY_AST)
    call = tree.body
    if not (isinstance(call, _ast.Call) and isinstance(call.func, _ast.Name) and call.func.id == "mystery"):
        raise SyntaxError("the value is not the argument of one call")
    return compile(tree, "<value>", "eval")


def _arguments(*args, **kwargs):
    return args, kwargs


def run_value(code, value, out):
    """An answer's value, computed where the puzzle's code has run (its names may be used, as the
    seed's rules say) but no verdict is: ``value`` and the call's arguments as Python literals
    (``repr``), or ``error``.  The host hands them to the puzzle's check only if they are literals,
    so the answer's code never runs where the verdict is computed."""
    try:
        space = {"__name__": "__main__", "__builtins__": __builtins__}
        exec("import importlib", space)              # the seed's program starts so
        exec(compile(code, "<puzzle>", "exec"), space)
        space["mystery"] = _arguments
        args, kwargs = eval(call_of(value), space)
        text = ", ".join([repr(a) for a in args] + ["%s=%r" % (k, v) for k, v in kwargs.items()])
        result, data = "value", _detail(text)
    except BaseException as exc:
        result, data = "error", _detail(describe(exc))
    os.write(out, result.encode("ascii") + b"\n" + data)


def _detail(text):
    try:
        return text.encode("utf-8", "backslashreplace")
    except BaseException:
        return b""


def run_puzzle(code, value, strict, out):
    """The verdict: the first line ``true``, ``false`` or ``error``, then a detail."""
    result, detail = "error", ""
    try:
        call = call_of(value)
        space = {"__name__": "__main__", "__builtins__": __builtins__}
        exec("import importlib", space)              # the seed's program starts so
        exec(compile(code, "<puzzle>", "exec"), space)
        if not callable(space.get("mystery")):
            detail = "the puzzle defines no function mystery(x)"
        else:
            answer = eval(call, space)
            if strict:
                result = "true" if answer is True else "false"
                if answer is not True and answer is not False:
                    detail = "mystery(x) returned a %s" % type(answer).__name__
            else:
                result = "true" if answer else "false"
    except BaseException as exc:
        result, detail = "error", describe(exc)
    os.write(out, result.encode("ascii") + b"\n" + _detail(detail))


def inner(req, ready):
    """PID 1 of the check's namespaces (or the only process): confine, say ready, run the puzzle."""
    plan = req["plan"]
    if os.getsid(0) != os.getpid():
        os.setsid()                                  # kill(0, ...) reaches nothing but this process
    LIBC.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    confine(plan)
    out = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)
    sys.stdout = sys.stderr = CappedOutput(plan["output_cap"])
    os.write(ready, b"ready\n")
    os.dup2(null, ready)                             # the readiness channel is gone before any puzzle line
    os.close(null)
    code, value, strict, answer_only = req["code"], req["value"], req["strict"], req.get("answer_only")
    del req, plan
    if answer_only:
        run_value(code, value, out)
    else:
        run_puzzle(code, value, strict, out)
    os._exit(0)


def tried(step):
    """Whether ``step`` works in a throw-away child (a probe changes nothing in this process)."""
    pid = os.fork()
    if pid == 0:
        try:
            step()
        except BaseException:
            os._exit(1)
        os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def probe(plan):
    """Which layers this machine allows, each tried in a child that then exits; no code runs."""
    def namespaces(user):
        return lambda: enter_namespaces(dict(plan, userns=user))

    def task_bound(user):
        def step():
            enter_namespaces(dict(plan, userns=user))
            if not tried(lambda: bound_tasks(plan["pid_max"])):
                raise Setup("pid_max")
        return step

    def filtered():
        ok(LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        seccomp(bytes.fromhex(plan["seccomp"]))
    userns = tried(namespaces(True))
    rootns = not userns and os.geteuid() == 0 and tried(namespaces(False))
    return {"landlock": max(0, LIBC.syscall(LANDLOCK_CREATE, None, 0, 1)), "userns": userns, "rootns": rootns,
            "pid_max": (userns or rootns) and tried(task_bound(userns)),
            "seccomp": bool(plan["seccomp"]) and tried(filtered)}


def main():
    req = marshal.loads(sys.stdin.buffer.read())
    parent = req["parent"]
    LIBC.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:      # the caller died before the line above
        os._exit(1)
    plan = req["plan"]
    if req.get("probe"):
        sys.stdout.buffer.write(marshal.dumps(probe(plan)))
        return
    try:
        if plan["namespaces"]:
            enter_namespaces(plan)
    except (Setup, OSError) as exc:
        os.write(2, ("setup: %s\n" % exc).encode())
        os._exit(1)
    if not plan["namespaces"]:
        run_inner(req)
    pid = os.fork()
    if pid == 0:
        run_inner(req)
    os.close(0)
    os.close(1)
    os.close(2)
    status = os.waitpid(pid, 0)[1]
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


def run_inner(req):
    try:
        inner(req, 2)
    except (Setup, OSError) as exc:
        try:
            os.write(2, ("setup: %s\n" % exc).encode())
        finally:
            os._exit(1)


main()
