"""``tcgtui`` with no arguments: the home screen, the hub every game starts from and returns to.

Not a subcommand: ``tcgtui.cli`` opens it when nothing is typed after ``tcgtui``.
Games started here are recorded like ``tcgtui play``'s (the person's handle is
asked once), so people's games of every game stand beside the models' in reports.
``Hub`` is how the home screen reaches the store: the tables of a new game, of
the campaign and of an unfinished game to continue (on the app's thread), and
the file the screen's worker reads the record and the games from.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tcgtui import config, rtl
from tcgtui.engine import registry
from tcgtui.play_config import DealerFor, KeepRival, Settings
from tcgtui.store import Store, open_store

DEFAULT_VS = "mc:100"      # the opponent chosen first, as tcgtui play's --vs


@dataclass
class Hub:
    store: Store
    seed: int | None = None        # deals from this seed on, as tcgtui play --seed (perf); None: a fresh one each

    @property
    def path(self) -> Path:
        return self.store.path

    def free(self) -> DealerFor:
        """A new game of the chosen game against the chosen opponent, rematches after it; each dealt
        from a fresh seed the person never met in that game (``FreeDealer`` without a seed), unless
        the hub was given one."""
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.commands.play import as_given
        from tcgtui.deals import FreeDealer

        def dealer(settings: Settings) -> FreeDealer:
            game = registry.get(settings.game_id).game(settings.params)
            # stored as tcgtui play stores them, for a later --resume: files by path, as given at home
            where = {"game": settings.game_id, "params": as_given(settings)}
            seat = settings.person_seat                 # with a second person at the keyboard: the handle's seat
            return FreeDealer(self.store, game.seated(seat), where, settings.handle, settings.opponent, seat,
                              self.seed)
        return dealer

    def rival_keeper(self, settings: Settings) -> KeepRival:
        """Where a race's rival round is kept: stored whole, like a watched game (tcgtui play --race)."""
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.deals import WatchDealer

        def keep(*result: Any) -> None:      # the game as the app prepared it, once the race is over
            game = registry.get(settings.game_id).game(settings.params)
            WatchDealer(self.store, game, (settings.rival,), settings.seed).keep(*result)
        return keep

    def campaign(self, settings: Settings) -> Settings:
        """``settings`` for the game's ladder, where the person left it (tcgtui play --campaign; GameInfo.campaign)."""
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.app_side import app_for
        return app_for(settings.game_id).campaign.load().home_dealer(self.store, settings)  # type: ignore[union-attr]

    def resume(self, settings: Settings, game_id: str) -> Settings:
        """``settings`` that carry on the person's unfinished game ``game_id`` where it stopped."""
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.arena import load_resources
        from tcgtui.app_side import app_for
        from tcgtui.live import RESUME_KEY, LiveGame, resume_source
        from tcgtui.deals import FreeDealer, person_seats
        row = next(r for r in self.store.games("id = ?", (game_id,)))
        live = LiveGame.reopen(self.store, row)
        game_id, params = resume_source(row.record.get(RESUME_KEY) or {}, row)
        spec = registry.get(game_id)
        names = {p.name for p in spec.info.params}
        given = dict(params) if params else {k: v for k, v in live.game.setup().items() if k in names}
        loaded = {p.name: file for p, file in spec.files(live.game)}    # as checked against their digests
        settings = replace(settings, game_id=game_id, seats=person_seats(row), game=live.game,
                           params=load_resources(spec, {**given, **loaded}), person=row.agent_seat)
        run = next((r for r in self.store.runs() if r.id == row.run_id), None)
        role = app_for(game_id).campaign
        side = role.load() if role is not None else None
        if run is not None and side is not None and run.kind == side.KIND:
            ladder = side.resume_dealer(self.store, live, params, settings.handle, row.lang, run.config)
            return replace(settings, dealer_for=lambda settings: ladder)
        where = {"game": game_id, "params": params}
        return replace(settings, dealer_for=lambda settings: FreeDealer(
            self.store, live.game, where, settings.handle, row.opponent, row.agent_seat, self.seed, first=live))


def run() -> int:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.opponents.human import HUMAN
    from tcgtui.tui.app import ArenaApp, Settings

    handle = config.saved_handle()
    with open_store(None, create=True) as store:
        settings = Settings(home=True, rtl_mode=rtl.resolve_mode(None), lang=config.saved_language(),
                            handle=handle or "", ask_handle=handle is None, seats=(HUMAN, DEFAULT_VS),
                            hub=Hub(store))
        app = ArenaApp(settings)
        app.run()
    if app.refusal is not None:
        raise app.refusal
    return app.return_code or 0
