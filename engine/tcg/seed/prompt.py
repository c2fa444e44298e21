"""The released code's LLM prompt and reply parsing, its wording read from the user's checkout.

tcgtui carries none of TCG-Bench's prompt text: ``SeedWording.read`` takes it, at run
time, from the source files of the user's checkout (``--upstream DIR``), by their
syntax tree: the system message and the per-turn "baseline" prompt of
``LLMAgent`` (src/agents.py), the card lines of ``Card.__str__`` (src/game.py), the
card pool (src/community_engine.py) and the rules text (src/main.py).  The prompt is
put together as the released benchmark runs it (``run_benchmark.sh``: cards in the
first prompt, rules in every prompt, one conversation per game).  Its other prompt
strategies (``--prompt_strategy minimal|chain_of_thought``: ``--param seed_prompt=``)
and the suffix it appends to the system message for Qwen3 models (``/no_think``, or
``/think`` with ``--qwen_think``: ``--param seed_qwen=``) are read the same way.

Parsing follows the released code too: the card named between the tags; in ``soft``
mode, else the card name found last in the reply, else the card one of whose longer
words is found last; and, in both modes, else the first card in hand.  A reply never
goes unused, so the model is never asked again.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tcgtui.engine.prompting import Message, Parsed
from tcgtui.engine.seed_text import fstring_parts, parse_source
from tcgtui.engine.tcg.observation import TcgObservation

REPOSITORY = "AdaMLLab/tcg-bench"
FILES = ("src/agents.py", "src/game.py", "src/community_engine.py", "src/main.py")
# The released code's ids where the community pack names a card more fully.
PACK_IDS = {"healbot": "healbot_assistant", "twin_blade": "twin_blade_fighter"}
SOFT, STRICT = "soft", "strict"
BASELINE, MINIMAL, CHAIN = "baseline", "minimal", "chain_of_thought"
STRATEGIES = (BASELINE, MINIMAL, CHAIN)  # the released --prompt_strategy's choices
NO_SUFFIX, NO_THINK, THINK = "none", "no_think", "think"
QWEN_MODES = (NO_SUFFIX, NO_THINK, THINK)  # none: tcgtui's default, no suffix for any model
TAGS = re.compile(r"<BEGIN_MOVE>(.*?)<END_MOVE>", re.DOTALL)

# The expressions the released per-turn prompt and card lines interpolate, and what they become.
Slots = dict[str, Any]


class WordingError(ValueError):
    """The checkout's source is not in the shape this protocol reads (another version of the code)."""


@dataclass(frozen=True)
class SeedWording:
    """Everything the released prompt is made of, per language (``en``, ``ar``)."""

    system: dict[str, str]
    turn: dict[str, tuple[Any, ...]]  # literal strings and expression sources, in order
    pool_header: dict[str, str]
    rules_header: dict[str, str]
    rules: dict[str, str]
    card_lines: dict[str, tuple[Any, ...]]  # per card kind: champion, trick, other
    champion_types: tuple[str, ...]
    trick_types: tuple[str, ...]
    cards: dict[str, tuple[dict[str, Any], ...]]
    # the other strategies' per-turn prompts (strategy -> language -> parts); absent in a checkout without them
    strategies: dict[str, dict[str, tuple[Any, ...]]] = field(default_factory=dict)
    # the Qwen3 suffix: the text a model's name must contain, and the suffix per mode (think, no_think)
    qwen_marker: str = ""
    qwen_suffix: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, text: Callable[[str], str]) -> SeedWording:
        """``text(path)``: a file of the checkout (the caller does the reading)."""
        agents = _tree(text, "src/agents.py")
        llm = _class(agents, "LLMAgent", "src/agents.py")
        build = _method(llm, "build_prompt", "src/agents.py")
        choose = _method(llm, "choose_move_async", "src/agents.py")
        system = _by_language(_first_language_if(choose, "src/agents.py"), "src/agents.py")
        marker, suffixes = _qwen_suffixes(choose)
        baseline = _baseline_if(build)
        pool_if, rules_if = _extras_ifs(build)
        game = _tree(text, "src/game.py")
        card_cls = _class(game, "Card", "src/game.py")
        lines, champ_types, trick_types = _card_lines(_method(card_cls, "__str__", "src/game.py"))
        pools = _literal_assign(_tree(text, "src/community_engine.py"), "CARD_POOLS", "src/community_engine.py")
        main = _tree(text, "src/main.py")
        rules = _by_language(_rules_if(main), "src/main.py")
        return cls(
            system={k: _string(v, "src/agents.py") for k, v in system.items()},
            turn={k: _parts(v, "src/agents.py") for k, v in _by_language(baseline, "src/agents.py").items()},
            pool_header={k: _string(v, "src/agents.py") for k, v in _by_language(pool_if, "src/agents.py").items()},
            rules_header={
                k: _string(_left(v), "src/agents.py") for k, v in _by_language(rules_if, "src/agents.py").items()
            },
            rules={k: _string(v, "src/main.py") for k, v in rules.items()},
            card_lines=lines,
            champion_types=champ_types,
            trick_types=trick_types,
            cards={lang: tuple(pool) for lang, pool in pools.items()},
            strategies=_strategies(build),
            qwen_marker=marker,
            qwen_suffix=suffixes,
        )

    def digest(self) -> str:
        blob = json.dumps(
            [self.system, self.turn, self.pool_header, self.rules_header, self.rules, self.card_lines, self.cards],
            sort_keys=True,
            ensure_ascii=False,
            default=str,
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:10]


# --- reading the source ---------------------------------------------------------------------------


def _tree(text: Callable[[str], str], path: str) -> ast.Module:
    return parse_source(text(path), path, WordingError)


def _shape(path: str, what: str) -> WordingError:
    return WordingError(f"{path} has no {what}; expected the source of {REPOSITORY}")


def _class(tree: ast.Module, name: str, path: str) -> ast.ClassDef:
    found = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
    if found is None:
        raise _shape(path, f"class {name}")
    return found


def _method(cls: ast.ClassDef, name: str, path: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    found = next(
        (n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name), None
    )
    if found is None:
        raise _shape(path, f"{cls.name}.{name}")
    return found


def _is_language_test(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Compare)
        and isinstance(node.left, (ast.Attribute, ast.Name))
        and ast.unparse(node.left).endswith("language")
        and len(node.comparators) == 1
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value == "ar"
    )


def _language_ifs(node: ast.AST) -> list[ast.If]:
    found = [n for n in ast.walk(node) if isinstance(n, ast.If) and _is_language_test(n.test)]
    return sorted(found, key=lambda n: n.lineno)


def _first_language_if(node: ast.AST, path: str) -> ast.If:
    found = _language_ifs(node)
    if not found:
        raise _shape(path, "language branch")
    return found[0]


def _by_language(node: ast.If, path: str) -> dict[str, ast.expr]:
    """``if ...language == "ar": x = A else: x = B`` -> {"ar": A, "en": B}."""

    def value(body: list[ast.stmt]) -> ast.expr:
        stmt = body[0] if body else None
        if not isinstance(stmt, (ast.Assign, ast.AugAssign)):
            raise _shape(path, f"assignment in the language branch at line {node.lineno}")
        return stmt.value

    return {"ar": value(node.body), "en": value(node.orelse)}


def _strategy_test(node: ast.AST, op: type, value: str) -> bool:
    return (
        isinstance(node, ast.Compare)
        and ast.unparse(node.left).endswith("prompt_strategy")
        and isinstance(node.ops[0], op)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value == value
    )


def _baseline_if(build: ast.AST) -> ast.If:
    """The language branch in the last ``else`` of the prompt-strategy chain (the baseline prompt)."""
    chain = next(
        (n for n in ast.walk(build) if isinstance(n, ast.If) and _strategy_test(n.test, ast.Eq, "minimal")), None
    )
    while (
        chain is not None
        and len(chain.orelse) == 1
        and isinstance(chain.orelse[0], ast.If)
        and not _is_language_test(chain.orelse[0].test)
    ):
        chain = chain.orelse[0]
    if chain is None or not chain.orelse:
        raise _shape("src/agents.py", "baseline prompt in LLMAgent.build_prompt")
    return _first_language_if(ast.Module(body=chain.orelse, type_ignores=[]), "src/agents.py")


def _strategies(build: ast.AST) -> dict[str, dict[str, tuple[Any, ...]]]:
    """The per-turn prompt of each strategy but the baseline (its ``if self.prompt_strategy == NAME``
    branch's language branch), those the checkout has."""
    out = {}
    for name in (MINIMAL, CHAIN):
        branch = next(
            (n for n in ast.walk(build) if isinstance(n, ast.If) and _strategy_test(n.test, ast.Eq, name)), None
        )
        if branch is not None:
            lang_if = _first_language_if(ast.Module(body=branch.body, type_ignores=[]), "src/agents.py")
            out[name] = {k: _parts(v, "src/agents.py") for k, v in _by_language(lang_if, "src/agents.py").items()}
    return out


def _qwen_suffixes(choose: ast.AST) -> tuple[str, dict[str, str]]:
    """``if "qwen3" in self.model_name.lower() and [not] self.qwen_think: system_message += "/..."``:
    the name's marker and the suffix with and without thinking ("", {} in a checkout without them)."""
    marker, out = "", {}
    for node in ast.walk(choose):
        if not (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.BoolOp)
            and len(node.test.values) == 2
            and node.body
            and isinstance(node.body[0], ast.AugAssign)
            and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)
        ):
            continue
        name, flag = node.test.values
        if not (
            isinstance(name, ast.Compare)
            and isinstance(name.left, ast.Constant)
            and isinstance(name.left.value, str)
            and isinstance(name.ops[0], ast.In)
            and "model_name" in ast.unparse(name.comparators[0])
        ):
            continue
        negated = isinstance(flag, ast.UnaryOp) and isinstance(flag.op, ast.Not)
        if ast.unparse(flag.operand if isinstance(flag, ast.UnaryOp) and negated else flag).endswith("qwen_think"):
            marker = name.left.value
            out[NO_THINK if negated else THINK] = node.body[0].value.value
    return marker, out


def _extras_ifs(build: ast.AST) -> tuple[ast.If, ast.If]:
    """The card-pool header (under ``include_cards``) and the rules header (under ``add_rules``)."""

    def under(flag: str) -> ast.If:
        block = next((n for n in ast.walk(build) if isinstance(n, ast.If) and ast.unparse(n.test).endswith(flag)), None)
        if block is None:
            raise _shape("src/agents.py", f"'{flag}' block in LLMAgent.build_prompt")
        return _first_language_if(ast.Module(body=block.body, type_ignores=[]), "src/agents.py")

    return under("include_cards"), under("add_rules")


def _rules_if(main: ast.Module) -> ast.If:
    for node in sorted((n for n in ast.walk(main) if isinstance(n, ast.If)), key=lambda n: n.lineno):
        if (
            ast.unparse(node.test).endswith("language == 'ar'")
            and node.body
            and isinstance(node.body[0], ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "rules_text" for t in node.body[0].targets)
        ):
            return node
    raise _shape("src/main.py", "rules_text")


def _left(node: ast.expr) -> ast.expr:
    """``"header" + self.rules_text + "\\n"`` -> ``"header"``."""
    while isinstance(node, ast.BinOp):
        node = node.left
    return node


def _string(node: ast.expr, path: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise _shape(path, f"plain string at line {getattr(node, 'lineno', '?')}")


def _parts(node: ast.expr, path: str) -> tuple[Any, ...]:
    return fstring_parts(node, partial(_shape, path))


def _card_lines(method: ast.AST) -> tuple[dict[str, tuple[Any, ...]], tuple[str, ...], tuple[str, ...]]:
    """``Card.__str__``: the champion line, the trick line and the other line, and the type names of each."""
    chain = next((n for n in ast.walk(method) if isinstance(n, ast.If)), None)
    lines: dict[str, tuple[Any, ...]] = {}
    kinds: dict[str, tuple[str, ...]] = {}
    for kind in ("champion", "trick"):
        if (
            chain is None
            or not isinstance(chain.test, ast.Compare)
            or not chain.body
            or not isinstance(chain.body[0], ast.Return)
            or chain.body[0].value is None
        ):
            raise _shape("src/game.py", "Card.__str__ in the released shape")
        try:
            kinds[kind] = tuple(ast.literal_eval(chain.test.comparators[0]))
        except ValueError:
            raise _shape("src/game.py", "card type names in Card.__str__") from None
        lines[kind] = _parts(chain.body[0].value, "src/game.py")
        nxt = chain.orelse[0] if chain.orelse else None
        if kind == "champion":
            chain = nxt if isinstance(nxt, ast.If) else None
        elif not isinstance(nxt, ast.Return) or nxt.value is None:
            raise _shape("src/game.py", "Card.__str__'s last line")
        else:
            lines["other"] = _parts(nxt.value, "src/game.py")
    return lines, kinds["champion"], kinds["trick"]


def _literal_assign(tree: ast.Module, name: str, path: str) -> Any:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                raise _shape(path, f"literal {name}") from None
    raise _shape(path, name)


# --- the prompter ------------------------------------------------------------------------------------


def _variant(*parts: Any) -> str:
    """The prompt version's tail for a strategy or suffix other than the released default: a digest
    of its wording, so two checkouts' minimal prompts are two versions (nothing for the default)."""
    used = [p for p in parts if p]
    if not used:
        return ""
    return "-" + hashlib.sha256(json.dumps(used, ensure_ascii=False, default=str).encode()).hexdigest()[:8]


def render(parts: tuple[Any, ...], slots: Slots, where: str) -> str:
    out = []
    for piece in parts:
        if isinstance(piece, str):
            out.append(piece)
            continue
        source = piece[1]
        if source not in slots:
            raise WordingError(
                f"{where} interpolates {source!r}, which this protocol does not know; "
                f"expected the source of {REPOSITORY}"
            )
        out.append(str(slots[source]))
    return "".join(out)


class SeedPrompter:
    """The released LLM player's prompts, for one seat in one language (``en`` or ``ar``)."""

    keeps_history = True

    def __init__(
        self, wording: SeedWording, lang: str, seat: int, strategy: str = BASELINE, qwen: str = NO_SUFFIX
    ) -> None:
        if lang not in wording.system:
            raise WordingError(f"the released prompt has no language {lang!r}; expected en or ar")
        if strategy != BASELINE and lang not in wording.strategies.get(strategy, {}):
            raise WordingError(
                f"src/agents.py has no prompt strategy {strategy!r} in LLMAgent.build_prompt; "
                f"expected the source of {REPOSITORY}"
            )
        if qwen != NO_SUFFIX and qwen not in wording.qwen_suffix:
            raise WordingError(
                f"src/agents.py has no Qwen3 suffix for {qwen!r} in LLMAgent.choose_move_async; "
                f"expected the source of {REPOSITORY}"
            )
        self.wording, self.lang, self.seat = wording, lang, seat
        self.strategy, self.qwen = strategy, qwen
        self.parse_mode = SOFT
        self.model = ""  # the model's name, which the agent sets (the Qwen3 suffix depends on it)
        self.version = f"seed-{lang}-{wording.digest()}" + _variant(
            "" if strategy == BASELINE else [strategy, wording.strategies[strategy][lang]],
            "" if qwen == NO_SUFFIX else [wording.qwen_marker, wording.qwen_suffix[qwen]],
        )
        cards = wording.cards[lang]
        self.names = {PACK_IDS.get(c["id"], c["id"]): c["name"] for c in cards}
        self.first = True

    def system(self) -> Message:
        """The released system message, with its Qwen3 suffix when asked and the model's name has the marker."""
        text = self.wording.system[self.lang]
        if self.qwen != NO_SUFFIX and self.wording.qwen_marker in self.model.lower():
            text += self.wording.qwen_suffix[self.qwen]
        return {"role": "system", "content": text}

    def card_line(self, card: dict[str, Any]) -> str:
        kind = (
            "champion"
            if card["type"] in self.wording.champion_types
            else "trick"
            if card["type"] in self.wording.trick_types
            else "other"
        )
        slots = {
            "self.name": card["name"],
            "self.card_type": card["type"],
            "self.id": card.get("id"),
            "self.power": card.get("power"),
            "self.guard": card.get("guard"),
            "self.trigger": card.get("trigger"),
            "self.effect_text": card.get("effect", ""),
        }
        return render(self.wording.card_lines[kind], slots, "src/game.py")

    def turn(
        self, obs: TcgObservation, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None
    ) -> Message:
        me, opp = obs.seat, 1 - obs.seat
        slots = {
            "player.lp": obs.lp[me],
            "opponent.lp": obs.lp[opp],
            "[c.name for c in player.board]": [self.names[c.card] for c in obs.boards[me]],
            "[c.name for c in opponent.board]": [self.names[c.card] for c in obs.boards[opp]],
            "[c.name for c in player.hand]": [self.names[c] for c in obs.hand],
        }
        if self.strategy != BASELINE:
            text = render(self.wording.strategies[self.strategy][self.lang], slots, "src/agents.py")
            if self.strategy == MINIMAL:  # the released minimal prompt returns before the pool and rules
                return {"role": "user", "content": text}
        else:
            text = render(self.wording.turn[self.lang], slots, "src/agents.py")
        if self.first:
            text += self.wording.pool_header[self.lang]
            for card in self.wording.cards[self.lang]:
                text += self.card_line(card) + "\n"
            self.first = False
        text += self.wording.rules_header[self.lang] + self.wording.rules[self.lang] + "\n"
        return {"role": "user", "content": text}

    def parse(self, answer: str, obs: TcgObservation) -> Parsed:
        hand = [(card, self.names[card]) for card in obs.hand]
        if not hand:
            return Parsed(None, "no_cards", "empty_hand")
        found = TAGS.search(answer)
        if found:
            named = found.group(1).strip().lower()
            for card, name in hand:
                if name.lower() == named:
                    return Parsed(card, "tags_found", text=found.group(1))
        if self.parse_mode == SOFT:
            low = answer.lower()
            best, at = None, -1
            for card, name in hand:
                hit = re.search(r"\b" + re.escape(name.lower()) + r"\b", low) if name.lower() in low else None
                if hit and hit.start() > at:
                    best, at = card, hit.start()
            if best is not None:
                return Parsed(best, "exact_text_match")
            for card, name in hand:
                for word in name.split():
                    if len(word) > 3 and word.lower() in low and low.rfind(word.lower()) > at:
                        best, at = card, low.rfind(word.lower())
            if best is not None:
                return Parsed(best, "partial_text_match")
        return Parsed(hand[0][0], "fallback_first_card")

    def reason(self, parsed: Parsed) -> str:
        return parsed.error or ""

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        raise AssertionError("the released parser always names a card")
