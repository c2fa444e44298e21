"""The program each sandboxed check runs (its source is passed with ``python -I -S -c``).

It is trusted until the puzzle's first line runs, so it does everything that needs
trust first: reads the request (JSON on stdin: code, value, nonce, limits), drops
root, lowers its own limits, keeps a private copy of its stdout for the verdict,
points fds 1 and 2 at /dev/null, and installs an audit hook that refuses sockets,
processes, ctypes, introspection of frames and files outside the temporary
directory (reads of the standard library excepted).  Then it evaluates the value
(a restricted Python expression, never spliced into the puzzle), runs the puzzle
in a fresh namespace and calls ``mystery(value)``.

The verdict is three lines on the private fd: the request's nonce, the result word
and a detail.  The puzzle never sees the nonce (frames and the garbage collector
are out of its reach), so whatever it writes cannot pass for a verdict.  Nothing
here imports tcgtui: the child has no site-packages.
"""

import ast
import os
import sys

ALLOWED_CALLS = frozenset((
    "abs", "all", "any", "bin", "bool", "bytes", "chr", "dict", "divmod", "float", "frozenset", "hex",
    "int", "len", "list", "max", "min", "oct", "ord", "pow", "range", "reversed", "round", "set",
    "sorted", "str", "sum", "tuple", "zip"))
VALUE_NODES = (ast.Expression, ast.Constant, ast.UnaryOp, ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp,
               ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Subscript, ast.Slice, ast.Call, ast.Name,
               ast.Attribute, ast.Load, ast.keyword, ast.JoinedStr, ast.FormattedValue, ast.ListComp,
               ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.Store, ast.operator,
               ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context)
REFUSED_PREFIXES = ("socket.", "subprocess.", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "ctypes.",
                    "mmap.", "pty.", "winreg.", "_winapi.")
REFUSED_EVENTS = frozenset((
    "os.system", "os.kill", "os.killpg", "os.forkpty", "os.setuid", "os.setgid", "os.chroot", "os.putenv",
    "resource.setrlimit", "resource.prlimit", "sys._getframe", "sys._current_frames", "sys._current_exceptions",
    "sys.settrace", "sys.setprofile", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "object.__getattr__", "_thread.start_new_thread", "code.__new__", "function.__new__", "sys.remote_exec",
    "cpython._PySys_ClearAuditHooks"))
REFUSED_IMPORTS = frozenset(("ctypes", "_ctypes", "_posixsubprocess", "socket", "_socket", "mmap", "pty",
                             "multiprocessing", "_multiprocessing", "subprocess", "signal", "_signal",
                             "faulthandler", "tracemalloc", "_xxsubinterpreters"))
WRITE_EVENTS = frozenset(("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
                          "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.rmtree", "os.chdir"))
READ_EVENTS = frozenset(("open", "os.listdir", "os.scandir", "glob.glob"))


class Refused(Exception):
    """What the audit hook raises: the puzzle tried something the sandbox does not allow."""


class CappedOutput:
    """sys.stdout and sys.stderr of the puzzle: counts what is printed and refuses past the cap."""

    def __init__(self, cap):
        self.cap = cap
        self.used = 0

    def write(self, text):
        self.used += len(text)
        if self.used > self.cap:
            raise Refused("output over %d characters" % self.cap)
        return len(text)

    def flush(self):
        return None


def inside(path, roots):
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def make_hook(tmp, read_roots):
    realpath = os.path.realpath
    fspath = os.fsdecode
    busy = []

    def resolve(path):
        if isinstance(path, int):
            return None
        return realpath(os.path.join(tmp, fspath(path)))

    def hook(event, args):
        if busy:
            return
        if event in REFUSED_EVENTS or event.startswith(REFUSED_PREFIXES):
            raise Refused(event)
        if event == "import" and args[0].partition(".")[0] in REFUSED_IMPORTS:
            raise Refused("import " + args[0])
        if event in READ_EVENTS or event in WRITE_EVENTS:
            busy.append(1)
            try:
                path = resolve(args[0]) if args and args[0] is not None else tmp
                writing = event in WRITE_EVENTS or (
                    event == "open" and isinstance(args[1], str) and any(c in args[1] for c in "wax+"))
                if event == "open" and not writing and isinstance(args[2], int):
                    writing = bool(args[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
            finally:
                busy.pop()
            if path is None:
                raise Refused(event + " of a file descriptor")
            if not inside(path, [tmp] if writing else [tmp] + read_roots):
                raise Refused(event + " outside the sandbox")
    return hook


def evaluate(source):
    """The value a player wrote: a literal, or an expression of literals and a few builtins."""
    tree = ast.parse(source.strip(), mode="eval")
    bound = {n.id for c in ast.walk(tree) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, VALUE_NODES):
            raise ValueError("%s is not allowed in a value" % type(node).__name__)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise ValueError("attribute %s is not allowed in a value" % node.attr)
        if isinstance(node, ast.Name) and node.id not in ALLOWED_CALLS and node.id not in bound:
            raise ValueError("name %s is not allowed in a value" % node.id)
    builtins = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    allowed = {name: builtins[name] for name in ALLOWED_CALLS}
    return eval(compile(tree, "<value>", "eval"), {"__builtins__": allowed})


def describe(exc):
    try:
        text = "%s: %s" % (type(exc).__name__, exc)
    except BaseException:
        text = type(exc).__name__
    return text[:500]


def main():
    import json
    import resource
    request = sys.stdin.buffer.read()
    req = json.loads(request)
    del request
    nonce = req.pop("nonce").encode("ascii")
    tmp = os.path.realpath(os.getcwd())
    limits = req["limits"]
    if req.get("drop") and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    for name, value in limits.items():
        resource.setrlimit(getattr(resource, name), (value, value))
    write, exit_, callable_, type_, str_ = os.write, os._exit, callable, type, str
    out = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    sys.stdout = CappedOutput(req["output_cap"])
    sys.stderr = CappedOutput(req["output_cap"])
    read_roots = [os.path.realpath(p) for p in sys.path if p and os.path.isabs(p)]
    code, value_text = req["code"], req["value"]
    del req
    sys.addaudithook(make_hook(tmp, read_roots))
    result, detail = "error", ""
    try:
        try:
            value = evaluate(value_text)
        except BaseException as exc:
            detail = "value: " + describe(exc)
        else:
            space = {"__name__": "puzzle", "__builtins__": __builtins__}
            exec(compile(code, "<puzzle>", "exec"), space)
            mystery = space.get("mystery")
            if not callable_(mystery):
                detail = "the puzzle defines no function mystery(x)"
            else:
                answer = mystery(value)
                result = "true" if answer is True else "false"
                plain = answer is True or answer is False
                detail = "" if plain else "mystery(x) returned a %s" % str_(type_(answer).__name__)
    except BaseException as exc:
        result, detail = "error", describe(exc)
    try:
        data = detail.encode("utf-8", "backslashreplace")
    except BaseException:
        data = b""
    write(out, nonce + b"\n" + result.encode("ascii") + b"\n" + data)
    exit_(0)


main()
