"""Find a stored game by its id (or a unique prefix) and rebuild every position it went through.

The positions come from the engine, not from the stored events: the game is
built again from the parameters it was played with (``record.setup``, or what
a person's game kept for ``--resume``), dealt from its seed, and each stored
move is applied in turn.  Referee moves (a duel's checks, stored with their
verdicts) replay without running anything.
"""

from __future__ import annotations

from typing import Any

from tcgtui import locales
from tcgtui.console_text import clean, shorten
from tcgtui.engine import registry
from tcgtui.engine.core import INVALID, GameRecord, Match
from tcgtui.errors import UserError
from tcgtui.live import RESUME_KEY, check_files, rebuild_game
from tcgtui.opponents.human import HUMAN
from tcgtui.replay.moments import mark
from tcgtui.replay.steps import Replay, Step
from tcgtui.store import IN_PROGRESS, DecisionRow, GameRow, Store

SHOWN = 8          # ids named when a prefix matches several games
ID_LENGTH = 36     # a game's id is a UUID: 32 hex digits and 4 dashes


def find(store: Store, given: str, lang: str = locales.DEFAULT) -> GameRow:
    """The game whose id is ``given`` or starts with it; one clear line (in ``lang``) when none or several match."""
    text = locales.load(lang)
    key = given.strip().lower()
    if not key or len(key) > ID_LENGTH or any(c not in "0123456789abcdef-" for c in key):
        raise UserError(text.t("replay.bad_id", id=shorten(given, ID_LENGTH + 4)))
    rows = store.games("id LIKE ? ESCAPE '\\'", (key.replace("_", "\\_").replace("%", "\\%") + "%",))
    exact = [r for r in rows if r.id == key]
    if exact:
        return exact[0]
    if not rows:
        raise UserError(text.t("replay.unknown", id=given, db=str(store.path)))
    if len(rows) > 1:
        ids = ", ".join(r.id[:12] for r in rows[:SHOWN])
        raise UserError(text.t("replay.ambiguous", id=given, n=len(rows), ids=ids))
    return rows[0]


def stored_params(row: GameRow) -> dict[str, Any]:
    """The parameters the game was played with, as its registry spec takes them."""
    spec = registry.get(row.game)
    setup = dict(row.record.get("setup") or row.game_params)
    names = {p.name for p in spec.info.params}
    params = {k: v for k, v in setup.items() if k in names}
    if spec.setup_params is not None:      # what the setup alone says (the card game's deck lists, as seated)
        params.update(spec.setup_params(setup))
    return params


def rebuild(row: GameRow, lang: str = locales.DEFAULT) -> Any:
    """The game object ``row`` was played on; a file (a pack) that changed since is one line."""
    try:
        registry.get(row.game)
    except registry.UnknownGame:
        raise UserError(locales.load(lang).t("replay.no_game", id=row.id[:12], game=row.game)) from None
    resume = row.record.get(RESUME_KEY)
    if resume:                                    # a person's game: what --resume would rebuild
        game = rebuild_game(row, resume)
    else:
        game = rebuild_game(row, {"game": row.game, "params": stored_params(row)})
    check_files(game, row, lang, unrecorded_ok=True)
    return game


def positions(row: GameRow, decisions: list[DecisionRow], lang: str = locales.DEFAULT) -> Replay:
    """Every position of the stored game, each with the move, events and decision that led to it."""
    game = rebuild(row, lang)
    record = GameRecord.from_json(row.record)
    match = Match(game, record.seed)
    steps = [Step(0, match.state.clone(), events=list(match.events))]
    by_index = {d.idx: d for d in decisions}
    invalid = iter(record.invalid)
    for i, text in enumerate(record.moves):
        seat = match.state.current_player
        before = len(match.events)
        try:
            if text.startswith(INVALID):
                match.play_invalid(text[len(INVALID):], next(invalid, ""))
            else:
                match.play(game.move_from_text(text))
        except ValueError as exc:           # IllegalMove: the record does not fit the game as rebuilt
            raise UserError(locales.load(lang).t("replay.bad_record", id=row.id[:12], move=i + 1, why=str(exc)[:200]))
        steps.append(Step(i + 1, match.state.clone(), text, seat, match.events[before:], by_index.get(i)))
    return Replay(row, game, steps)


def load(store: Store, given: str, lang: str = locales.DEFAULT) -> Replay:
    """The stored game ``given`` names, every position rebuilt and its moments marked.  A game still
    under way is refused: its replay shows every hidden card, and it may yet be continued.  ``lang``:
    the language of a refusal (home's, where the person reads it on the screen)."""
    row = find(store, given, lang)
    if row.status == IN_PROGRESS:
        run = next((r for r in store.runs() if r.id == row.run_id), None)
        if row.agent.startswith(HUMAN + ":") or run is None:       # a person's: continued from home
            raise UserError(locales.load(lang).t("replay.unfinished", id=row.id[:8]))
        raise UserError(locales.load(lang).t("replay.unfinished_run", id=row.id[:8], run=clean(run.name)))
    replay = positions(row, store.decisions(row.id), lang)
    mark(replay)
    return replay
