"""A person in a duel, through the same agent as every human game (the screen is still to come):
asked with the observation of their role, answering with the game's move text."""

from __future__ import annotations

import asyncio

from tcgtui.engine import registry
from tcgtui.engine.duel import Answer, Proposal
from tcgtui.match import run_match
from tcgtui.opponents.human import HumanAgent
from tcgtui.opponents.registry import make_agent


def test_a_person_proposes_and_solves_against_the_reference_player():
    game = registry.get("duel").game({"rounds": 4, "check_timeout": 3})
    asked = []

    async def play():
        person = HumanAgent("ann")

        def on_turn(obs, events):
            asked.append((obs.phase, obs.code))
            if obs.phase == "propose":
                move = Proposal("def mystery(x):\n    return x == 'ann'\n", "'ann'", "my secret").text()
            else:
                move = Answer(repr(obs.code.split("== ")[-1].strip().strip("'"))).text() if "==" in obs.code \
                    else Answer("0").text()
            asyncio.get_running_loop().call_soon(person.choose, move)
        person.on_turn = on_turn
        return await run_match(game, 1, (person, make_agent("puzzler")))
    result = asyncio.run(play())
    assert result.status == "finished" and [phase for phase, _ in asked] == ["propose", "solve"] * 2
    assert all(code == "" for phase, code in asked if phase == "propose")
    assert all("def mystery" in code for phase, code in asked if phase == "solve")
    proposals = [e for e in result.record.events if e["kind"] == "proposed" and e["player"] == 0]
    assert len(proposals) == 2 and all(e["explanation"] == "my secret" for e in proposals)


def test_a_person_cannot_answer_when_not_asked():
    person = HumanAgent()
    assert person.choose(Answer("1").text()) is False


def test_a_persons_duel_is_saved_after_every_move_and_resumes_exactly(tmp_path):
    """Human duels are stored and resumed like every human game: the verdicts come back from the
    record, and the resumed duel finishes from where the person left."""
    from pathlib import Path

    from tcgtui.live import LiveGame, human_spec
    from tcgtui.opponents.base import Agent, Decision
    from tcgtui.store import IN_PROGRESS, Store

    class Person(Agent):
        """Proposes 'ann' puzzles and answers 0; walks away after ``quit_after`` replies."""
        spec = "human:ann"

        def __init__(self, quit_after=None):
            self.quit_after, self.replies = quit_after, 0

        async def decide(self, obs, events):
            if self.quit_after is not None and self.replies >= self.quit_after:
                await asyncio.Event().wait()
            self.replies += 1
            if obs.phase == "propose":
                return Decision(Proposal("def mystery(x):\n    return x == 'ann'\n", "'ann'").text())
            return Decision(Answer("0").text())

    params = {"rounds": 4, "check_timeout": 3}
    game = registry.get("duel").game(params)
    with Store(Path(tmp_path) / "h.sqlite3") as store:
        live = LiveGame.begin(store, game, 9, agent=human_spec("ann"), opponent="puzzler", agent_seat=0, lang="en",
                              resume={"game": "duel", "params": params, "vs": "puzzler"})

        async def leave():
            task = asyncio.ensure_future(run_match(game, 9, (Person(quit_after=2), make_agent("puzzler")),
                                                   match=live.match, on_decision=live.on_decision))
            while len(live.match.state.history) < 2 and not task.done():
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            task.cancel()
        asyncio.run(leave())
        row = store.games("status = ?", (IN_PROGRESS,))[0]
        again = LiveGame.reopen(store, row)
        assert len(again.match.state.history) >= 1
        assert [r.outcome for r in again.match.state.history] == \
            [r.outcome for r in live.match.state.history[:len(again.match.state.history)]]
        result = asyncio.run(run_match(again.game, 9, (Person(), make_agent("puzzler")), match=again.match,
                                       on_decision=again.on_decision))
        again.finish(result)
        assert result.status == "finished" and len(again.match.state.history) == 4
        assert store.games("status = ?", (IN_PROGRESS,)) == []
    import json

    from tcgtui.cli import main
    out = Path(tmp_path) / "people.jsonl"                   # exported like every human game
    assert main(["baseline", "export", str(out), "--db", str(Path(tmp_path) / "h.sqlite3")]) == 0
    (line,) = out.read_text(encoding="utf-8").splitlines()
    exported = json.loads(line)
    assert exported["game"] == "duel" and exported["status"] == "finished"
    assert exported["record"]["moves"] == list(again.match.moves)   # the referee's verdicts travel with it
    assert main(["baseline", "import", str(out), "--db", str(Path(tmp_path) / "other.sqlite3")]) == 0


def test_a_verdict_is_stored_when_applied_so_a_resume_runs_no_check(tmp_path):
    """The person walks away while asked to solve, right after the sample's verdict: the verdict is
    already in the store, so the resumed duel asks the referee nothing before the person answers."""
    from pathlib import Path

    from tcgtui.live import LiveGame, human_spec
    from tcgtui.opponents.base import Agent, Decision
    from tcgtui.referee import referee_for
    from tcgtui.store import IN_PROGRESS, Store
    from tcgtui.deals import person_deal

    calls = []

    def counting(game):
        real = referee_for(game)

        async def settle(request):
            calls.append(request.purpose)
            return await real(request)
        return settle

    class Person(Agent):
        """Seat 1: solves first; ``calls_seen`` is how many checks had run when first asked."""
        spec = "human:ann"

        def __init__(self, leave):
            self.leave, self.calls_seen = leave, None

        async def decide(self, obs, events):
            if self.calls_seen is None:
                self.calls_seen = len(calls)
            if self.leave:
                await asyncio.Event().wait()
            return Decision(Answer("0").text() if obs.phase == "solve" else
                            Proposal("def mystery(x):\n    return x == 'ann'\n", "'ann'").text())

    params = {"rounds": 2, "check_timeout": 3}
    game = registry.get("duel").game(params)
    with Store(Path(tmp_path) / "h.sqlite3") as store:
        live = LiveGame.begin(store, game, 4, agent=human_spec("ann"), opponent="puzzler", agent_seat=1, lang="en",
                              resume={"game": "duel", "params": params, "vs": "puzzler"})
        assert person_deal(live).on_settled == live.save           # the app's person games are wired so

        async def leave():
            person = Person(leave=True)
            task = asyncio.ensure_future(run_match(game, 4, (make_agent("puzzler"), person), match=live.match,
                                                   on_decision=live.on_decision, on_settled=live.save,
                                                   referee=counting(game)))
            while person.calls_seen is None:
                await asyncio.sleep(0.01)
            task.cancel()
        asyncio.run(leave())
        assert calls == ["sample"]
        again = LiveGame.reopen(store, store.games("status = ?", (IN_PROGRESS,))[0])
        assert again.match.state.phase == "solve"                 # the verdict came back from the store
        calls.clear()
        person = Person(leave=False)
        result = asyncio.run(run_match(again.game, 4, (make_agent("puzzler"), person), match=again.match,
                                       on_decision=again.on_decision, on_settled=again.save,
                                       referee=counting(again.game)))
        assert person.calls_seen == 0 and calls[0] == "answer"     # no check ran again before the answer
        assert result.status == "finished"
