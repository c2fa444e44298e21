"""The paper's ladder for one person: mc:1, 2, 5, 10, 100, 1000, a few games each.

A campaign is a run of kind ``campaign`` per handle, pack and language.  Its
games use the bench's deals (game ``i`` is dealt from the run seed and ``i``,
seats alternate), so a person's games are paired with the models' games of a
bench run with the same seed.  Where the person stands is read from the store,
so leaving and coming back needs no other state.  ``CampaignDealer`` deals the
ladder's games to the app (a ``Dealer``, as ``tcgtui.deals``' are).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from typing import Any

from tcgtui import locales
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.bench.plan import agent_seat, deal_seed
from tcgtui.errors import UserError
from tcgtui.live import LiveGame, abandon_unfinished, human_spec
from tcgtui.games.tcg.packs import DEFAULT_PACK, load_pack
from tcgtui.store import FINISHED, IN_PROGRESS, GameRow, Run, Store
from tcgtui.deals import Deal, Note, person_deal
from tcgtui.play_config import Settings

# The paper's ladder, then the two rungs above it that answer a person within the TUI's budget
# (docs/ladder.md).  A campaign begun on a shorter ladder (the paper's alone) gains the levels on top.
LADDER = ("mc:1", "mc:2", "mc:5", "mc:10", "mc:100", "mc:1000", "nmc:100", "nmc:200")
DEFAULT_GAMES = 3
KIND = "campaign"


@dataclass
class Level:
    opponent: str
    target: int
    finished: int = 0
    wins: int = 0
    draws: int = 0
    started: int = 0          # every game begun at this level, abandoned ones included

    @property
    def complete(self) -> bool:
        return self.finished >= self.target


@dataclass
class Campaign:
    run: Run
    handle: str
    lang: str
    levels: list[Level]

    @property
    def seed(self) -> int:
        return int(self.run.config["seed"])

    def current(self) -> int | None:
        """Index of the first level still to play, or None when the ladder is done."""
        return next((i for i, lvl in enumerate(self.levels) if not lvl.complete), None)

    def next_game(self) -> tuple[str, int, int, int]:
        """(opponent, game index, seed, the person's seat) of the next game to start."""
        i = self.current()
        if i is None:
            raise UserError(locales.load().t("humans.campaign_done"))
        level = self.levels[i]
        index = level.started
        return level.opponent, index, deal_seed(self.seed, index), agent_seat(index)


def run_name(handle: str, pack: Pack, lang: str) -> str:
    return f"{KIND}-{handle}-{pack.id}-{pack.short_hash}-{lang}"


def open_campaign(store: Store, handle: str, pack: Pack, lang: str, games: int = DEFAULT_GAMES,
                  seed: int = 0) -> Campaign:
    """The person's campaign for this pack and language, created on first use."""
    name = run_name(handle, pack, lang)
    run = store.run(name)
    config = {"kind": KIND, "handle": handle, "ladder": list(LADDER), "games_per_level": games,
              "lang": lang, "seed": seed, "pack": {"id": pack.id, "hash": pack.hash}}
    if run is None:
        run = store.create_run(name, config, kind=KIND)
    elif run.config.get("games_per_level") != games or _grown(run.config.get("ladder")):
        config["seed"] = run.config["seed"]
        store.update_run_config(run.id, config)
        run = store.run(name) or run
    return Campaign(run, handle, lang, progress(store, run, handle, games))


def progress(store: Store, run: Run, handle: str, games: int) -> list[Level]:
    levels = {spec: Level(spec, games) for spec in run.config.get("ladder", LADDER)}
    rows: list[GameRow] = store.games("run_id = ? AND agent = ?", (run.id, human_spec(handle)))
    for g in rows:
        level = levels.get(g.opponent)
        if level is None:
            continue
        level.started += 1
        if g.status == FINISHED:
            level.finished += 1
            level.wins += g.winner == g.agent_seat
            level.draws += g.winner is None
    return list(levels.values())


def unfinished_game(store: Store, campaign: Campaign) -> GameRow | None:
    rows = store.games("run_id = ? AND status = ?", (campaign.run.id, IN_PROGRESS))
    return rows[-1] if rows else None


def card_source(pack_source: str) -> dict[str, Any]:
    """What --resume needs to rebuild a card game: its pack as --pack said it."""
    return {"game": "tcg", "params": {"pack": pack_source}}


def _grown(stored: Any) -> bool:
    """Whether the stored ladder is this one's beginning: levels were added on top since."""
    return isinstance(stored, list) and len(stored) < len(LADDER) and tuple(stored) == LADDER[: len(stored)]


@dataclass
class CampaignDealer:
    """The ladder: the campaign's unfinished game first, then the next game of the lowest open level."""

    store: Store
    pack: Pack
    pack_source: str
    handle: str
    lang: str                    # a campaign is one language's ladder; toggling the language only changes the screen
    games: int
    seed: int
    first: LiveGame | None = None   # the campaign's unfinished game, carried on first

    @classmethod
    def open(cls, store: Store, pack: Pack, pack_source: str, handle: str, lang: str, games: int,
             seed: int) -> CampaignDealer:
        """The person's ladder for this pack and language; a finished ladder is a one-line error."""
        dealer = cls(store, pack, pack_source, handle, lang, games, seed)
        campaign = dealer.campaign()
        row = unfinished_game(store, campaign)
        if row is not None:
            dealer.first = LiveGame.reopen(store, row)
        elif campaign.current() is None:
            raise UserError(locales.load().t("humans.campaign_done", games=games))
        return dealer

    def campaign(self) -> Campaign:
        return open_campaign(self.store, self.handle, self.pack, self.lang, self.games, self.seed)

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        if previous is None and self.first is not None:
            return self._deal(self.first, self.campaign())
        campaign = self.campaign()
        # A game shown but left unfinished (it failed) is not carried on: it counts as abandoned.
        if abandon_unfinished(self.store, human_spec(self.handle), run_id=campaign.run.id):
            campaign = self.campaign()
        if campaign.current() is None:
            return None
        opponent, index, seed, seat = campaign.next_game()
        live = LiveGame.begin(self.store, TcgGame(self.pack), seed, agent=human_spec(self.handle),
                              opponent=opponent, agent_seat=seat, lang=self.lang, run_id=campaign.run.id,
                              game_index=index, resume={**card_source(self.pack_source), "vs": opponent})
        return self._deal(live, campaign)

    def _deal(self, live: LiveGame, campaign: Campaign) -> Deal:
        level = next(i for i, lvl in enumerate(campaign.levels) if lvl.opponent == live.row.opponent)
        note = ("tcg.campaign.level", {"level": level + 1, "levels": len(campaign.levels),
                                      "game": campaign.levels[level].finished + 1,
                                      "games": campaign.levels[level].target})
        return person_deal(live, note, self.standing)

    def standing(self) -> Note:
        """Where the person stands on the ladder, for the game-over screen."""
        campaign = self.campaign()
        played = sum(min(lvl.finished, lvl.target) for lvl in campaign.levels)
        total = sum(lvl.target for lvl in campaign.levels)
        i = campaign.current()
        if i is None:
            return "tcg.campaign.done", {"total": total}
        level = campaign.levels[i]
        return "tcg.campaign.after", {"played": played, "total": total, "next": level.opponent,
                                     "game": level.finished + 1, "games": level.target}


# What ``tcgtui play --campaign``, ``--resume`` and home ask of a game with a ladder (GameInfo.campaign),
# through its app side's ``campaign`` (``tcgtui.app_side.Ladder``).

def open_dealer(store: Store, params: dict[str, Any], given: dict[str, Any], person: str, lang: str, games: int,
                seed: int) -> CampaignDealer:
    """The person's ladder for the game's parameters (``params`` loaded, ``given`` as --resume stores them)."""
    return CampaignDealer.open(store, params["pack"], given["pack"], person, lang, games, seed)


def resume_dealer(store: Store, live: LiveGame, stored: dict[str, Any], handle: str, lang: str,
                  config: dict[str, Any]) -> CampaignDealer:
    """The ladder a stored campaign game belongs to (its run's ``config``), carrying that game on first."""
    return CampaignDealer(store, live.game.pack, stored["pack"], handle, lang, int(config["games_per_level"]),
                          int(config["seed"]), first=live)


def home_dealer(store: Store, settings: Settings) -> Settings:
    """Home's campaign: ``settings`` for the built-in default pack's ladder, where the person left it
    (in the language the person plays in when the game starts)."""
    return replace(settings, params={"pack": load_pack(DEFAULT_PACK)}, game=None,
                   dealer_for=lambda now: CampaignDealer.open(store, now.params["pack"], DEFAULT_PACK, now.handle,
                                                              now.lang, DEFAULT_GAMES, 0))
