"""The Eleusis seed's released runs as stored rounds (``tcgtui eleusis import DIR``).

The seed releases a run as ``results/RUN/solo_evaluation_*/results.json``, one
file per model: ``config.player`` (the model's name), ``checkpoint.rules_library``
(its 26 rules in order, tcgtui's library numbering) and ``rounds``, each with its
``rule_name``, ``batch_round_index``, ``score``, ``success``, ``failed_guesses``,
``turn_count`` and its ``turns``: the card played and its verdict
(``action_result``), the model's reply (``llm_response``: tentative rule,
confidence, ``guess_rule``), the judged guess (``guess_attempt``: ``correct``,
the translator's ``guessed_code``, ``shadow`` when it was an unstaked tentative
rule judged only for the analysis) and its ``tokens``.

Each round becomes a finished game of the seed's protocol whose record says,
turn by turn, what the seed recorded (nothing is dealt or judged again): the
plays, the formal guesses with their verdicts, the shadow verdicts as tcgtui's
silent ones, and the published score, so the report's sections (the mean score
floored at 0, no-stakes score, caution, boldness, calibration, by rule) read an
imported run as they read tcgtui's own.  A round's score must follow from its
turns as the seed counts them (solved: 31 - ``turn_count`` - 2 x failed guesses;
else -2 x failed guesses), else the file is refused.  A round's id is drawn
from its file's content, so importing the same file again adds nothing.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.engine.core import GameRecord, Outcome
from tcgtui.engine.eleusis.cards import Card, CardError, parse_card
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.library import COUNT
from tcgtui.engine.eleusis.moves import Play
from tcgtui.engine.eleusis.bench import rule_set_text
from tcgtui.engine.eleusis.seed_deals import BASE, round_seed
from tcgtui.engine.eleusis.seed_prompter import REPOSITORY, seed_confidence
from tcgtui.engine.eleusis.state import HAND, MAX_TURNS, PENALTY, SOLVED, TURNS
from tcgtui.engine.protocols import SEED
from tcgtui.errors import UserError
from tcgtui.match import FINISHED, DecisionRecord, MatchResult
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import kinds
from tcgtui.store.db import DecisionRow, GameRow, Store, now
from tcgtui.store.rows import decision_rows, outcome_fields
from tcgtui.userfiles import parse_json, read_text

FILE = "results.json"
PATTERNS = (FILE, "*/" + FILE, "*/*/" + FILE, "results/*/*/" + FILE)   # a model's folder, a run, a checkout
LIMIT = 64 << 20             # bytes of one results.json (the released ones are below 3 MB)
NAME_LIMIT = 128             # characters of a model's name
TEXT_LIMIT = 2000            # characters kept of a tentative rule, a guess or its code
TOKENS_LIMIT = 10 ** 9
SETTINGS = {"max_turns": MAX_TURNS, "hand_size": HAND, "wrong_guess_penalty": PENALTY}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_STRAY = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

Rows = tuple[GameRow, list[DecisionRow]]


class Bad(Exception):
    """A field of a round that is not as the seed writes it (the field, what was expected)."""

    def __init__(self, field: str, expected: str, **params: Any) -> None:
        super().__init__(field)
        self.field, self.expected, self.params = field, expected, params


def result_files(folder: str, text: locales.Catalog) -> list[Path]:
    """The results files of a model's folder, a released run or a checkout, sorted; one line if none."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise UserError(text.t("cmd_eleusis.import.not_folder", folder=folder, repository=REPOSITORY))
    found = sorted({p for pattern in PATTERNS for p in root.glob(pattern)})
    if not found:
        raise UserError(text.t("cmd_eleusis.import.no_files", folder=folder, repository=REPOSITORY))
    return found


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Bad(field, "int", low=low, high=high)
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise Bad(field, "bool")
    return value


def _text(value: Any, field: str, optional: bool = False) -> str:
    """Text of the file, clipped, without control characters (a line break and a tab kept: code)."""
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise Bad(field, "text")
    return _STRAY.sub("", value[:TEXT_LIMIT])


def _dict(value: Any, field: str, optional: bool = False) -> dict[str, Any]:
    if value is None and optional:
        return {}
    if not isinstance(value, dict):
        raise Bad(field, "object")
    return value


def _card(value: Any, field: str) -> Card:
    try:
        return parse_card(_text(value, field))
    except CardError:
        raise Bad(field, "card") from None


def _model(value: Any) -> str:
    """A model of the seed's, named as no player of tcgtui's nor a person."""
    name = value if isinstance(value, str) else ""
    if not name.strip() or len(name) > NAME_LIMIT or _CONTROL.search(name) or name.partition(":")[0] in (
            HUMAN, *kinds()):
        raise Bad("config.player", "model", limit=NAME_LIMIT)
    return name


def read_evaluation(path: Path, run_id: int | None, text: locales.Catalog) -> list[Rows]:
    """One model's released results file, checked whole, as store rows (a game and its decisions per
    round); UserError naming the file (and round) and what was expected."""
    raw = read_text("DIR", str(path), LIMIT)
    digest = hashlib.sha256(raw.encode()).hexdigest()
    number = 0
    try:
        try:
            data = parse_json(raw)
        except ValueError:
            raise UserError(text.t("cmd_eleusis.import.not_json", file=path, repository=REPOSITORY)) from None
        data = _dict(data, "(the file)")
        config = _dict(data.get("config"), "config")
        model = _model(config.get("player"))
        for key, want in SETTINGS.items():
            if config.get(key, want) != want:
                raise Bad(f"config.{key}", "setting", want=want)
        base = _int(config.get("seed", BASE), "config.seed", 0, 2 ** 32 - 1)
        library = _dict(data.get("checkpoint"), "checkpoint").get("rules_library")
        if not isinstance(library, list) or len(library) != COUNT:
            raise Bad("checkpoint.rules_library", "library", count=COUNT)
        names = [_text(_dict(r, "checkpoint.rules_library").get("name"), "checkpoint.rules_library") for r in library]
        rounds = data.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise Bad("rounds", "rounds")
        # where the rounds' rules came from, as a bench over the same rules records it (the report pools them)
        present = rule_set_text([names.index(r["rule_name"]) for r in rounds
                                 if isinstance(r, dict) and r.get("rule_name") in names])
        out = []
        for number, item in enumerate(rounds, 1):
            out.append(_round(_dict(item, "rounds"), names, (model, present), base, run_id, path,
                              f"{digest[:24]}-{number}"))
    except Bad as bad:
        where = text.t("cmd_eleusis.import.where_round", file=path, round=number) if number else str(path)
        expected = text.t(f"cmd_eleusis.import.expected.{bad.expected}", **bad.params)
        raise UserError(text.t("cmd_eleusis.import.bad", where=where, field=bad.field, expected=expected)) from None
    return out


def _round(item: dict[str, Any], names: list[str], player: tuple[str, str], base: int, run_id: int | None,
           path: Path, key: str) -> Rows:
    """One released round: its record (plays, guesses, verdicts, score) and its decisions (tokens).
    ``player``: the model's name and the file's rule set (``rule_from``)."""
    model, rule_from = player
    name = _text(item.get("rule_name"), "rule_name")
    if name not in names:
        raise Bad("rule_name", "rule")
    rule = names.index(name)
    index = _int(item.get("batch_round_index"), "batch_round_index", 0, 10_000)
    code = _text(item.get("rule_code"), "rule_code", optional=True)
    score = _int(item.get("score"), "score", -2 * (MAX_TURNS + 1), MAX_TURNS + 1)
    success = _bool(item.get("success"), "success")
    failed = _int(item.get("failed_guesses"), "failed_guesses", 0, MAX_TURNS + 1)
    counted = _int(item.get("turn_count"), "turn_count", 0, MAX_TURNS + 1)
    turns = item.get("turns")
    if not isinstance(turns, list) or not 1 <= len(turns) <= MAX_TURNS:
        raise Bad("turns", "turns", high=MAX_TURNS)
    moves, events, decisions, wrong = [], [], [], 0
    for n, turn in enumerate(turns, 1):
        turn = _dict(turn, f"turns[{n}]")
        if _int(turn.get("turn_number"), f"turns[{n}].turn_number", n, n) != n:
            raise Bad(f"turns[{n}].turn_number", "int", low=n, high=n)
        reply = _dict(turn.get("llm_response"), f"turns[{n}].llm_response", optional=True)
        action = _dict(turn.get("action_result"), f"turns[{n}].action_result")
        card = _card(action.get("card"), f"turns[{n}].action_result.card")
        accepted = _bool(action.get("accepted"), f"turns[{n}].action_result.accepted")
        attempt = _dict(turn.get("guess_attempt"), f"turns[{n}].guess_attempt", optional=True)
        formal = bool(attempt) and attempt.get("shadow") is not True
        tentative = reply.get("tentative_rule")
        rule_words = _text(tentative, "") if isinstance(tentative, str) else ""
        confidence = seed_confidence(reply.get("confidence_level"))
        guess_code = _text(attempt.get("guessed_code"), f"turns[{n}].guess_attempt.guessed_code",
                           optional=True) if attempt else ""
        play = Play(card, formal, rule_words, guess_code or None, confidence)
        moves.append(play.text())
        events.append({"kind": "play", "player": 0, "turn": n, "card": card.text(), "accepted": accepted,
                       "rule": rule_words, "confidence": confidence, "guess": formal})
        if attempt:
            correct = _bool(attempt.get("correct"), f"turns[{n}].guess_attempt.correct")
            words = _text(attempt.get("guess"), f"turns[{n}].guess_attempt.guess", optional=True)
            verdict = {"turn": n, "rule": words, "code": guess_code or None, "correct": correct,
                       "reasoning": _text(attempt.get("reasoning"), f"turns[{n}].guess_attempt.reasoning",
                                          optional=True)}
            if formal:
                wrong += not correct
                events.append({"kind": "guess", "player": 0, **verdict, "counterexample": None})
            else:
                events.append({"kind": "silent", "player": 0, **verdict, "confidence": confidence})
        tokens = _dict(turn.get("tokens"), f"turns[{n}].tokens", optional=True).get("output_tokens")
        info = {"completion_tokens": tokens} if isinstance(tokens, int) and not isinstance(tokens, bool) \
            and 0 <= tokens <= TOKENS_LIMIT else {}
        decisions.append(DecisionRecord(n - 1, n, 0, play.text(), 0.0, info))
    right = [e["turn"] for e in events if e["kind"] == "guess" and e["correct"]]
    solved = right == [len(turns)]                    # a right formal guess ends the round: the last turn's
    if solved != success or wrong != failed:
        raise Bad("success" if solved != success else "failed_guesses", "turns_agree")
    expected = (MAX_TURNS + 1 - counted if success else 0) - PENALTY * failed
    if score != expected:
        raise Bad("score", "score", want=expected)
    reason = SOLVED if success else TURNS
    events.append({"kind": "game_over", "player": 0, "reason": reason, "score": score, "turns": len(turns),
                   "wrong": failed})
    deal = round_seed(code, index, base) if code else -1
    setup = {"rule": rule, "rule_code": "", "guess_format": "text", "max_turns": MAX_TURNS, "protocol": SEED,
             "seed_round": index, "seed_base": base, "rule_from": rule_from, "seed_deal": deal}
    outcome = Outcome(None, reason, (float(score),))
    record = GameRecord("eleusis", max(deal, 0), setup, moves, events, outcome.to_json())
    result = MatchResult(record, decisions, FINISHED, outcome)
    row = GameRow(agent=model, opponent="", lang="en", game_index=0, seed=max(deal, 0), agent_seat=0,
                  game="eleusis", status=FINISHED, record={}, started_at=now(), run_id=run_id,
                  game_params={**setup, "source": REPOSITORY, "file": str(path.parent.name + "/" + path.name),
                               "imported": True},
                  seat_specs=(model,), id="eleusis-seed-" + key)
    for field_name, value in outcome_fields(result, "eleusis", 0).items():
        setattr(row, field_name, value)
    row.turns, row.finished_at = len(turns), row.started_at
    return row, decision_rows(decisions, (model,), EleusisGame(rule=rule))


def number_rounds(store: Store, run_id: int, rounds: list[Rows]) -> None:
    """Each model's new rounds take the indexes after its last one in the run, in file order: two
    files of one model (two released runs) are two sets of games, never one index twice."""
    last: dict[str, int] = {}
    for agent, _, _, index, *_ in store.cell_games(run_id):
        last[agent] = max(last.get(agent, -1), index)
    for game, _ in rounds:
        if store.conn.execute("SELECT 1 FROM games WHERE id = ?", (game.id,)).fetchone():
            continue                                  # already stored: skipped by the merge
        last[game.agent] = game.game_index = last.get(game.agent, -1) + 1
