"""A participant's games, dealt one slot after another from their schedule.

The dealer goes on to the next slot while it is against the same game and opponent (the game-over
dialog's "next game"); a new block, or the end, goes back to the study's screen, which says what
comes next.  An unfinished game is carried on where it stopped, never dealt again: the slot's game
is saved after every move under its place in the schedule, so a closed tab, a dead terminal or a
restarted server loses at most the move being made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcgtui.deals import Deal, person_deal
from tcgtui.engine.core import Game
from tcgtui.live import LiveGame
from tcgtui.match import MatchResult
from tcgtui.store import Store
from tcgtui.study.plan import Slot
from tcgtui.study.roster import Participant, mark_finished, practice_run, standing, study_run
from tcgtui.study.spec import Rung, Study

NEXT_KEY = "study.keys.next"        # the game-over dialog's R: the next game of the block


def resume_source(study: Study, slot: Slot) -> dict[str, Any]:
    """What the stored record keeps for a resume, with the study, its digest and the slot."""
    rung = slot.rung
    return {"game": rung.game, "params": rung.given, "vs": rung.opponent, "study": study.id,
            "study_digest": study.digest, "slot": slot.index, "practice": slot.practice}


@dataclass
class StudyDealer:
    store: Store
    study: Study
    person: Participant
    rung: Rung                 # the block on the board: the dealer stops where it ends
    game: Game
    practice: bool             # practice games are a part of their own

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        schedule = standing(self.store, self.study, self.person)
        found = schedule.next()
        if found is None:
            return None
        slot, row = found
        if previous is not None and (slot.rung != self.rung or slot.practice != self.practice):
            return None             # a new part of the schedule: the study's screen says what comes next
        if row is not None:                     # an unfinished game of this slot: carried on
            live = LiveGame.reopen(self.store, row)
        else:
            run = practice_run(self.store, self.study) if slot.practice else study_run(self.store, self.study)
            live = LiveGame.begin(self.store, self.game.seated(slot.seat), slot.seed, agent=self.person.agent,
                                  opponent=slot.rung.opponent, agent_seat=slot.seat, lang=lang,
                                  resume=resume_source(self.study, slot), run_id=run.id, game_index=slot.index)
        key = "study.note_practice" if slot.practice else "study.note_game"
        limit = self.study.move_seconds
        note = (key + "_limit" if limit else key, {"n": slot.index + 1, "seconds": f"{limit:g}",
                                                   "of": len(schedule.slots)})
        deal = person_deal(live, note=note)
        finish = deal.on_result

        def on_result(result: MatchResult) -> None:
            if finish is not None:
                finish(result)
            if standing(self.store, self.study, self.person).next() is None:
                mark_finished(self.store, self.person)
        deal.on_result = on_result
        deal.onward = NEXT_KEY
        return deal
