"""Where the games of ``tcgtui play`` and ``tcgtui watch`` come from, and where they are kept.

A ``Deal`` is one game the app is asked to put on the board (seats, seed, where it is
kept); a ``Dealer`` deals them, one after another: ``PlainDealer`` from a seed on,
keeping nothing; ``FreeDealer`` and ``WatchDealer`` wire each game's moves and result
into the store.  A person's games are saved after every move (``LiveGame``), so
quitting or a crash keeps them and ``--resume`` carries on; watched games are stored
whole when they end, as the bench stores its games.  The app only calls
``Dealer.deal``; nothing here imports the interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from tcgtui.engine.core import Game, Match
from tcgtui.live import HUMAN, LiveGame, abandon_unfinished, human_spec
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.store import GameRow, Run, Store
from tcgtui.store.db import now
from tcgtui.store.rows import decision_rows, game_row, scrub_info

WATCH_RUN = "watch"

Note = tuple[str, dict[str, Any]]          # a locale key and its parameters


@dataclass
class Deal:
    """One game to put on the board: who sits where, from which seed, and where it is kept."""

    seed: int
    seats: tuple[str, ...]
    resume: Match | None = None                                   # a game under way, rebuilt from the store
    earlier: list[DecisionRecord] = field(default_factory=list)   # its moves so far (for the summary)
    on_move: Callable[[DecisionRecord], None] | None = None      # called after every move
    on_settled: Callable[[], None] | None = None                  # called after every referee's move (a verdict)
    on_result: Callable[[MatchResult], None] | None = None       # called once, when the game ends
    note: Note | None = None                                      # shown on the top bar (a campaign's level)
    after: Callable[[], Note] | None = None                       # shown on the game-over screen
    kept: Callable[[], tuple[str, int] | None] | None = None      # the stored game's id and moves (None: none yet)
    onward: str = "ui.keys.rematch"                               # the game-over dialog's R: what comes next


class Dealer(Protocol):
    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        """The next game (the first when ``previous`` is None); None when there is none."""


@dataclass
class PlainDealer:
    """Deals from a seed on (a rematch is the next seed) and keeps nothing."""

    seed: int
    seats: tuple[str, ...]

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        return Deal(self.seed if previous is None else previous.seed + 1, self.seats)


def person_seats(row: GameRow) -> tuple[str, str]:
    """A stored person's game as the app seats it: the person's seat is the keyboard."""
    return tuple(HUMAN if spec == row.agent else spec for spec in row.seats)  # type: ignore[return-value]


def person_deal(live: LiveGame, note: Note | None = None, after: Callable[[], Note] | None = None) -> Deal:
    return Deal(live.match.seed, person_seats(live.row), resume=live.match, earlier=live.earlier,
                on_move=live.on_decision, on_settled=live.save, on_result=live.finish, note=note, after=after,
                kept=live.kept)


@dataclass
class FreeDealer:
    """A person against one opponent in any game, game after game; a rematch is the next seed."""

    store: Store
    game: Game
    source: dict[str, Any]       # how --resume rebuilds the game: {"game": id, "params": {...}} (see live.py)
    handle: str
    opponent: str
    seat: int
    seed: int
    first: LiveGame | None = None   # a game to carry on before dealing new ones

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        if previous is None and self.first is not None:
            return person_deal(self.first)
        agent = human_spec(self.handle)
        abandon_unfinished(self.store, agent)
        seed = self.seed if previous is None else previous.seed + 1
        live = LiveGame.begin(self.store, self.game, seed, agent=agent, opponent=self.opponent,
                              agent_seat=self.seat, lang=lang, resume={**self.source, "vs": self.opponent})
        return person_deal(live)


@dataclass
class WatchDealer:
    """Two agents; each finished (or errored) game is stored whole in the ``watch`` run."""

    store: Store
    game: Game
    seats: tuple[str, ...]
    seed: int

    def run(self) -> Run:
        run = self.store.run(WATCH_RUN)
        return run if run is not None else self.store.create_run(WATCH_RUN, {"kind": WATCH_RUN}, kind=WATCH_RUN)

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        seed = self.seed if previous is None else previous.seed + 1
        started = now()
        return Deal(seed, self.seats, on_result=lambda result: self.keep(result, lang, started))

    def keep(self, result: MatchResult, lang: str, started: str) -> None:
        """Store a game played by ``seats`` whole, in the ``watch`` run (a race's rival too)."""
        run = self.run()
        index = len(self.store.games("run_id = ?", (run.id,)))
        game = self.game
        opponent = self.seats[1] if len(self.seats) > 1 else ""      # "": a one-seat game
        row = game_row(result, game=game, agent=self.seats[0], opponent=opponent, lang=lang,
                       game_index=index, agent_seat=0, run_id=run.id, started_at=started, finished_at=now())
        decisions = decision_rows(result.decisions, row.seats, game, lambda info: scrub_info(info, False))
        self.store.save_game(row, decisions)
