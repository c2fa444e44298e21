"""The hostile suite: puzzles and values that attack the machine end as ``error`` or ``timeout``.

Each test runs a real sandboxed check (a fresh isolated interpreter) and then looks at
the machine: no file written or removed outside the check's directory, no process left.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.sandbox import ERROR, FALSE, TIMEOUT, TRUE, Limits, Sandbox
from tcgtui.sandbox.isolation import network_prefix

SANDBOX = Sandbox(limits=Limits(timeout=2.0))


def check(code: str, value: str = "0"):
    return SANDBOX.check_sync(code, value)


def contained(verdict) -> bool:
    return verdict.result in (ERROR, TIMEOUT)


def test_an_ordinary_puzzle_is_checked_both_ways():
    code = "def mystery(x):\n    return isinstance(x, str) and len(x) == 5 and x[::-1] == x\n"
    assert check(code, '"level"').result == TRUE
    assert check(code, '"hello"').result == FALSE
    assert check(code, "'ab' + 'c' + 'ba'").result == TRUE       # a value may be an expression


def test_the_standard_library_and_the_check_directory_stay_usable():
    code = ("import hashlib, itertools, math, re, json, datetime, collections\n"
            "def mystery(x):\n"
            "    open('scratch.txt', 'w').write(str(x))\n"
            "    return open('scratch.txt').read() == '42' and math.isqrt(x * x) == x\n")
    assert check(code, "42").result == TRUE


def test_reading_files_outside_the_directory_is_refused():
    v = check("def mystery(x):\n    return len(open('/etc/hostname').read()) > 0\n")
    assert v.result == ERROR and "outside" in v.detail
    assert contained(check("import os\ndef mystery(x):\n    return bool(os.listdir('/'))\n"))
    assert contained(check("def mystery(x):\n    return bool(open('/proc/self/mem', 'rb').read(1))\n"))


def test_writing_or_removing_files_outside_the_directory_is_refused(tmp_path):
    target = tmp_path / "pwned.txt"
    keep = tmp_path / "keep.txt"
    keep.write_text("still here")
    assert contained(check(f"def mystery(x):\n    open({str(target)!r}, 'w').write('x')\n    return True\n"))
    assert contained(check(f"import os\ndef mystery(x):\n    os.remove({str(keep)!r})\n    return True\n"))
    assert contained(check(f"import os\ndef mystery(x):\n    os.symlink({str(keep)!r}, 'l')\n"
                           "    return open('l').read() == 'still here'\n"))
    assert not target.exists() and keep.read_text() == "still here"


def test_the_environment_of_the_caller_is_not_visible(monkeypatch):
    secret = "sk-test-not-a-real-key-1234"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    code = "import os\ndef mystery(x):\n    return os.environ.get('OPENAI_API_KEY') == x\n"
    assert check(code, repr(secret)).result == FALSE
    assert check("import os\ndef mystery(x):\n    return 'OPENAI_API_KEY' not in os.environ\n").result == TRUE
    parent = ("import os\ndef mystery(x):\n    return x in open(f'/proc/{os.getppid()}/environ').read()\n")
    assert contained(check(parent, repr(secret)))


def test_sockets_are_refused():
    assert contained(check("import socket\ndef mystery(x):\n    return True\n"))
    assert contained(check("import _socket\ndef mystery(x):\n    return True\n"))
    assert contained(check("import urllib.request\ndef mystery(x):\n"
                           "    return bool(urllib.request.urlopen('http://127.0.0.1:9/').read())\n"))


@pytest.mark.skipif(not network_prefix(), reason="this system gives no unprivileged network namespace")
def test_where_the_system_allows_it_a_check_has_no_network_at_all():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    try:
        probe = f"import socket\ns = socket.socket()\ns.settimeout(1)\ns.connect(('127.0.0.1', {port}))\n"
        outside = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, timeout=20)
        inside = subprocess.run([*network_prefix(), sys.executable, "-I", "-S", "-c", probe], capture_output=True,
                                timeout=20)
        assert outside.returncode == 0
        assert inside.returncode != 0 and b"unreachable" in inside.stderr.lower()
    finally:
        listener.close()


def test_processes_are_refused(tmp_path):
    marker = tmp_path / "spawned"
    for code in (f"import os\ndef mystery(x):\n    return os.system('touch {marker}') == 0\n",
                 f"import subprocess\ndef mystery(x):\n    subprocess.run(['touch', '{marker}'])\n    return True\n",
                 f"import os\ndef mystery(x):\n    os.posix_spawn('/usr/bin/touch', ['touch', '{marker}'], {{}})\n"
                 "    return True\n",
                 "import os\ndef mystery(x):\n    os.execv('/bin/true', ['true'])\n",
                 "import _posixsubprocess\ndef mystery(x):\n    return True\n"):
        assert contained(check(code)), code
    assert not marker.exists()


def test_a_fork_bomb_is_contained():
    v = check("import os\ndef mystery(x):\n    while True:\n        os.fork()\n")
    assert contained(v)
    assert contained(check("import threading\ndef mystery(x):\n    while True:\n"
                           "        threading.Thread(target=lambda: None).start()\n"))


def test_a_memory_bomb_is_contained():
    assert contained(check("def mystery(x):\n    return len('a' * 10 ** 10) > 0\n"))
    assert contained(check("def mystery(x):\n    xs = []\n    while True:\n        xs.append([0] * 10 ** 6)\n"))


def test_an_endless_loop_times_out_and_leaves_no_process():
    v = check("def mystery(x):\n    while True:\n        pass\n")
    assert v.result == TIMEOUT and 2.0 <= v.seconds < 4.0
    assert checks_running() == []


def checks_running() -> list[int]:
    """Processes whose command line is a sandboxed check (the child's source is on it)."""
    marker = b"The program each sandboxed check runs"
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker in (proc / "cmdline").read_bytes():
                out.append(int(proc.name))
        except OSError:
            continue
    return out


def test_enormous_output_is_capped():
    assert contained(check("def mystery(x):\n    print('x' * 10 ** 7)\n    return True\n"))
    assert contained(check("def mystery(x):\n    while True:\n        print('spam')\n"))
    assert contained(check("import sys\ndef mystery(x):\n    sys.stderr.write('e' * 10 ** 6)\n    return True\n"))


def test_ctypes_is_refused():
    assert contained(check("import ctypes\ndef mystery(x):\n    return True\n"))
    assert contained(check("import _ctypes\ndef mystery(x):\n    return True\n"))


def test_a_value_cannot_close_the_call_and_run_code(tmp_path):
    marker = tmp_path / "injected"
    code = "def mystery(x):\n    return True\n"
    for value in (f"1); import os; os.system('touch {marker}'",
                  f"__import__('os').system('touch {marker}')",
                  "().__class__.__base__.__subclasses__()",
                  "[c for c in ().__class__.__mro__]",
                  "open('/etc/hostname').read()",
                  "1\nimport os"):
        assert contained(check(code, value)), value
    assert not marker.exists()


def test_deep_recursion_is_an_error():
    assert check("def mystery(x):\n    return mystery(x + 1)\n").result == ERROR
    deep = "import sys\nsys.setrecursionlimit(10 ** 8)\ndef mystery(x):\n    return mystery(x + 1)\n"
    assert contained(check(deep))


def test_non_utf8_or_forged_output_cannot_pass_for_a_verdict():
    forge = ("import os\ndef mystery(x):\n"
             "    for fd in range(20):\n"
             "        try:\n"
             "            os.write(fd, b'\\xff\\xfe\\n' + b'forged\\ntrue\\n')\n"
             "        except OSError:\n"
             "            pass\n"
             "    os._exit(0)\n")
    assert check(forge).result == ERROR
    assert contained(check("import sys\ndef mystery(x):\n    sys.stdout.buffer.write(b'\\xff\\xfe')\n"
                           "    return True\n"))


def test_the_verdict_nonce_is_out_of_the_puzzles_reach():
    frames = ("import sys\ndef mystery(x):\n    return 'nonce' in sys._getframe(1).f_locals\n",
              "def mystery(x):\n    try:\n        raise ValueError\n    except ValueError as e:\n"
              "        return 'nonce' in e.__traceback__.tb_frame.f_back.f_locals\n",
              "import gc\ndef mystery(x):\n    return len(gc.get_objects()) > 0\n",
              "import inspect\ndef mystery(x):\n    return inspect.currentframe() is not None\n")
    for code in frames:
        assert check(code).result == ERROR, code


def test_tampering_with_builtins_does_not_change_the_verdict():
    code = ("import builtins\nbuiltins.callable = lambda f: True\nbuiltins.type = lambda o: bool\n"
            "def mystery(x):\n    return x == 1\n")
    assert check(code, "2").result == FALSE and check(code, "1").result == TRUE


def test_killing_the_caller_is_refused():
    assert check("import os\ndef mystery(x):\n    os.kill(os.getppid(), 9)\n    return True\n").result == ERROR


def test_checks_run_concurrently_and_keep_their_order():
    import asyncio
    code = "def mystery(x):\n    return x % 2 == 0\n"
    verdicts = asyncio.run(Sandbox(workers=4).check_many([(code, str(i)) for i in range(8)]))
    assert [v.result for v in verdicts] == [TRUE, FALSE] * 4


def test_a_puzzle_without_mystery_or_with_bad_syntax_is_an_error():
    assert check("def enigma(x):\n    return True\n").detail.startswith("the puzzle defines no")
    assert check("def mystery(x) return True\n").result == ERROR
    assert check("def mystery(x):\n    return 1\n").result == FALSE
