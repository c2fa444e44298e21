"""The seed's translator under ``--protocol seed``: its compile prompt, read from the user's checkout, and what
it keeps of a reply.

tcgtui carries none of the seed's wording.  ``CompileWording.read`` takes the
prompt at run time from the checkout's source by its syntax tree (the f-string
``get_rule_compile_prompt`` returns in src/eleusis/prompts/compile.py; nothing is
run), and ``prompt`` fills in the rule's words as the seed does.

Of a reply the seed keeps: after the last ``</think>``, the last ``<CODE>`` block
(any case), else the first ```` ```json ```` block, else the first fenced block,
else the whole reply, spaces trimmed; it is a usable translation only when it is
not empty and compiles as the body of a function of ``card`` and ``mainline``
(compiled here, never run).  Its retry policy, as released: ``max_retries`` 10 for
each translating model (its config), but at most 5 requests in all (its
``convert_rule_to_code``'s default, which its judge does not change), so the
fallback models it lists are never reached and a guess whose 5 replies all fail
has no code, which its judge counts as a wrong guess.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from tcgtui.engine.eleusis.seed_prompter import REPOSITORY, Parts, WordingError, _function, _parts, _shape
from tcgtui.engine.prompting import SourceMissing

COMPILE_FILE = "src/eleusis/prompts/compile.py"
MAX_RETRIES = 10  # rule_compiler.max_retries in the seed's config.yaml: retries per model
MAX_TOTAL_ATTEMPTS = 5  # convert_rule_to_code's default: requests in all, across models and cycles
BACKOFF_FIRST, BACKOFF_MAX = 60.0, 900.0  # seconds before another cycle of every model (doubling)
CODE_TAG = re.compile(r"<CODE>(.*?)</CODE>", re.S | re.I)


@dataclass(frozen=True)
class CompileWording:
    """The compile prompt as literal pieces around the rule's words."""

    parts: Parts
    argument: str

    @classmethod
    def read(cls, source: str, path: str = COMPILE_FILE) -> CompileWording:
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            raise WordingError(
                f"--upstream: {path} is not Python ({exc.msg}); expected the source of {REPOSITORY}"
            ) from None
        function = _function(tree, "get_rule_compile_prompt", path)
        if not function.args.args:
            raise _shape(path, "argument for the rule's words")
        argument = function.args.args[0].arg
        returned = next((n for n in ast.walk(function) if isinstance(n, ast.Return)), None)
        parts = _parts(returned.value if returned is not None else None, path)
        if any(isinstance(p, tuple) and p[1] != argument for p in parts):
            raise _shape(path, f"prompt that interpolates only {argument}")
        return cls(parts, argument)

    def prompt(self, rule_text: str) -> str:
        return "".join(rule_text if isinstance(p, tuple) else p for p in self.parts)


def extract_code(reply: str) -> str:
    """What the seed takes from a translator's reply as the rule's code (see the module's docstring)."""
    if "</think>" in reply:
        reply = reply.split("</think>", 1)[-1]
    found = CODE_TAG.findall(reply)
    code = found[-1].strip() if found else ""
    if not code:
        fence = "```json" if "```json" in reply else "```" if "```" in reply else ""
        if fence:
            start = reply.find(fence) + len(fence)
            end = reply.find("```", start)
            code = reply[start:end].strip()
    return code or reply.strip()


def is_function_body(code: str) -> bool:
    """Whether ``code`` compiles as the body of ``f(card, mainline)``: the seed's test of a translation.
    Compiled only (a code object is made and dropped); model-written code never runs in tcgtui's process."""
    if not code:
        return False
    try:
        compile(
            "def _body(card, mainline):\n" + textwrap.indent(code, "    "), "<translation>", "exec", dont_inherit=True
        )
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


@dataclass(frozen=True)
class SeedCompiler:
    """The seed's translator as ``engine.prompting.Compiler``: its prompt, its reading of a reply and its
    retry policy, for the generic player that asks the models (opponents/llm/translator.py)."""

    wording: CompileWording
    max_retries: int = MAX_RETRIES
    max_total_attempts: int = MAX_TOTAL_ATTEMPTS
    backoff: tuple[float, float] = (BACKOFF_FIRST, BACKOFF_MAX)

    def prompt(self, words: str) -> str:
        return self.wording.prompt(words)

    @staticmethod
    def extract(reply: str) -> str:
        return extract_code(reply)

    @staticmethod
    def accepts(code: str) -> bool:
        return is_function_body(code)


def compiler_for(compile_source: str | None) -> SeedCompiler:
    """The compiler of the checkout's src/eleusis/prompts/compile.py (None: no ``--upstream``, SourceMissing)."""
    if compile_source is None:
        raise SourceMissing(COMPILE_FILE)
    return SeedCompiler(CompileWording.read(compile_source))
