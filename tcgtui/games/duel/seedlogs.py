"""The Token Games' released duel logs as stored duels (``tcgtui duel import DIR``).

The seed releases one JSON Lines file per ordered pair of models,
``MODEL-A_vs_MODEL-B.jsonl`` (its ``.tags.jsonl`` files repeat the rounds with
tags and are skipped), one object per round: the proposer (``inventer``) and
solver, the puzzle ``code``, ``explanation``, ``sample_solution``, the solver's
reply (``solver_output``) and ``solver_attempt``, the ``outcome`` (``success``,
``failure``, ``puzzle-wrong``, ``-ex`` when an exception or a timeout decided
it), token usage, and ``player`` (``a`` or ``b``: who proposed).  Model A
proposes first and the two alternate, as in tcgtui's duel, so each file replays
as a duel under tcgtui's rules: the proposal, the sample's verdict, the answer
and its verdict, as the seed recorded them (nothing is run again).  Each duel
is stored with the protocol ``seed`` and the file it came from; its id is drawn
from the file's content, so importing the same file again adds nothing.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcgtui.engine.core import IllegalMove, Match
from tcgtui.engine.duel.game import DuelGame
from tcgtui.engine.duel.moves import Answer, Proposal, Verdict
from tcgtui.engine.duel.state import OUTCOMES, PUZZLE_WRONG, SUCCESS
from tcgtui.engine.protocols import SEED
from tcgtui.errors import UserError
from tcgtui.match import FINISHED, DecisionRecord, MatchResult
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import kinds
from tcgtui.store.db import DecisionRow, GameRow, Store, now
from tcgtui.store.rows import decision_rows, outcome_fields
from tcgtui.userfiles import numbered_lines, parse_json, read_text

REPOSITORY = "github.com/thetokengames/thetokengames"
SUFFIX = ".jsonl"
SKIPPED = ".tags.jsonl"          # the same rounds again, with tags: not duel logs
NEEDED = ("inventer", "solver", "code", "sample_solution", "outcome", "player")
NAME_LIMIT = 128                 # characters of a model's name (the seed's are below 60)
TOKENS_LIMIT = 10 ** 9           # tokens of one request: a count beyond is no count
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass
class Duel:
    path: Path
    first: str                   # model A: proposes in rounds 1, 3, 5...
    second: str
    rows: list[dict[str, Any]]
    digest: str


def log_files(folder: str) -> list[Path]:
    """The duel logs of a checkout (its ``data/``) or of the folder itself, sorted; one line if none."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise UserError(f"tcgtui duel import: {folder!r} is not a folder; expected a checkout of {REPOSITORY} "
                        "or its data/ folder")
    where = root / "data" if (root / "data").is_dir() else root
    files = sorted(p for p in where.glob("*" + SUFFIX) if not p.name.endswith(SKIPPED))
    if not files:
        raise UserError(f"tcgtui duel import: {where} has no MODEL_vs_MODEL.jsonl duel logs; expected a checkout "
                        f"of {REPOSITORY} or its data/ folder")
    return files


def _bad(path: Path, line: int, why: str) -> UserError:
    return UserError(f"{path}, line {line}: {why}")


def read_duel(path: Path) -> Duel:
    """One released duel log, checked whole; UserError naming the file, the line and what was expected."""
    text = read_text("", str(path))
    rows: list[dict[str, Any]] = []
    for number, line in numbered_lines(text):
        try:
            row = parse_json(line)
        except ValueError:
            raise _bad(path, number, "not JSON") from None
        if not isinstance(row, dict) or any(k not in row for k in NEEDED):
            raise _bad(path, number, "expected a round with " + ", ".join(NEEDED))
        if row["outcome"] not in OUTCOMES:
            raise _bad(path, number, f"outcome {str(row['outcome'])[:40]!r}: expected one of {', '.join(OUTCOMES)}")
        if row["player"] != "ab"[len(rows) % 2]:
            raise _bad(path, number, f"player {str(row['player'])[:10]!r}: expected {'ab'[len(rows) % 2]!r} "
                                     "(model A proposes first, then they alternate)")
        for key in ("code", "sample_solution", "inventer", "solver"):
            if not isinstance(row[key], str):
                raise _bad(path, number, f"{key}: expected text")
        for key in ("inventer", "solver"):
            _check_name(path, number, key, row[key])
        for key in ("inventer_usage", "solver_usage"):
            _usage(row.get(key), path, number, key)
        rows.append(row)
    if not rows or len(rows) % 2:
        raise UserError(f"{path}: {len(rows)} rounds; expected an even number above 0 (each model proposes as often)")
    first, second = rows[0]["inventer"], rows[0]["solver"]
    for number, row in enumerate(rows, 1):
        want = (first, second) if number % 2 else (second, first)
        if (row["inventer"], row["solver"]) != want:
            raise UserError(f"{path}: round {number} is {row['inventer']} proposing to {row['solver']}; expected "
                            f"{want[0]} proposing to {want[1]}")
    return Duel(path, first, second, rows, hashlib.sha256(text.encode()).hexdigest())


def _check_name(path: Path, number: int, key: str, name: str) -> None:
    """A model of the seed's, named as no player of tcgtui's nor a person: imported games never pass
    for a person's (or join the pooled human baseline) nor for tcgtui's own players' games."""
    kind = name.partition(":")[0]
    if not name.strip() or len(name) > NAME_LIMIT or _CONTROL.search(name):
        raise _bad(path, number, f"{key}: expected a model's name of 1 to {NAME_LIMIT} printable characters")
    if kind == HUMAN or kind in kinds():
        raise _bad(path, number, f"{key} {name[:40]!r}: expected a model's name, not a tcgtui player or a person")


def _usage(value: Any, path: Path | None = None, number: int = 0, key: str = "") -> dict[str, int]:
    """A round's token counts (``input_tokens``, ``output_tokens``); a count that is not a whole number
    from 0 to TOKENS_LIMIT is refused (when ``path`` names where) or left out."""
    if not isinstance(value, dict):
        return {}
    out = {}
    for name, field_name in (("prompt_tokens", "input_tokens"), ("completion_tokens", "output_tokens")):
        count = value.get(field_name)
        if count is None:
            continue
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= TOKENS_LIMIT:
            if path is not None:
                raise _bad(path, number, f"{key}.{field_name} {str(count)[:40]}: expected a whole number "
                                         f"from 0 to {TOKENS_LIMIT:,}")
            continue
        out[name] = count
    return out


def _verdict(outcome: str, passed: bool) -> str:
    """The verdict the seed recorded: true when the check passed, error when an exception decided it."""
    return Verdict("true" if passed else "error" if outcome.endswith("-ex") else "false").text()


def replay(duel: Duel, run_id: int | None, source: str) -> tuple[GameRow, list[DecisionRow]]:
    """The duel replayed under tcgtui's rules from what the seed recorded, as store rows."""
    game = DuelGame(rounds=len(duel.rows))
    match = Match(game, 0)
    decisions: list[DecisionRecord] = []

    def play(move: str, seat: int | None = None, info: dict[str, Any] | None = None) -> None:
        if seat is not None:
            decisions.append(DecisionRecord(len(match.moves), len(match.state.history) + 1, seat, move, 0.0,
                                            info or {}))
        match.play(move)

    try:
        for number, row in enumerate(duel.rows, 1):
            proposer, outcome = (number - 1) % 2, row["outcome"]
            play(Proposal(row["code"], row["sample_solution"], str(row.get("explanation") or "")).text(), proposer,
                 {"reply": str(row.get("puzzle_raw") or ""), **_usage(row.get("inventer_usage"))})
            play(_verdict(outcome, not outcome.startswith(PUZZLE_WRONG)))
            if outcome.startswith(PUZZLE_WRONG):
                continue
            attempt = row.get("solver_attempt")
            play(Answer(str(attempt)).text(), 1 - proposer,
                 {"reply": str(row.get("solver_output") or ""), **_usage(row.get("solver_usage"))})
            play(_verdict(outcome, outcome == SUCCESS))
            assert match.state.history[-1].outcome == outcome
    except (IllegalMove, AssertionError):
        raise UserError(f"{duel.path}: round {number} cannot be replayed as a duel (outcome {outcome!r}); "
                        "expected a log as The Token Games released it") from None
    result = MatchResult(match.record(), decisions, FINISHED, match.state.outcome)
    seats = (duel.first, duel.second)
    row = GameRow(agent=duel.first, opponent=duel.second, lang="en", game_index=0, seed=0, agent_seat=0,
                  game="duel", status=FINISHED, record={}, started_at=now(), run_id=run_id,
                  game_params={**game.setup(), "protocol": SEED, "source": source, "file": duel.path.name},
                  seat_specs=seats, id="ttg-" + duel.digest[:32])
    for key, value in outcome_fields(result, "duel", 0).items():
        setattr(row, key, value)
    return row, decision_rows(decisions, seats, game)


def number_duels(store: Store, run_id: int, duels: list[tuple[GameRow, list[DecisionRow]]]) -> None:
    """Give each new duel the next free index of its pair in the run: two logs of one pair (two
    checkouts, or a file naming another file's models) are two games, never one index twice."""
    taken = {(agent, opponent, index) for agent, opponent, _, index, *_ in store.cell_games(run_id)}
    for game, _ in duels:
        if store.conn.execute("SELECT 1 FROM games WHERE id = ?", (game.id,)).fetchone():
            continue                                  # already stored: skipped by the merge
        while (game.agent, game.opponent, game.game_index) in taken:
            game.game_index += 1
        taken.add((game.agent, game.opponent, game.game_index))
