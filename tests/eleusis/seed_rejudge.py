"""Judge again, with tcgtui's seed walk, every formal guess the seed published, and count the verdicts that agree.

    python tests/eleusis/seed_rejudge.py CHECKOUT RUN [MODEL_GLOB] [--sandbox local|docker|unsafe]
        [--part all|rule-language|card-api] [--all-in-sandbox]

RUN is a folder under CHECKOUT/results/.  Each released round (``results.json``)
names its rule, and each formal guess keeps the code the seed's translator wrote
and the seed's verdict.  The mainline is the turn's, with the turn's card when it
was accepted (the seed judges after the card).  A guess whose code is in tcgtui's
rule language is judged in it (``seed_walk``, the secret rule tcgtui's library
rule of that name); any other guess (the seed's card API, e.g. ``card.suit.suit_name``,
or no code at all) is judged as the seed runs it, Python against the secret
rule's code in the checkout's ``rules.json``, the whole walk in one sandbox check
(``tcgtui/games/eleusis/seed_judge.py``).  ``--part`` judges only the guesses
whose code is in the rule language, or only the others (the rest counted under ``skipped``), so
the parts can run as processes of their own and be added; ``--all-in-sandbox`` judges the
rule-language ones the seed's way too.  Prints one JSON object: the counts, the
agreement over all guesses with its exact 95% interval (scipy's ``binomtest``), and
every disagreement and failed check.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from scipy.stats import binomtest

from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.judge import seed_walk
from tcgtui.engine.eleusis.library import compiled
from tcgtui.engine.eleusis.rulelang import Rule, RuleError, compile_rule
from tcgtui.games.eleusis.seed_judge import FAILED, WALK_LIMITS, judge_code
from tcgtui.sandbox import Sandbox


def mainline(state: str, played: dict) -> list:
    cards = [parse_card(w) for w in state.split() if not w.startswith("[") and w != "(empty)"]
    if played.get("accepted"):
        cards.append(parse_card(played["card"]))
    return cards


def interval(k: int, n: int) -> list[float] | None:
    if n == 0:
        return None
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    return [round(float(ci.low), 5), round(float(ci.high), 5)]


def in_rule_language(code: str | None) -> Rule | None:
    try:
        return compile_rule(code or "")
    except RuleError:
        return None


def guesses(checkout: Path, run: str, models: str):
    """(model, rule name, rule index, turn, guess, mainline) of every formal guess with a published verdict."""
    names = [r["name"] for r in json.loads((checkout / "rules.json").read_text(encoding="utf-8"))["rules"]]
    for path in sorted((checkout / "results" / run).glob(f"{models}/results.json")):
        for rnd in json.loads(path.read_text(encoding="utf-8"))["rounds"]:
            for turn in rnd["turns"]:
                guess = turn.get("guess_attempt")
                if not guess or guess.get("shadow") or not isinstance(guess.get("correct"), bool):
                    continue
                yield (path.parent.name, rnd["rule_name"], names.index(rnd["rule_name"]), turn["turn_number"], guess,
                       mainline(turn["mainline_state"], turn["action_result"]))


async def rejudge(checkout: Path, run: str, models: str = "*", backend: str = "local",
                  part: str = "all", all_in_sandbox: bool = False) -> dict:
    codes = [r["code"] for r in json.loads((checkout / "rules.json").read_text(encoding="utf-8"))["rules"]]
    sandbox = Sandbox(backend, WALK_LIMITS)
    counts = {"guesses": 0, "same": 0, "differ": 0, "published_right": 0, "reproduced_right": 0,
              "rule_language": {"guesses": 0, "same": 0}, "sandbox": {"guesses": 0, "same": 0, "no_code": 0,
                                                                      "failed": 0, "seconds": 0.0},
              "skipped": 0, "differences": [], "failed_checks": []}
    outside = []
    for model, name, index, number, guess, line in guesses(checkout, run, models):
        code = in_rule_language(guess.get("guessed_code"))
        if part != "all" and (code is None) != (part == "card-api"):
            counts["skipped"] += 1
            continue
        if code is None or all_in_sandbox:
            outside.append((model, name, index, number, guess, line))
            continue
        ours = seed_walk(compiled(index), code, line).equivalent
        counts["rule_language"]["guesses"] += 1
        counts["rule_language"]["same"] += ours == guess["correct"]
        _count(counts, model, name, number, guess["correct"], ours)
    gate = asyncio.Semaphore(sandbox.workers)

    async def one(item):
        model, name, index, number, guess, line = item
        async with gate:
            verdict = await judge_code(sandbox, codes[index], guess.get("guessed_code"), line)
            done.append(1)
            if len(done) % 100 == 0:
                print(f"{len(done)} of {len(outside)} judged in the sandbox", file=sys.stderr, flush=True)
            return item, verdict
    done: list[int] = []
    for (model, name, index, number, guess, line), verdict in await asyncio.gather(*(one(i) for i in outside)):
        box = counts["sandbox"]
        box["guesses"] += 1
        box["same"] += verdict.equivalent == guess["correct"]
        box["no_code"] += verdict.outcome == "no_code"
        box["seconds"] += verdict.seconds
        if verdict.outcome == FAILED:
            box["failed"] += 1
            counts["failed_checks"].append([model, name, number, verdict.detail[:200]])
        _count(counts, model, name, number, guess["correct"], verdict.equivalent)
    counts["sandbox"]["seconds"] = round(counts["sandbox"]["seconds"], 1)
    counts["agreement"] = round(counts["same"] / counts["guesses"], 5) if counts["guesses"] else None
    counts["agreement_95"] = interval(counts["same"], counts["guesses"])
    for part in ("rule_language", "sandbox"):
        counts[part]["agreement_95"] = interval(counts[part]["same"], counts[part]["guesses"])
    return counts


def _count(counts: dict, model: str, name: str, number: int, published: bool, ours: bool) -> None:
    counts["guesses"] += 1
    counts["published_right"] += published
    counts["reproduced_right"] += ours
    if ours == published:
        counts["same"] += 1
    else:
        counts["differ"] += 1
        counts["differences"].append([model, name, number, published])


if __name__ == "__main__":
    args = sys.argv[1:]
    backend = "local"
    everything = "--all-in-sandbox" in args
    args = [a for a in args if a != "--all-in-sandbox"]
    part = "all"
    if "--part" in args:
        at = args.index("--part")
        part = args[at + 1]
        del args[at:at + 2]
        if part not in ("all", "rule-language", "card-api"):
            sys.exit(f"--part: {part!r}; expected all, rule-language or card-api")
    if "--sandbox" in args:
        at = args.index("--sandbox")
        backend = args[at + 1]
        del args[at:at + 2]
    print(json.dumps(asyncio.run(rejudge(Path(args[0]), args[1], *args[2:3], backend=backend,
                                    part=part, all_in_sandbox=everything)), ensure_ascii=False))
