"""The grid benchmark's published games as stored games: ``tcgtui grid import DIR``.

Its repository keeps, under ``outputs/``, one ``*_all_moves.csv`` per published run: a row per move
with the game's type, prompt type, players and result, the move's player, the reply as logged and the
outcome its simulator gave (Valid, Invalid Format, Already Taken, Out of Bounds); a run published only
as ``*_all_moves.json`` names each game ``Moves_TYPE_PROMPT_PLAYER1_PLAYER2_RESULT_DATETIME``.  Each game is played
again through tcgtui's seed protocol (``judge_reply``, the grid rules with the seed's limits): a move
whose outcome or a game whose result would come out otherwise is refused in one line naming the file,
the game and the move.  A game the seed abandoned on a network error is stored as errored (counted
apart, as tcgtui counts its own).  The image-prompt runs publish no moves and are not imported.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from tcgtui.engine.core import IllegalMove, Match
from tcgtui.engine.grid.game import GridGame
from tcgtui.engine.grid.seed import GAME_TYPES, KINDS, REPOSITORY, VALID, judge_reply
from tcgtui.engine.grid.state import result_code
from tcgtui.engine.protocols import SEED
from tcgtui.errors import UserError
from tcgtui.match import ERRORED, FINISHED, DecisionRecord, MatchResult
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import kinds
from tcgtui.store.db import DecisionRow, GameRow
from tcgtui.store.rows import decision_rows, game_row

PATTERN = "*_all_moves.csv"
JSON_PATTERN = "*_all_moves.json"       # the same moves, where a run has no CSV twin
COLUMNS = ("UUID", "DateTime", "GameType", "PromptType", "GameNumber", "Player1", "Player2", "Result", "MoveNumber",
           "MovePlayer", "MoveOutcome", "Response")
GAME_IDS = {v: k for k, v in GAME_TYPES.items()}
STYLES = ("list", "illustration")
ABANDONED_RESULT = "networkerror"      # the seed gave up on the game after network errors
NAME_LIMIT = 128
KINDS_BY_KIND = {kind: name for name, kind in KINDS.items()}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass
class Published:
    """One published game: where it is, what it was, and its moves (player 1 or 2, outcome, reply)."""

    path: Path
    line: int                               # the line of its first move
    game_id: str
    style: str
    players: tuple[str, str]
    result: str
    key: str                                # UUID and game number: the game's identity in the file
    started: str                            # its DateTime (yymmdd-HHMMSS) as an ISO time
    moves: list[tuple[int, str, str]] = field(default_factory=list)


def move_files(folder: str) -> list[Path]:
    """The moves files of a checkout (its ``outputs/``) or of the folder itself."""
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise UserError(f"tcgtui grid import: {folder!r} is not a folder; expected a checkout of {REPOSITORY} "
                        "or its outputs/ folder")
    folder_of = root / "outputs" if (root / "outputs").is_dir() else root
    files = sorted(folder_of.glob(PATTERN))
    files += [p for p in sorted(folder_of.glob(JSON_PATTERN)) if not p.with_suffix(".csv").exists()]
    if not files:
        raise UserError(f"tcgtui grid import: {folder} has no outputs/{PATTERN}; expected a checkout of "
                        f"{REPOSITORY} or its outputs/ folder")
    return files


def _name(at: str, key: str, name: str) -> str:
    """A model of the seed's, never a tcgtui player or a person (nor text with control characters)."""
    if not name.strip() or len(name) > NAME_LIMIT or _CONTROL.search(name):
        raise UserError(f"{at}: {key}: expected a model's name of 1 to {NAME_LIMIT} printable "
                        "characters")
    if name.partition(":")[0] in (HUMAN, *kinds()):
        raise UserError(f"{at}: {key} {name[:40]!r}: expected a model's name, not a tcgtui "
                        "player or a person")
    return name


def _time(text: str) -> str:
    """``240617-103605`` as ``2024-06-17T10:36:05`` (the seed's local time, as it wrote it); else as given."""
    m = re.fullmatch(r"(\d\d)(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)", text.strip())
    return f"20{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6]}" if m else _CONTROL.sub("", text)[:40]


def read_games(path: Path) -> list[Published]:
    """Every game of one moves file, checked whole; UserError naming the file, the line and what was expected."""
    return _read_json(path) if path.suffix == ".json" else _read_csv(path)


def _read_json(path: Path) -> list[Published]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"{path}: not a JSON file ({str(exc).splitlines()[0] if str(exc) else exc!r})") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected the grid benchmark's moves file, an object of games by name")
    rows = []
    for number, (name, moves) in enumerate(data.items(), 1):
        parts = str(name).split("_")
        if len(parts) != 7 or parts[0] != "Moves" or not isinstance(moves, list) or \
                not all(isinstance(m, dict) for m in moves):
            raise UserError(f"{path}: game {number} {str(name)[:60]!r}: expected "
                            "Moves_TYPE_PROMPT_PLAYER1_PLAYER2_RESULT_DATETIME and a list of moves")
        _, kind, style, first, second, result, stamp = parts
        rows += [{"UUID": name, "DateTime": stamp, "GameType": kind, "PromptType": style, "GameNumber": "",
                  "Player1": first, "Player2": second, "Result": result, "MovePlayer": str(m.get("Player")),
                  "MoveOutcome": str(m.get("Outcome")), "Response": str(m.get("Response"))} for m in moves]
    return _games(path, rows, 1, "move")


def _read_csv(path: Path) -> list[Published]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
            header = rows[0].keys() if rows else ()
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UserError(f"{path}: cannot be read as CSV ({exc})") from None
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise UserError(f"{path}: expected the grid benchmark's moves file, with the columns "
                        f"{', '.join(COLUMNS)}; missing {', '.join(missing)}")
    return _games(path, rows, 2, "line")


def _games(path: Path, rows: list[dict[str, str]], first_line: int, unit: str) -> list[Published]:
    """The games of a file's move rows, in order; a row is named by its CSV line, or by ``move N``
    counted over the whole JSON file."""
    games: dict[str, Published] = {}
    for line, row in enumerate(rows, first_line):
        at = f"{path}, {unit} {line}"
        key = f"{row['UUID']}#{row['GameNumber']}"
        game = games.get(key)
        if game is None:
            if row["GameType"] not in GAME_IDS:
                raise UserError(f"{at}: GameType {row['GameType'][:40]!r}: expected one of "
                                f"{', '.join(GAME_IDS)}")
            if row["PromptType"] not in STYLES:
                raise UserError(f"{at}: PromptType {row['PromptType'][:40]!r}: expected one of "
                                f"{', '.join(STYLES)} (the image runs publish no moves)")
            players = (_name(at, "Player1", row["Player1"]), _name(at, "Player2", row["Player2"]))
            game = games[key] = Published(path, line, GAME_IDS[row["GameType"]], row["PromptType"], players,
                                          row["Result"], key, _time(row["DateTime"]))
        if row["MovePlayer"] not in ("1", "2") or row["MoveOutcome"] not in (VALID, *KINDS):
            raise UserError(f"{at}: expected MovePlayer 1 or 2 and MoveOutcome one of "
                            f"{', '.join((VALID, *KINDS))}")
        game.moves.append((int(row["MovePlayer"]), row["MoveOutcome"], row["Response"]))
    return list(games.values())


def number_games(taken: set[tuple[str, str, int]], games: list[tuple[GameRow, list[DecisionRow]]]) -> None:
    """Each game the next free index of its pair in the run (``taken``: the run's stored ones)."""
    for row, _ in games:
        while (row.agent, row.opponent, row.game_index) in taken:
            row.game_index += 1
        taken.add((row.agent, row.opponent, row.game_index))


def replay(game: Published, run_id: int | None) -> tuple[GameRow, list[DecisionRow]]:
    """The published game played again under the seed's protocol, as store rows."""
    grid = GridGame(game.game_id, protocol=SEED)
    match = Match(grid, 0)
    decisions: list[DecisionRecord] = []
    where = f"{game.path}, game {game.key} (from line {game.line})"
    for number, (player, outcome, reply) in enumerate(game.moves, 1):
        state = match.state
        if state.is_terminal() or player != state.to_move + 1:
            raise UserError(f"{where}: move {number} is player {player}'s; expected "
                            + ("none: the game is over" if state.is_terminal() else f"player {state.to_move + 1}'s"))
        judged = judge_reply(grid.config, list(state.observation(state.to_move).board), reply)
        ours = VALID if judged.kind is None else KINDS_BY_KIND[judged.kind]
        if ours != outcome:
            raise UserError(f"{where}: move {number}: the seed judged it {outcome!r}, its reply reads {ours!r} "
                            "under the seed's protocol")
        info = {"reply": reply, "parse_path": "seed", **({"invalid": 1} if judged.move is None else {})}
        try:
            if judged.move is None:
                decisions.append(DecisionRecord(len(match.moves), number, player - 1, "", 0.0, info))
                match.play_invalid(judged.kind, reply)
            else:
                decisions.append(DecisionRecord(len(match.moves), number, player - 1, judged.move, 0.0, info))
                match.play(judged.move)
        except IllegalMove as exc:
            raise UserError(f"{where}: move {number}: {exc}") from None
    ours = result_code(match.state.outcome) if match.state.is_terminal() else None
    if game.result == ABANDONED_RESULT and ours is None:
        result = MatchResult(match.record(), decisions, ERRORED, None, "the seed abandoned the game (network error)")
    elif ours == game.result:
        result = MatchResult(match.record(), decisions, FINISHED, match.state.outcome)
    else:
        raise UserError(f"{where}: the seed's result is {game.result!r}, the moves give {ours or 'no result'!r}")
    digest = hashlib.sha256(f"{game.path.name}\n{game.key}".encode("utf-8")).hexdigest()[:32]
    row = game_row(result, game=grid, agent=game.players[0], opponent=game.players[1], lang="en", game_index=0,
                   agent_seat=0, run_id=run_id, started_at=game.started, finished_at=None,
                   options={"prompt_style": game.style, "source": REPOSITORY, "file": game.path.name})
    row.id = "grid-" + digest
    return row, decision_rows(decisions, game.players, grid)

