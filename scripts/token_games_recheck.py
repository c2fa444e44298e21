"""Re-check The Token Games' released rounds through ``tcgtui duel check --protocol seed`` and
compare each verdict with the one the seed's arena recorded.

    python scripts/token_games_recheck.py PATH/TO/thetokengames [--out mismatches.jsonl]

Reads ``data/*.jsonl`` (not ``*.tags.jsonl``) of the user's own checkout of the public repository
(github.com/thetokengames/thetokengames); nothing of it is copied here.  Every round gives a
sample check (the proposer's code and sample) and, where the solver answered, an answer check.
Expected: ``puzzle-wrong`` -> false, ``puzzle-wrong-ex`` -> error or timeout, else the sample is
true; ``success`` -> true, ``failure`` -> false, ``failure-ex`` -> error or timeout.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

EXPECT_SAMPLE = {"puzzle-wrong": "false", "puzzle-wrong-ex": "ex"}
EXPECT_ANSWER = {"success": "true", "failure": "false", "failure-ex": "ex"}


def rounds(checkout: Path) -> list[dict]:
    out = []
    for path in sorted((checkout / "data").glob("*.jsonl")):
        if path.name.endswith(".tags.jsonl"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if line.strip():
                out.append({**json.loads(line), "_where": f"{path.name}:{n + 1}"})
    return out


def checks(played: list[dict]) -> list[tuple[dict, str, str]]:
    """(row for duel check, expected, where)."""
    out = []
    for r in played:
        out.append(({"code": r["code"], "value": r["sample_solution"]}, EXPECT_SAMPLE.get(r["outcome"], "true"),
                    r["_where"] + " sample"))
        if r["outcome"] in EXPECT_ANSWER and r.get("solver_attempt") is not None:
            out.append(({"code": r["code"], "value": r["solver_attempt"]}, EXPECT_ANSWER[r["outcome"]],
                        r["_where"] + " answer"))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--out", type=Path, help="write the mismatches here (JSON Lines)")
    args = parser.parse_args()
    todo = checks(rounds(args.checkout))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.writelines(json.dumps(row) + "\n" for row, _, _ in todo)
    done = subprocess.run([sys.executable, "-m", "tcgtui", "duel", "check", "--protocol", "seed", f.name],
                          capture_output=True, text=True, check=True)
    Path(f.name).unlink()
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    mismatches = []
    for (row, want, where), v in zip(todo, verdicts, strict=True):
        got = "ex" if v["result"] in ("error", "timeout") else v["result"]
        if got != want:
            mismatches.append({"where": where, "expected": want, "got": v["result"], "detail": v["detail"][:200]})
    print(f"{len(todo)} checks of {len(rounds(args.checkout))} rounds: {len(todo) - len(mismatches)} as recorded, "
          f"{len(mismatches)} differ")
    if args.out:
        args.out.write_text("".join(json.dumps(m) + "\n" for m in mismatches), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
