"""What a language model reads in a duel, and how its reply is read.

One fresh user message per reply (no conversation), as in the original benchmark:
the proposer gets the rules, the score, every earlier puzzle with its outcome (its
own explanations shown, the opponent's hidden) and the answer format; the solver
gets the code only.  A proposal is the fenced code block defining ``mystery`` (the
text outside it is the private explanation) and the value on the **last**
``SOLUTION:`` line; backticks and markdown emphasis around the value are dropped, and a
whole value in Arabic-Indic digits or in guillemets is read as Python writes it.

Under ``--protocol seed`` replies are read as The Token Games' released code reads
them: a proposal is exactly one ```` ```python ```` block followed by a ``SOLUTION: ``
line (the text between is the explanation, the value the rest of that line as
written), an answer the **first** ``SOLUTION:`` line's value with only spaces
trimmed; and an unusable reply is not quoted back: the round is rerun with a fresh
prompt (``DuelState.apply_invalid``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.duel.moves import CODE_LIMIT, TEXT_LIMIT, VALUE_LIMIT, Answer, Proposal
from tcgtui.engine.duel.state import PROPOSE
from tcgtui.engine.prompting import Message, Parsed

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
SOLUTION = re.compile(r"SOLUTION\s*[:：]", re.IGNORECASE)
MARKUP = "*_` \t"
HISTORY_CODE = 4_000  # characters of an earlier puzzle's code shown in a prompt
HISTORY_TEXT = 1_500  # of its explanation
RETRY_TEXT = 2_000  # of a previous unusable reply quoted back


def solution_value(text: str) -> str | None:
    """The value on the last line holding ``SOLUTION:``, without markdown around it; None if none."""
    for line in reversed(text.splitlines()):
        found = list(SOLUTION.finditer(line))
        if found:
            value = line[found[-1].end() :].strip(MARKUP)
            if value.startswith("```"):
                value = value.strip("`").strip()
            return _ascii_literal(value) or None
    return None


def _ascii_literal(value: str) -> str:
    """A whole value written the Arabic way, as Python reads it: a number in Arabic-Indic digits
    (``٤٢`` -> ``42``) or a string in guillemets (``«abc»`` -> ``'abc'``).  Anything else as is."""
    if re.fullmatch(r"[+-]?\d+", value) and not value.isascii():
        return str(int(value))
    if len(value) >= 2 and value[0] == "«" and value[-1] == "»" and "«" not in value[1:-1]:
        return repr(value[1:-1])
    return value


def _blocks(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(2)) for m in FENCE.finditer(text)]


def parse_proposal_reply(text: str) -> Parsed:
    blocks = [b for b in _blocks(text) if re.search(r"\bdef\s+mystery\s*\(", b[2])]
    if not blocks:
        return Parsed(None, "fence", "no_code", text.strip()[-200:])
    if len(blocks) > 1:
        return Parsed(None, "fence", "several", text.strip()[-200:])
    start, end, code = blocks[0]
    outside = text[:start] + text[end:]
    value = solution_value(outside)
    if value is None or len(value) > VALUE_LIMIT:
        return Parsed(None, "fence", "no_solution", text.strip()[-200:])
    explanation = "\n".join(line for line in outside.splitlines() if not SOLUTION.search(line)).strip()
    if len(code) > CODE_LIMIT or len(explanation) > TEXT_LIMIT:  # an invalid reply, not an illegal move
        return Parsed(None, "fence", "too_long", text.strip()[-200:])
    return Parsed(Proposal(code.strip("\n") + "\n", value, explanation).text(), "fence", None, value)


SEED_PROPOSAL = re.compile(r"```python(.*?)```(.*?)SOLUTION: (.*?)(?:\n|$)", re.DOTALL)
SEED_SOLUTION = re.compile(r"SOLUTION:\s*(.*?)\s*(?:\n|$)")


def seed_proposal_reply(text: str) -> Parsed:
    """A proposal as the seed reads it: one match of its pattern, else unusable."""
    found = SEED_PROPOSAL.findall(text)
    if len(found) != 1:
        return Parsed(None, "seed", "no_code" if not found else "several", text.strip()[-200:])
    code, explanation, value = found[0]
    if not value.strip() or not code.strip() or len(value) > VALUE_LIMIT:
        return Parsed(None, "seed", "no_solution", text.strip()[-200:])
    if len(code) > CODE_LIMIT or len(explanation) > TEXT_LIMIT:
        return Parsed(None, "seed", "too_long", text.strip()[-200:])
    return Parsed(Proposal(code, value, explanation).text(), "seed", None, value)


def seed_answer_reply(text: str) -> Parsed:
    """An answer as the seed reads it: the first ``SOLUTION:`` line's value."""
    found = SEED_SOLUTION.search(text)
    if found is None or not found.group(1).strip() or len(found.group(1)) > VALUE_LIMIT:
        return Parsed(None, "seed", "no_solution", text.strip()[-200:])
    return Parsed(Answer(found.group(1)).text(), "seed", None, found.group(1))


def parse_answer_reply(text: str) -> Parsed:
    value = solution_value(text)
    if value is None or len(value) > VALUE_LIMIT:
        return Parsed(None, "solution", "no_solution", text.strip()[-200:])
    return Parsed(Answer(value).text(), "solution", None, value)


class DuelPrompter:
    keeps_history = False

    def __init__(self, game: Game, catalog: Any, seat: int) -> None:
        self.game = game
        self.catalog = catalog
        self.seat = seat
        used = "\n".join(f"{k}={v!r}" for k, v in catalog.items("duel.prompts"))
        self.version = f"duel-v1-{catalog.code}-{hashlib.sha1(used.encode('utf-8')).hexdigest()[:8]}"

    def _t(self, key: str, **params: Any) -> str:
        return self.catalog.t(f"duel.prompts.{key}", **params)

    def system(self) -> Message | None:
        return None

    def history(self, obs: Any) -> str:
        if not obs.history:
            return "\n\n".join([self._t("history.title"), self._t("history.none")])
        parts = [self._t("history.title")]
        for r in obs.history:
            own = r.proposer == obs.seat
            item = [
                self._t(
                    "history.item",
                    round=r.number,
                    whose=self._t("history.yours" if own else "history.mine"),
                    outcome=self._t(f"outcome.{r.outcome}"),
                ),
                "```python\n" + r.code[:HISTORY_CODE].rstrip("\n") + "\n```",
            ]
            if own and r.explanation:
                item.append(self._t("history.explanation", text=r.explanation[:HISTORY_TEXT]))
            elif not own:
                item.append(self._t("history.hidden"))
            parts.append("\n".join(item))
        return "\n\n".join(parts)

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        mine, theirs = (obs.wins[s] - obs.penalties[s] for s in (obs.seat, 1 - obs.seat))
        parts = [self._t("game")]
        if obs.rounds:  # a duel; a puzzle bank (rounds 0) has no score to tell
            parts.append(self._t("score", round=obs.turn, rounds=obs.rounds, mine=mine, theirs=theirs))
        if obs.phase == PROPOSE:
            parts += [
                self._t("propose.task"),
                self._t("propose.format"),
                self._t("propose.warning"),
                self.history(obs),
                self._t("propose.reminder"),
            ]
        else:
            parts += [self._t("solve.task"), "```python\n" + obs.code.rstrip("\n") + "\n```", self._t("solve.format")]
        if retry is not None and getattr(obs, "protocol", "") != "seed":  # the seed reruns with a fresh prompt
            previous, reason = retry
            if previous:
                parts.append(self._t("retry.previous") + "\n" + previous[-RETRY_TEXT:])
            parts += [self._t("retry.reason", reason=reason), self._t("retry.left", left=obs.attempts_left)]
        return {"role": "user", "content": "\n\n".join(parts)}

    def parse(self, answer: str, obs: Any) -> Parsed:
        if getattr(obs, "protocol", "") == "seed":
            return seed_proposal_reply(str(answer)) if obs.phase == PROPOSE else seed_answer_reply(str(answer))
        return parse_proposal_reply(str(answer)) if obs.phase == PROPOSE else parse_answer_reply(str(answer))

    def reason(self, parsed: Parsed) -> str:
        kind = parsed.error if parsed.error in ("no_code", "several", "no_solution", "too_long") else "format"
        return self._t(f"reason.{kind}", code=f"{CODE_LIMIT:,}", text=f"{TEXT_LIMIT:,}")

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        return self.turn(obs, [], retry=("", reason))
