"""The hostile suite: puzzles and values that attack the machine, and what they reach (nothing).

Each test runs real sandboxed checks and then looks at the machine: the files, the
listener, the processes.  A puzzle may catch its own errors and return what it likes,
so the tests assert on the world, not on the verdict.  CI runs this file as root and
again as an unprivileged user (.ci/run); both must hold.
"""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from tcgtui.sandbox import ERROR, FALSE, TIMEOUT, TRUE, Limits, Sandbox, layers, workdirs

SANDBOX = Sandbox(limits=Limits(timeout=2.0))
STAGE_MARK = b"The program every check runs"


def check(code: str, value: str = "0"):
    return SANDBOX.check_sync(code, value)


def reached(code: str, value: str = "0") -> bool:
    """True only if the puzzle says it got what it tried for (it returns True on success)."""
    return check(code, value).result == TRUE


def _stat(pid: int) -> list[str]:
    """State and parent of a process (fields 3 and 4 of /proc/PID/stat); [] once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:2]
    except (OSError, IndexError):
        return []


def _parent(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[1]) if fields else 0


def stages_running(root: int | None = None) -> list[int]:
    """Check processes (the stage's source is on their command line) descending from ``root``
    (this process by default): other test runs on the machine have checks of their own."""
    root = os.getpid() if root is None else root
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if not (proc.name.isdigit() and STAGE_MARK in (proc / "cmdline").read_bytes()):
                continue
        except OSError:
            continue
        pid = int(proc.name)
        while pid > 1 and pid != root:
            pid = _parent(pid)
        if pid == root:
            out.append(int(proc.name))
    return out


def alive(pids: list[int]) -> list[int]:
    """Those still running (a zombie has ended; its reaping is its new parent's business)."""
    return [p for p in pids if _stat(p)[:1] not in ([], ["Z"])]


@pytest.fixture
def secrets_around(tmp_path, monkeypatch):
    """Fake secrets where an escaped puzzle would look: the environment, a home folder, a temp file."""
    key = "sk-hostile-suite-not-a-real-key"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text(f"machine api password {key}\n")
    (tmp_path / "secret.txt").write_text(key)
    os.chmod(tmp_path, 0o755)
    return key, home / ".netrc", tmp_path / "secret.txt"


def test_an_ordinary_puzzle_is_checked_both_ways():
    code = "def mystery(x):\n    return isinstance(x, str) and len(x) == 5 and x[::-1] == x\n"
    assert check(code, '"level"').result == TRUE
    assert check(code, '"hello"').result == FALSE
    assert check(code, "'ab' + 'c' + 'ba'").result == TRUE


def test_the_standard_library_its_extension_modules_and_the_folder_stay_usable():
    code = ("import hashlib, itertools, math, re, json, datetime, collections, struct, decimal, random\n"
            "def mystery(x):\n"
            "    open('scratch.txt', 'w').write(str(x))\n"
            "    os_ok = __import__('os').listdir('.') == ['scratch.txt']\n"
            "    return os_ok and open('scratch.txt').read() == '42' and math.isqrt(x * x) == x\n")
    assert check(code, "42").result == TRUE


def test_reading_secrets_fails_wherever_they_are(secrets_around):
    key, netrc, secret = secrets_around
    for path in (netrc, secret, f"/proc/{os.getpid()}/environ", f"/proc/{os.getppid()}/environ", "/etc/shadow",
                 "/etc/hostname", "/proc/self/environ", "/proc/1/environ"):
        code = (f"def mystery(x):\n    try:\n        data = open({str(path)!r}, 'rb').read()\n"
                "    except OSError:\n        return False\n    return len(data) > 0\n")
        assert not reached(code), path
    assert check("import os\ndef mystery(x):\n    return x in repr(os.environ)\n", repr(key)).result == FALSE
    listing = "import os\ndef mystery(x):\n    try:\n        return len(os.listdir(x)) > 0\n    except OSError:\n" \
              "        return False\n"
    for folder in ("/", "/proc", "/tmp", str(netrc.parent), "/root", "/home"):
        assert not reached(listing, repr(folder)), folder


BYPASSES = {
    # overwrite whatever the sandbox keeps in the interpreter (there is nothing to find)
    "main globals": "import __main__, sys\nfor k in list(vars(__main__)):\n    setattr(__main__, k, None)\n"
                    "sys.modules.pop('os', None)\n",
    "patched builtins": "import builtins, os.path\nbuiltins.any = lambda *a: True\nos.path.join = lambda *a: a[-1]\n"
                        "os.path.realpath = lambda p, **k: '.'\n",
    "zeroed flags": "import os\nos.O_WRONLY = os.O_RDWR = os.O_CREAT = os.O_TRUNC = os.O_APPEND = 0\n",
    "audit hooks gone": "import sys\ntry:\n    sys.addaudithook(lambda *a: None)\nexcept Exception:\n    pass\n",
}
READ_TARGET = "{path}"


@pytest.mark.parametrize("prelude", list(BYPASSES.values()), ids=list(BYPASSES))
def test_no_in_process_trick_opens_a_file_outside(prelude, secrets_around):
    _, _, secret = secrets_around
    code = prelude + (f"def mystery(x):\n    try:\n        return len(open({str(secret)!r}).read()) > 0\n"
                      "    except OSError:\n        return False\n")
    assert not reached(code)


def test_path_objects_dir_fd_chdir_and_threads_do_not_help(secrets_around):
    _, _, secret = secrets_around
    folder, name = str(secret.parent), secret.name
    tries = {
        "path with side effects": "class P(str):\n    def __fspath__(self):\n        return " + repr(str(secret))
                                  + "\ndef mystery(x):\n    return len(open(P('harmless')).read()) > 0\n",
        "dir_fd": f"import os\ndef mystery(x):\n    d = os.open({folder!r}, os.O_RDONLY | os.O_DIRECTORY)\n"
                  f"    f = os.open({name!r}, os.O_RDONLY, dir_fd=d)\n    return len(os.read(f, 100)) > 0\n",
        "O_PATH then /proc": f"import os\ndef mystery(x):\n    f = os.open({str(secret)!r}, os.O_PATH)\n"
                             "    return len(open(f'/proc/self/fd/{f}').read()) > 0\n",
        "chdir": f"import os\ndef mystery(x):\n    os.chdir({folder!r})\n    return len(open({name!r}).read()) > 0\n",
        "symlink": f"import os\ndef mystery(x):\n    os.symlink({str(secret)!r}, 'l')\n    return len(open('l').read()) > 0\n",
        "hard link": f"import os\ndef mystery(x):\n    os.link({str(secret)!r}, 'l')\n    return len(open('l').read()) > 0\n",
        "threads racing": "import threading\nseen = []\ndef grab():\n    for _ in range(200):\n        try:\n"
                          f"            seen.append(open({str(secret)!r}).read())\n        except OSError:\n"
                          "            pass\ndef mystery(x):\n    ts = [threading.Thread(target=grab) for _ in range(4)]\n"
                          "    [t.start() for t in ts]\n    [t.join() for t in ts]\n    return bool(seen)\n",
    }
    for name_, code in tries.items():
        v = check(code)
        assert v.result != TRUE, (name_, v)


def test_writing_renaming_or_linking_outside_changes_nothing(tmp_path):
    os.chmod(tmp_path, 0o777)
    keep = tmp_path / "keep.txt"
    keep.write_text("still here")
    os.chmod(keep, 0o666)
    stdlib_os = Path(sysconfig.get_path("stdlib")) / "os.py"
    before = stdlib_os.stat().st_mtime_ns
    target = tmp_path / "pwned.txt"
    attempts = (
        f"def mystery(x):\n    open({str(target)!r}, 'w').write('x')\n",
        f"def mystery(x):\n    open({str(keep)!r}, 'a').write('x')\n",
        f"def mystery(x):\n    open({str(stdlib_os)!r}, 'a').write('# pwned')\n",
        f"import os\ndef mystery(x):\n    os.remove({str(keep)!r})\n",
        f"import os\ndef mystery(x):\n    open('mine', 'w').write('x')\n    os.rename('mine', {str(target)!r})\n",
        f"import os\ndef mystery(x):\n    open('mine', 'w').write('x')\n    os.link('mine', {str(target)!r})\n",
        f"import os\ndef mystery(x):\n    os.symlink('/etc/passwd', {str(target)!r})\n",
        f"import os\ndef mystery(x):\n    os.rename({str(keep)!r}, 'stolen')\n",
        f"import os\ndef mystery(x):\n    os.symlink({str(keep)!r}, 'l')\n    open('l', 'w').write('x')\n",
        f"import os\ndef mystery(x):\n    os.chmod({str(keep)!r}, 0o777)\n",
        f"import os\ndef mystery(x):\n    os.mkdir({str(tmp_path / 'dir')!r})\n",
    )
    for code in attempts:
        assert check(code).result in (ERROR, TIMEOUT), code
    assert not target.exists() and not (tmp_path / "dir").exists()
    assert keep.read_text() == "still here" and stdlib_os.stat().st_mtime_ns == before


@pytest.fixture
def listeners(tmp_path):
    """A TCP and a UDP socket on 127.0.0.1 and a filesystem and an abstract Unix socket, each
    recording whether anything reached it."""
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    tcp.settimeout(0.2)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.settimeout(0.2)
    path = str(tmp_path / "s.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(path)
    os.chmod(tmp_path, 0o777)
    os.chmod(path, 0o777)
    unix.listen()
    unix.settimeout(0.2)
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(b"\0tcgtui-hostile-" + str(os.getpid()).encode())
    abstract.listen()
    abstract.settimeout(0.2)

    def anything() -> bool:
        got = False
        for s in (tcp, unix, abstract):
            try:
                s.accept()[0].close()
                got = True
            except OSError:
                pass
        try:
            udp.recv(100)
            got = True
        except OSError:
            pass
        return got
    yield {"tcp": tcp.getsockname()[1], "udp": udp.getsockname()[1], "unix": path,
           "abstract": "\0tcgtui-hostile-" + str(os.getpid())}, anything
    for s in (tcp, udp, unix, abstract):
        s.close()


def test_no_socket_of_any_kind_opens(listeners):
    where, anything = listeners
    tries = (
        f"import socket\ndef mystery(x):\n    socket.create_connection(('127.0.0.1', {where['tcp']}), 1)\n",
        f"import socket\ndef mystery(x):\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
        f"    s.sendto(b'x', ('127.0.0.1', {where['udp']}))\n",
        f"import socket\ndef mystery(x):\n    s = socket.socket(socket.AF_UNIX)\n    s.connect({where['unix']!r})\n",
        f"import socket\ndef mystery(x):\n    s = socket.socket(socket.AF_UNIX)\n    s.connect({where['abstract']!r})\n",
        "import socket\ndef mystery(x):\n    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)\n",
        "import socket\ndef mystery(x):\n    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)\n",
        "import socket\ndef mystery(x):\n    socket.socketpair()\n",
        "import urllib.request\ndef mystery(x):\n"
        f"    urllib.request.urlopen('http://127.0.0.1:{where['tcp']}/', timeout=1)\n",
    )
    for code in tries:
        assert check(code).result == ERROR, code
    assert not anything()


CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000


def test_no_namespace_privilege_or_ptrace_is_gained():
    ctypes_call = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
                   "def mystery(x):\n    return {call} == 0\n")
    for call in (f"libc.unshare({CLONE_NEWUSER})", f"libc.unshare({CLONE_NEWNET})",
                 "libc.setns(os.open('/proc/1/ns/net', os.O_RDONLY), 0)", "libc.setuid(12345)",
                 "libc.setgroups(0, None)", "libc.ptrace(16, 1, 0, 0)", "libc.mount(b'none', b'.', b'tmpfs', 0, None)",
                 "libc.chroot(b'.')", "libc.prctl(38, 0, 0, 0, 0)"):
        assert check(ctypes_call.format(call=call)).result != TRUE, call
    caps = ("def mystery(x):\n    import ctypes\n    libc = ctypes.CDLL(None)\n"
            "    hdr = (ctypes.c_uint32 * 2)(0x20080522, 0)\n    data = (ctypes.c_uint32 * 6)()\n"
            "    libc.capget(hdr, data)\n    return any(data)\n")
    assert check(caps).result == FALSE                                     # no capability at all


def test_no_process_is_started_and_none_outlives_its_check(tmp_path):
    marker = tmp_path / "spawned"
    os.chmod(tmp_path, 0o777)
    for code in (f"import os\ndef mystery(x):\n    return os.system('touch {marker}') == 0\n",
                 f"import subprocess\ndef mystery(x):\n    subprocess.run(['touch', '{marker}'])\n",
                 f"import os\ndef mystery(x):\n    os.posix_spawn('/usr/bin/touch', ['touch', '{marker}'], {{}})\n",
                 "import os\ndef mystery(x):\n    os.execv('/bin/true', ['true'])\n",
                 "import os\ndef mystery(x):\n    return os.fork() > 0\n",
                 "import multiprocessing\ndef mystery(x):\n    p = multiprocessing.Process(target=print)\n    p.start()\n"):
        assert check(code).result != TRUE, code
    assert not marker.exists()
    sleeper = "import threading, time\ndef mystery(x):\n    threading.Thread(target=time.sleep, args=(60,)).start()\n" \
              "    return True\n"
    assert check(sleeper).result == TRUE
    time.sleep(0.2)
    assert stages_running() == []


def test_signals_reach_no_other_process():
    parent = os.getppid()           # 1 already when the suite was started in the background and orphaned
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        kills = (f"import os\ndef mystery(x):\n    os.kill({victim.pid}, 9)\n",
                 f"import os\ndef mystery(x):\n    os.kill({os.getpid()}, 9)\n",
                 "import os\ndef mystery(x):\n    os.kill(-1, 9)\n    return True\n",
                 "import os\ndef mystery(x):\n    os.kill(0, 9)\n    return True\n",
                 "import os\ndef mystery(x):\n    os.killpg(os.getpgid(0), 9)\n    return True\n",
                 "import os\ndef mystery(x):\n    os.kill(os.getppid(), 9)\n    return True\n")
        for code in kills:
            check(code)
        assert victim.poll() is None                                     # the sibling lives
    finally:
        victim.kill()
        victim.wait()
    assert os.getppid() == parent                                         # and so do we, and our parent


def test_a_check_sees_no_other_process():
    code = ("import os\ndef mystery(x):\n    alive = 0\n    for pid in range(2, 4000):\n        try:\n"
            "            os.kill(pid, 0)\n            alive += 1\n        except ProcessLookupError:\n"
            "            pass\n        except PermissionError:\n            alive += 1\n    return alive == 0\n")
    assert check(code).result == TRUE


def test_a_checks_proc_shows_no_process_but_its_own():
    """``/proc`` in a check is a fresh one of its PID namespace (or none): ``stat`` of the host's
    processes (ours, our parent, a sleeper we start, every low PID) finds nothing, nor their owners."""
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        # our parent is PID 1 when the suite runs orphaned in the background: the check's own PID 1 is
        # no sign of the host, so it is not asked about
        host = [p for p in (os.getpid(), os.getppid(), sleeper.pid) if p != 1]
        code = ("import os\ndef mystery(host):\n    seen = []\n"
                "    for pid in list(host) + list(range(1, 5000)):\n        try:\n"
                "            st = os.stat('/proc/%d' % pid)\n            seen.append((pid, st.st_uid))\n"
                "        except OSError:\n            pass\n"
                "    pids = sorted({pid for pid, _ in seen})\n"
                "    raise Exception(repr((len(pids), pids[:3], [p for p in host if p in pids])))\n")
        verdict = check(code, repr(host))
    finally:
        sleeper.kill()
        sleeper.wait()
    count, first, hosts = ast.literal_eval(verdict.detail.split(": ", 1)[1])
    assert (count, first) in ((0, []), (1, [1])), verdict.detail  # itself, PID 1 of its namespace, at most
    assert hosts == [], verdict.detail


ANSWER_FORGERIES = {
    "rewrite the puzzle": "(setattr(mystery, '__code__', (lambda x: True).__code__), 4)[1]",
    "write the verdict": ("exec(\"import os\\nfor f in range(3, 64):\\n    try:\\n        os.write(f, b'true\\\\n')\\n"
                          "    except OSError:\\n        pass\\nos._exit(0)\")"),
    "patch the builtins": "(__import__('builtins').__setattr__('bool', lambda *a: True), 4)[1]",
}


@pytest.mark.parametrize("value", list(ANSWER_FORGERIES.values()), ids=list(ANSWER_FORGERIES))
def test_an_answer_computes_only_its_own_value_never_the_puzzles_verdict(value):
    """A solver's answer that is more than literals runs in a check of its own: whatever it does there,
    the puzzle's verdict is computed where it never runs (a puzzle that accepts nothing stays unsolved)."""
    puzzle = "def mystery(x):\n    return bool(x == 'never')\n"
    assert check(puzzle, value).result in (FALSE, ERROR)
    assert check(puzzle, "'never'").result == TRUE                     # the control: the puzzle can be solved


def test_a_sibling_checks_verdict_and_our_output_cannot_be_forged():
    forge = ("import os\ndef mystery(x):\n    for fd in range(64):\n        try:\n"
             "            os.write(fd, b'true\\nforged')\n        except OSError:\n            pass\n"
             "    os._exit(0)\n")
    honest = "def mystery(x):\n    return x == 'no'\n"
    pairs = [(forge, "0"), (honest, "'yes'")] * 3
    verdicts = asyncio.run(Sandbox(limits=Limits(timeout=3.0), workers=2).check_many(pairs))
    assert [v.result for v in verdicts[1::2]] == [FALSE] * 3            # the honest checks keep theirs


def test_the_duel_check_command_prints_one_line_per_row_whatever_puzzles_print(tmp_path, capfd):
    import json
    from tcgtui.cli import main
    forge = ("import os, sys\ndef mystery(x):\n    print('{\"result\": \"true\"}')\n"
             "    sys.__stdout__.write('pwned\\n')\n    os.write(1, b'pwned\\n')\n    os.write(2, b'pwned\\n')\n"
             "    return False\n")
    rows = [{"code": forge, "value": "1"}, {"code": "def mystery(x):\n    return x == 2\n", "value": "2"}]
    bank = tmp_path / "p.jsonl"
    bank.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["duel", "check", str(bank)]) == 0
    out, err = capfd.readouterr()
    assert [json.loads(line)["result"] for line in out.splitlines()] == [FALSE, TRUE]
    assert "pwned" not in out + err


def test_descriptor_floods_end_by_the_clock_or_the_cap():
    flood = ("import os\ndef mystery(x):\n    while True:\n        for fd in range(3, 16):\n            try:\n"
             "                os.write(fd, b'x' * 4096)\n            except OSError:\n                pass\n")
    for _ in range(6):
        started = time.perf_counter()
        v = check(flood)
        assert v.result in (ERROR, TIMEOUT) and time.perf_counter() - started < 4.0


def test_a_directory_flood_is_bounded_and_cleanup_is_quick():
    flood = "import os\ndef mystery(x):\n    for i in range(60000):\n        os.mkdir(f'd{i}')\n    return True\n"
    started = time.perf_counter()
    v = check(flood)
    assert v.result in (ERROR, TIMEOUT) and time.perf_counter() - started < 4.0


def test_bombs_are_contained():
    for code in ("import os\ndef mystery(x):\n    while True:\n        os.fork()\n",
                 "import threading, time\ndef mystery(x):\n    while True:\n"
                 "        threading.Thread(target=time.sleep, args=(5,)).start()\n",
                 "def mystery(x):\n    return len('a' * 10 ** 10) > 0\n",
                 "def mystery(x):\n    xs = []\n    while True:\n        xs.append([0] * 10 ** 6)\n",
                 "def mystery(x):\n    open('big', 'w').write('x' * 10 ** 8)\n",
                 "def mystery(x):\n    fs = [open(f'f{i}', 'w') for i in range(10 ** 4)]\n",
                 "import sys\nsys.setrecursionlimit(10 ** 8)\ndef mystery(x):\n    return mystery(x + 1)\n",
                 "def mystery(x):\n    print('x' * 10 ** 7)\n    return True\n"):
        started = time.perf_counter()
        assert check(code).result in (ERROR, TIMEOUT), code
        assert time.perf_counter() - started < 4.0
    assert stages_running() == []


def test_an_endless_loop_times_out_and_leaves_no_process():
    v = check("def mystery(x):\n    while True:\n        pass\n")
    assert v.result == TIMEOUT and 2.0 <= v.seconds < 4.0
    assert stages_running() == []


KILLED_CALLER = """
import asyncio, sys
sys.path.insert(0, {root!r})
from tcgtui.sandbox import Limits, Sandbox
sandbox = Sandbox(limits=Limits(timeout=60))
print("started", flush=True)
sandbox.check_sync("import time\\ndef mystery(x):\\n    time.sleep(60)\\n", "1")
"""


def test_after_kill_9_of_the_caller_no_check_survives_and_the_next_start_sweeps_its_folder():
    root = str(Path(__file__).resolve().parents[2])
    caller = subprocess.Popen([sys.executable, "-c", KILLED_CALLER.format(root=root)], stdout=subprocess.PIPE)
    try:
        assert caller.stdout.readline() == b"started\n"
        deadline = time.monotonic() + 20
        while not stages_running(caller.pid) and time.monotonic() < deadline and caller.poll() is None:
            time.sleep(0.05)
        stages = stages_running(caller.pid)
        assert stages, caller.poll()
        left = [p for p in Path(workdirs.tempfile.gettempdir()).glob(f"{workdirs.PREFIX}{caller.pid}-*")]
        assert left
        caller.send_signal(signal.SIGKILL)
        caller.wait()
        deadline = time.monotonic() + 5
        while alive(stages) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alive(stages) == []
    finally:
        caller.kill()
        caller.wait()
    Sandbox()
    assert not any(p.exists() for p in left)


@pytest.mark.parametrize("value", [
    "next(iter([3]))", "(lambda: 3)()", "type(3)(3)", "__import__('struct').unpack('<i', b'\\x03\\0\\0\\0')[0]",
    "x=3", "int('3')"])
def test_values_are_any_python_expression_as_the_seed_reads_them(value):
    assert check("def mystery(x):\n    return x == 3\n", value).result == TRUE


def test_a_value_is_the_argument_of_one_call_and_nothing_more(tmp_path):
    marker = tmp_path / "injected"
    for value in (f"1); open({str(marker)!r}, 'w'); (1", "1\n)\nimport os\n(", "3) + (3", "3, 4"):
        assert check("def mystery(x):\n    return True\n", value).result == ERROR, value
    assert not marker.exists()


def test_strict_counts_only_true_and_seed_counts_any_true_looking_result():
    code = "def mystery(x):\n    return x\n"
    seed = Sandbox(limits=Limits(timeout=2.0), judge="seed")
    assert [check(code, v).result for v in ("1", "'a'", "True", "0")] == [FALSE, FALSE, TRUE, FALSE]
    assert [seed.check_sync(code, v).result for v in ("1", "'a'", "True", "0")] == [TRUE, TRUE, TRUE, FALSE]


def test_a_puzzle_without_mystery_or_with_bad_syntax_is_an_error():
    assert check("def enigma(x):\n    return True\n").detail.startswith("the puzzle defines no")
    assert check("def mystery(x) return True\n").result == ERROR


def test_the_probe_finds_a_boundary_on_this_machine():
    found = layers.probe()
    assert found.missing() == [] and found.landlock >= 1 and found.seccomp


def test_a_duel_bench_against_a_hostile_model_leaks_nothing_and_stores_honest_verdicts(tmp_path, listeners,
                                                                                        secrets_around):
    """The model proposes a hostile puzzle every round (reads, writes, sockets, signals); every
    check errors, nothing reaches a listener, the key is nowhere but in the request headers."""
    import json
    from tcgtui.cli import main
    from tcgtui.engine.duel.fake_replies import solver_code
    from tcgtui.opponents.llm.testserver import ChatServer, Reply, catalogs, prompt_of
    from tcgtui.store import Store
    key, netrc, secret = secrets_around
    where, anything = listeners
    keep = tmp_path / "keep.txt"
    keep.write_text("still here")
    steal = "open('/proc/%d/environ').read() + open(%r).read() + open(%r).read()" % (os.getpid(), str(netrc), str(secret))
    puzzles = [
        f"import os\ndef mystery(x):\n    return x in {steal}\n",
        f"import socket\ndef mystery(x):\n    socket.create_connection(('127.0.0.1', {where['tcp']}), 1).send(b'k')\n"
        "    return True\n",
        f"import socket\ndef mystery(x):\n    s = socket.socket(socket.AF_UNIX)\n    s.connect({where['unix']!r})\n"
        "    return True\n",
        f"import os\ndef mystery(x):\n    os.remove({str(keep)!r})\n    return True\n",
        f"import os\ndef mystery(x):\n    os.kill({os.getpid()}, 9)\n    return True\n",
        "import os\ndef mystery(x):\n    return os.fork() >= 0\n",
    ]
    asked = iter(puzzles)

    def hostile(request):
        if solver_code(prompt_of(request), catalogs()) is not None:
            return Reply("SOLUTION: 1")
        return Reply(f"```python\n{next(asked)}```\nSOLUTION: 1")
    db = tmp_path / "h.sqlite3"
    with ChatServer(policy=hostile) as server:
        assert main(["bench", "--game", "duel", "--agent", "llm:hostile", "--vs", "puzzler", "--games", "1",
                     "--param", f"rounds={2 * len(puzzles)}", "--base-url", server.base_url, "--max-retries", "0",
                     "--db", str(db)]) == 0
        bodies = json.dumps([r.json for r in server.requests])
    assert key not in bodies and not anything() and keep.read_text() == "still here"
    assert key.encode() not in db.read_bytes()
    with Store(db) as store:
        status, record = store.conn.execute("SELECT status, record_json FROM games").fetchone()
    assert status == "finished"
    checked = [e for e in json.loads(record)["events"] if e["kind"] == "checked"]
    samples = [d for d in checked if d["purpose"] == "sample" and d["round"] % 2 == 1]
    assert len(samples) == len(puzzles) and all(d["result"] == ERROR for d in samples), samples
