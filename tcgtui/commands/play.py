"""``tcgtui play``: a person against any player, in the terminal, every game recorded.

Three ways in: a new game against ``--vs`` (rematches follow; ``--vs human`` seats a second
person at this keyboard, taking turns), ``--campaign``
(the paper's ladder, where the person left it), or ``--resume [GAME]`` (an
unfinished game, exactly where it stopped: the one started last, or GAME by its id).  Games go to the same store as the
bench's, under the person's anonymous handle, saved after every move.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.llm_options import add_endpoint_arguments, endpoint_options
from tcgtui import config
from tcgtui.app_side import app_for
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.live import RESUME_KEY, LiveGame, human_spec, resume_source, unfinished
from tcgtui.arena import game_spec
from tcgtui.engine import registry
from tcgtui.store import Store, add_db_argument, open_store
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import SpecError, check_supported, parse_spec
from tcgtui.deals import FreeDealer, WatchDealer, person_seats
from tcgtui.play_config import Settings
from tcgtui.commands.options import add_display_arguments, check_spec, own_players, settings_from

DEFAULT_VS = "mc:100"
# Parameter kinds naming a file or folder every game may use; a game adds its own (its app side's
# resources.BY_PATH).  --resume loads them again by absolute path; a value naming none is a
# built-in's name, kept as given.
FILE_KINDS = ("jsonl",)


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--vs", default=None, metavar="SPEC", help=text.t("cmd_play.vs", own=own_players()))
    p.add_argument("--name", default="", metavar="HANDLE", help=text.t("cmd_play.name"))
    p.add_argument("--seat", type=int, default=None, metavar="1|2", help=text.t("cmd_play.seat"))
    p.add_argument("--dealer", default=None, metavar="SPEC", help=text.t("cmd_play.dealer"))
    p.add_argument("--race", default=None, metavar="SPEC", help=text.t("cmd_play.race"))
    p.add_argument("--resume", nargs="?", const=True, default=False, metavar="GAME", help=text.t("cmd_play.resume"))
    p.add_argument("--campaign", action="store_true", help=text.t("cmd_play.campaign"))
    p.add_argument("--campaign-games", type=int, default=None, metavar="N",
                   help=text.t("cmd_play.campaign_games", default=", ".join(map(str, ladder_defaults()))))
    add_display_arguments(p, text, "cmd_play")
    add_db_argument(p, text)
    add_endpoint_arguments(p, text)


def ladder_defaults() -> list[int]:
    """Games per level of each registered ladder (GameInfo.campaign), as its app side declares them."""
    roles = (app_for(g.id).campaign for g in registry.games() if g.info.campaign)
    return sorted({role.load().DEFAULT_GAMES for role in roles if role is not None})


def campaign_games(args: argparse.Namespace, ladder: Any) -> int:
    """--campaign-games, else the ladder's own number of games per level."""
    return ladder.DEFAULT_GAMES if args.campaign_games is None else args.campaign_games


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    handle = config.check_handle(args.name) if args.name else config.saved_handle()
    for flag, given in (("--vs", args.vs), ("--seat", args.seat), ("--dealer", args.dealer), ("--race", args.race)):
        if given is not None and (args.resume or args.campaign):
            key = "humans.resume_conflict" if args.resume else "humans.campaign_conflict"
            raise UserError(text.t(key, flag=flag))
    if args.resume and args.campaign:
        raise UserError(text.t("humans.campaign_conflict", flag="--resume"))
    if args.campaign_games is not None and not 1 <= args.campaign_games <= 100:
        raise UserError(text.t("humans.bad_campaign_games", value=args.campaign_games))
    if args.seat not in (None, 1, 2):
        raise UserError(f"--seat: {args.seat} is not a seat; expected 1 (moves first) or 2")
    if args.campaign and not game_spec(args.game).info.campaign:
        raise UserError(text.t("humans.card_game_only", flag="--campaign"))
    if args.game != config.default_game() and args.resume:       # --game given: a resume plays its own
        raise UserError(text.t("humans.resume_conflict", flag="--game"))
    if args.resume and handle is None:
        raise UserError(text.t("humans.no_handle"))
    fresh = None if args.resume else start(args, handle)     # bad flags are refused before the store is touched
    with open_store(args.db, create=True) as store:
        settings = resume(args, store, handle) if fresh is None else seat(fresh, args, store, handle)
        from tcgtui.tui.app import ArenaApp        # Textual loads only once a screen is wanted
        app = ArenaApp(settings)
        app.run()
        farewell(store, settings.handle, app.deal)
    if app.refusal is not None:
        raise app.refusal
    return app.return_code or 0


def start(args: argparse.Namespace, handle: str | None) -> Settings:
    """The settings of a new game against --vs, or of the campaign; every flag checked.
    A one-seat game (Eleusis) seats the person alone: --vs and --seat have nothing to choose."""
    for flag, given in (("--dealer", args.dealer), ("--race", args.race)):
        if given is not None and game_spec(args.game).info.seats != 1:
            raise UserError(locales.load().t("humans.solo_only", flag=flag, game=args.game))
    if args.dealer is not None and args.race is not None:
        raise UserError(locales.load().t("humans.dealer_race"))
    if game_spec(args.game).info.seats == 1:
        for flag, given in (("--vs", args.vs), ("--seat", args.seat)):
            if given is not None:
                raise UserError(locales.load().t("humans.one_seat", flag=flag, game=args.game))
        if args.dealer is not None:      # the person deals (writes the secret rule) and watches SPEC play
            settings = settings_from(args, (check_spec("--dealer", args.dealer, args.game),), handle=handle or "")
            return replace(settings, setup=True)
        if args.judge:                   # --judge: checked before the screen opens (a person's guesses in words)
            from tcgtui.opponents.llm.followup import judge_settings   # httpx: only when a judge is asked for
            judge_settings(endpoint_options(args))
        settings = settings_from(args, (HUMAN,), handle=handle or "")
        if args.race is not None:        # the same deal for SPEC, side by side, out of sight until the end
            settings = replace(settings, rival=check_spec("--race", args.race, args.game))
        return settings
    if args.vs is not None and args.vs.strip() == HUMAN:     # two people at one keyboard (hot-seat)
        opponent = HUMAN
    else:
        opponent = DEFAULT_VS if args.campaign else check_spec("--vs", args.vs or default_opponent(args.game), args.game)
    seats = (HUMAN, opponent) if (args.seat or 1) == 1 else (opponent, HUMAN)
    settings = settings_from(args, seats, handle=handle or "")
    return replace(settings, person=(args.seat or 1) - 1)    # with --vs human, the seat kept under the handle


def default_opponent(game_id: str) -> str:
    """--vs left out: mc:100, as home offers first; in a game no search plays (the duel), the game's own
    first player at its default level, as home offers it there."""
    game = game_spec(game_id)
    own = [f"{r.name}:{r.default_arg}" if r.takes_arg and r.default_arg is not None else r.name
           for r in game.references if not r.protocol]
    for spec in (DEFAULT_VS, *own):
        try:
            check_supported(parse_spec(spec), game)
        except SpecError:
            continue
        return spec
    return DEFAULT_VS          # no player of its own either: --vs's check says which ones it takes


def as_given(settings: Settings) -> dict[str, Any]:
    """The game's parameters as the command line gave them, for --resume to load again: a loaded
    file (a question set, a pack) cannot be stored, its name can; a file or folder by its absolute path."""
    params = dict(settings.given)
    own = app_for(settings.game_id).resources
    kinds = FILE_KINDS + (own.load().BY_PATH if own is not None else ())
    for p in registry.get(settings.game_id).info.params:
        value = params.get(p.name)
        if p.kind in kinds and isinstance(value, str) and value and Path(value).expanduser().exists():
            params[p.name] = str(Path(value).expanduser().resolve())
    return params


def seat(settings: Settings, args: argparse.Namespace, store: Store, handle: str | None) -> Settings:
    """Wire the games to the store: the campaign where the person left it, or games against --vs;
    a dealer's rounds are stored whole, like watched games, once the rule is written."""
    if args.dealer is not None:         # the game as the dealer set it up (the setup dialog's answer)
        return replace(settings, dealer_for=lambda now: WatchDealer(store, registry.get(now.game_id).game(now.params),
                                                                    now.seats, now.seed))
    opponent, mine = settings.opponent, settings.person_seat     # "": a one-seat game; "human": hot-seat
    game = settings.game.seated(mine)
    where = {"game": settings.game_id, "params": as_given(settings)}
    spec = game.spec
    seated = spec.setup_params(game.setup()) if spec.setup_params is not None else {}
    if seated:          # --resume rebuilds the game as seated (the card game's deck lists), without the files
        where["params"].update(seated)
    # the app's game is the dealer's: players search the decks as seated
    settings = replace(settings, params={**settings.params, **seated}, game=game)

    if settings.rival:
        rivals = WatchDealer(store, game, (settings.rival,), settings.seed)
        settings = replace(settings, keep_rival=rivals.keep)

    role = app_for(settings.game_id).campaign if args.campaign else None    # GameInfo.campaign: checked
    ladder = role.load() if role is not None else None

    def dealer(now: Settings) -> Any:
        if ladder is not None:
            return ladder.open_dealer(store, now.params, where["params"], now.handle, now.lang,
                                      campaign_games(args, ladder), args.seed or 0)
        # --seed S deals S, S+1, ... as ever (a session dealt again); without it, a fresh unmet seed per game
        return FreeDealer(store, game, where, now.handle, opponent, mine, args.seed)
    if handle is None:
        return replace(settings, dealer_for=dealer, ask_handle=True)
    ready = dealer(settings)       # a finished ladder is an error before the screen opens
    return replace(settings, dealer_for=lambda now: ready)


def resume(args: argparse.Namespace, store: Store, handle: str) -> Settings:
    """An unfinished game of this handle (--resume GAME: the one whose id starts so; --resume: the one
    started last), with its own files (a pack), language, opponent and seat."""
    rows = unfinished(store, human_spec(handle))
    if not rows:
        raise UserError(locales.load().t("humans.nothing_to_resume", handle=handle, db=str(store.path)))
    row = rows[-1] if args.resume is True else chosen_game(rows, str(args.resume), handle)
    live = LiveGame.reopen(store, row)
    run = next((r for r in store.runs() if r.id == row.run_id), None)
    game_id, params = resume_source(row.record.get(RESUME_KEY) or {}, row)
    args.lang, args.game = row.lang, game_id
    loaded = {p.name: file for p, file in live.game.spec.files(live.game)}    # as checked against their digests
    settings = settings_from(args, person_seats(row), handle=handle, loaded=loaded or None)
    if not loaded:           # the parameters as stored (files by name, loaded again), else the game's setup's
        names = {p.name for p in registry.get(game_id).info.params}
        stored = dict(params) if params else {k: v for k, v in live.game.setup().items() if k in names}
    else:                    # its files as loaded, the rest as stored (the card game's deck lists, as seated)
        stored = {**settings.params, **{k: v for k, v in params.items() if k not in loaded}}
    # the game as stored, rebuilt once: the app's is the dealer's
    settings = replace(settings, person=row.agent_seat, params=stored, game=live.game)
    role = app_for(game_id).campaign
    ladder = role.load() if role is not None else None
    if run is not None and ladder is not None and run.kind == ladder.KIND:
        campaign = ladder.resume_dealer(store, live, params, handle, row.lang, run.config)
        return replace(settings, dealer_for=lambda now: campaign)
    where = {"game": game_id, "params": params}
    # rematches go on from the game's seed, as under --seed (a session dealt again carries on alike)
    return replace(settings, dealer_for=lambda now: FreeDealer(store, live.game, where, handle, row.opponent,
                                                               row.agent_seat, row.seed + 1, first=live))


def chosen_game(rows: list[Any], given: str, handle: str) -> Any:
    """The unfinished game whose id starts with ``given`` (as home and the farewell show it, 8 characters)."""
    text = locales.load()
    given = given.strip().lower()
    found = [r for r in rows if given and r.id.lower().startswith(given)]
    if len(found) != 1:
        ids = ", ".join(r.id[:8] for r in reversed(rows))
        raise UserError(clean(text.t("humans.resume_which", game=given, handle=handle, ids=ids)))
    return found[0]


def farewell(store: Store, handle: str, left: Any) -> None:
    """After the screen closes: say what is saved of the game the person left (a ``Deal``),
    so nobody thinks it was lost, and name no other game."""
    if not handle or left is None or left.kept is None:
        return
    text = locales.load()
    kept = left.kept()
    if kept is None:
        print(text.t("humans.nothing_saved"))
        return
    row = next((r for r in unfinished(store, human_spec(handle)) if r.id == kept[0]), None)
    if row is not None:
        print(clean(text.t("humans.saved_unfinished", game=row.id[:8], moves=row.moves)))
