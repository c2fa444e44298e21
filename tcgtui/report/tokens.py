"""The report's token and cost sections, for every game: what each model player read, wrote
and reasoned, per decision, per turn and per game, and what that cost where its run recorded
prices (``tcgtui.costs``).

Shown by default where some run of the report was made with this version (its players record a
``settings_hash``), so a store made before reports exactly as it did; ``--table tokens`` and
``--table costs`` show them for any store.  Counted from the deciding seat (``decisions.agent``), so both models of a round robin count.
Per-decision, per-turn and per-game means are over finished games; the ``costs`` section adds
up every game a run played, errored ones too (their tokens were spent).  A count any of whose
replies came without ``usage`` is an estimate, marked.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from tcgtui.costs import cost, run_prices
from tcgtui.store import FINISHED, Store

Row = dict[str, Any]
KINDS = ("prompt", "completion", "reasoning")


@dataclass
class _Sum:
    games: int = 0
    decisions: int = 0
    turns: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    estimated: bool = False
    reasoning_estimated: bool = False
    usd: float = 0.0
    priced: int = 0            # games whose cost is known

    def add(self, decisions: int, turns: int, counts: tuple[int, int, int], estimated: bool,
            reasoning_estimated: bool, usd: float | None) -> None:
        self.games += 1
        self.decisions += decisions
        self.turns += turns
        for kind, n in zip(KINDS, counts):
            self.tokens[kind] += n
        self.estimated |= estimated
        self.reasoning_estimated |= reasoning_estimated
        if usd is not None:
            self.usd += usd
            self.priced += 1


def read(store: Store, game_ids: Iterable[str]) -> list[tuple]:
    """Per game and deciding player: (run, agent, game, lang, status, decisions, turns, prompt,
    completion, reasoning tokens, estimated, reasoning estimated) for the decisions that reported tokens."""
    wanted = set(game_ids)
    rows = store.conn.execute(
        "SELECT r.name, d.agent, g.id, g.lang, g.status, count(*), count(DISTINCT d.turn),"
        " sum(d.prompt_tokens), sum(d.completion_tokens),"
        " sum(coalesce(json_extract(d.info_json, '$.reasoning_tokens'), 0)), max(coalesce(d.tokens_estimated, 0)),"
        " max(coalesce(json_extract(d.info_json, '$.reasoning_estimated'), 0))"
        " FROM decisions d JOIN games g ON g.id = d.game_id LEFT JOIN runs r ON r.id = g.run_id"
        " WHERE d.prompt_tokens IS NOT NULL GROUP BY g.id, d.agent").fetchall()
    return [row for row in rows if row[2] in wanted]


def recorded(config: dict[str, Any]) -> bool:
    """Whether a run's players were described by a version that keys model players by their settings."""
    return any(isinstance(d, dict) and "settings_hash" in d
               for by_lang in (config.get("players") or {}).values() for d in (by_lang or {}).values())


def sections(store: Store, game_ids: Iterable[str]) -> tuple[dict[str, list[Row]], bool]:
    """``tokens`` (per player and language) and ``costs`` (per run and player), and whether to show
    them by default (some run of these games recorded its players' settings hashes)."""
    runs = store.runs()
    prices = {r.name: run_prices(r.config) for r in runs}
    new = {r.name for r in runs if recorded(r.config)}
    shown = False
    per_player: dict[tuple[str, str], _Sum] = defaultdict(_Sum)
    per_run: dict[tuple[str, str], _Sum] = defaultdict(_Sum)
    for run, agent, _game, lang, status, decisions, turns, ptok, ctok, rtok, est, rest in read(store, game_ids):
        shown |= run in new
        counts = (int(ptok or 0), int(ctok or 0), int(rtok or 0))
        usd = cost(prices.get(run, {}).get(agent), *counts)
        if status == FINISHED:
            per_player[(agent, lang)].add(decisions, turns, counts, bool(est), bool(rest), usd)
        per_run[(run or "", agent)].add(decisions, turns, counts, bool(est), bool(rest), usd)
    tokens = []
    for (agent, lang), s in sorted(per_player.items()):
        row: Row = {"agent": agent, "lang": lang, "finished": s.games, "decisions": s.decisions, "turns": s.turns}
        for unit, n in (("decision", s.decisions), ("turn", s.turns), ("game", s.games)):
            for kind in KINDS:
                row[f"{kind}_per_{unit}"] = s.tokens[kind] / n if n else None
        row["tokens_estimated"] = s.estimated
        row["reasoning_estimated"] = s.reasoning_estimated
        row["usd_per_game"] = s.usd / s.games if s.priced == s.games and s.games else None
        tokens.append(row)
    costs = [{"run": run, "agent": agent, "games": s.games, **{f"{k}_tokens": s.tokens[k] for k in KINDS},
              "tokens_estimated": s.estimated, "reasoning_estimated": s.reasoning_estimated,
              "usd": s.usd if s.priced == s.games and s.games else None}
             for (run, agent), s in sorted(per_run.items())]
    return {"tokens": tokens, "costs": costs}, shown


SETTINGS = ("entry", "model", "settings_hash", "temperature", "top_p", "max_tokens", "extra_body", "parse",
            "fallback", "invalid_retries", "history_tokens", "context_length", "stream", "prompt_version")


def settings(store: Store, runs: list[str] | None) -> list[Row]:
    """``report --settings``: how each model player of each run was configured, language by language
    (what its key's hash stands for), with its facts and prices."""
    rows = []
    for run in store.runs():
        if runs and run.name not in runs:
            continue
        for key, by_lang in sorted((run.config.get("players") or {}).items()):
            for lang, d in sorted((by_lang or {}).items()):
                if not isinstance(d, dict) or not str(d.get("spec", key)).startswith("llm:"):
                    continue
                row: Row = {"run": run.name, "agent": key, "lang": lang}
                for name in SETTINGS:
                    value = d.get(name)
                    row[name] = json_text(value) if isinstance(value, (dict, list)) else value
                facts = d.get("facts") or {}
                row.update({k: facts.get(k) for k in ("family", "organisation", "parameters_b", "weights")})
                prices = d.get("prices") or {}
                row.update({f"usd_per_m_{k}": prices.get(k) for k in ("input", "output", "reasoning")})
                rows.append(row)
    return rows


def json_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
