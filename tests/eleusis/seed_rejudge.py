"""Judge again, with tcgtui's seed walk, every formal guess the seed published, and count the verdicts that agree.

    python tests/eleusis/seed_rejudge.py CHECKOUT RUN [MODEL_GLOB]   # RUN: a folder under CHECKOUT/results/

Each released round (``results.json``) names its rule, and each formal guess keeps
the code the seed's translator wrote and the seed's verdict.  The secret rule is
tcgtui's library rule of that name (numbered as the checkout's ``rules.json``); the
guess's code is compiled in tcgtui's rule language (code outside it is counted
apart); the mainline is the turn's, with the turn's card when it was accepted
(the seed judges after the card).  Prints one JSON object of counts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.judge import seed_walk
from tcgtui.engine.eleusis.library import compiled
from tcgtui.engine.eleusis.rulelang import RuleError, compile_rule


def mainline(state: str, played: dict) -> list:
    cards = [parse_card(w) for w in state.split() if not w.startswith("[") and w != "(empty)"]
    if played.get("accepted"):
        cards.append(parse_card(played["card"]))
    return cards


def rejudge(checkout: Path, run: str, models: str = "*") -> dict:
    names = [r["name"] for r in json.loads((checkout / "rules.json").read_text(encoding="utf-8"))["rules"]]
    counts = {"guesses": 0, "same": 0, "differ": 0, "outside_language": 0, "published_right": 0,
              "reproduced_right": 0, "differences": []}
    for path in sorted((checkout / "results" / run).glob(f"{models}/results.json")):
        for rnd in json.loads(path.read_text(encoding="utf-8"))["rounds"]:
            truth = compiled(names.index(rnd["rule_name"]))
            for turn in rnd["turns"]:
                guess = turn.get("guess_attempt")
                if not guess or guess.get("shadow") or not isinstance(guess.get("correct"), bool):
                    continue
                counts["guesses"] += 1
                counts["published_right"] += guess["correct"]
                try:
                    code = compile_rule(guess.get("guessed_code") or "")
                except RuleError:
                    counts["outside_language"] += 1
                    continue
                ours = seed_walk(truth, code, mainline(turn["mainline_state"], turn["action_result"])).equivalent
                counts["reproduced_right"] += ours
                if ours == guess["correct"]:
                    counts["same"] += 1
                else:
                    counts["differ"] += 1
                    counts["differences"].append([path.parent.name, rnd["rule_name"], turn["turn_number"],
                                                  guess["correct"]])
    return counts


if __name__ == "__main__":
    print(json.dumps(rejudge(Path(sys.argv[1]), sys.argv[2], *sys.argv[3:4]), ensure_ascii=False))
