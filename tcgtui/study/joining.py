"""One person joining a study, from a terminal or a browser: their token, their consent, and the
settings of the next game of their schedule.  The screens (``tcgtui.tui.screens.study``) call this;
nothing here imports the interface."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from tcgtui.arena import load_resources
from tcgtui.engine import registry
from tcgtui.opponents.human import HUMAN
from tcgtui.play_config import Settings
from tcgtui.store import Store
from tcgtui.study.dealer import StudyDealer
from tcgtui.study.roster import Participant, Standing, enrol, find, set_lang, standing
from tcgtui.study.spec import Study


@dataclass
class Joining:
    store: Store
    study: Study
    token: str
    keep_token: Callable[[str], None] | None = None     # a terminal keeps its token, to come back to
    person: Participant | None = None

    def __post_init__(self) -> None:
        if self.person is None:
            self.person = find(self.store, self.study, self.token)

    @property
    def consented(self) -> bool:
        return self.person is not None

    def consent(self, lang: str) -> Participant:
        """The person agreed: from now on their games are recorded under a fresh pseudonym."""
        self.person = enrol(self.store, self.study, self.token, lang)
        if self.keep_token is not None:
            try:
                self.keep_token(self.token)
            except OSError:
                pass          # an unwritable folder: the games are kept; a later join starts afresh
        return self.person

    def language(self, lang: str) -> None:
        if self.person is not None and self.person.lang != lang:
            self.person = set_lang(self.store, self.person, lang)

    def standing(self) -> Standing:
        assert self.person is not None
        return standing(self.store, self.study, self.person)

    def prepare(self, settings: Settings) -> Settings | None:
        """``settings`` for the next game of the schedule; None when every game is played."""
        assert self.person is not None
        found = self.standing().next()
        if found is None:
            return None
        slot, _ = found
        rung = slot.rung
        spec = registry.get(rung.game)
        params = load_resources(spec, spec.info.resolve(rung.given))
        game = spec.game(params)
        if rung.opponent:
            seats: tuple[str, ...] = (HUMAN, rung.opponent) if slot.seat == 0 else (rung.opponent, HUMAN)
        else:
            seats = (HUMAN,)
        dealer = StudyDealer(self.store, self.study, self.person, rung, game, slot.practice)
        return replace(settings, game_id=rung.game, params=params, given=rung.given, game=game, seats=seats,
                       person=slot.seat, handle=self.person.id, ask_handle=False, rival="", keep_rival=None,
                       setup=False, move_seconds=self.study.move_seconds, dealer_for=lambda now: dealer)
