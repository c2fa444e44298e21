"""Report sections of puzzle duels, read from the records (pure: no I/O, no code run).

- ``duel_roles``: per player, rounds as proposer and as solver; proposal % (valid
  puzzles left unsolved, over rounds proposed), penalty % and count, solve % (over
  valid puzzles it was asked to solve); and The Token Games' own solve % (``solver_win_rate``:
  rounds won as solver, a puzzle whose sample failed included, over every round as solver), with
  exact (Clopper–Pearson) 95% intervals for it and for the proposal and penalty shares.
- ``duels``: one line per duel, its score line as "1 vs -4".
- ``puzzles``: every round with its code, sample, answer and verdicts (shown with
  ``tcgtui report --game duel --table puzzles``).
``rated(games)`` gives the pairings the report rates with Bradley–Terry (bootstrap
over duels): proposer (stumped 1, solved ½, wrong sample 0) and solver (solved 1,
else 0, valid puzzles only); and the seed's solver rating (every round: solved or the
proposer's sample failed 1, else 0), whose order The Token Games publishes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tcgtui.engine.duel.seed_elo import comparisons, correlation, fit
from tcgtui.engine.duel.state import FAILURE, PUZZLE_WRONG, SUCCESS
from tcgtui.engine.stats import clopper_pearson


def _duels(games: Iterable[Any]) -> list[Any]:
    """Each finished duel once (a round robin stores one row per measured seat), with distinct seats."""
    seen, out = set(), []
    for g in games:
        record = g.record if isinstance(g.record, dict) or g.record is None else g.record.to_json()
        if getattr(g, "status", "") != "finished" or not record or record.get("game") != "duel":
            continue
        if g.id in seen or len(g.seats) != 2:
            continue
        seen.add(g.id)
        out.append(g)
    return out


def rounds_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The rounds of a recorded duel: proposer seat, code, sample, answer, verdicts, outcome."""
    rounds: dict[int, dict[str, Any]] = defaultdict(dict)
    for e in record.get("events", []):
        kind, n = e.get("kind"), e.get("round")
        if kind == "proposed":
            rounds[n].update(proposer=e["player"], code=e.get("code", ""), solution=e.get("solution", ""))
        elif kind == "answered":
            rounds[n]["value"] = e.get("value")
        elif kind == "checked":
            rounds[n][e["purpose"]] = e["result"]
            rounds[n][e["purpose"] + "_detail"] = e.get("detail", "")
        elif kind == "scored":
            rounds[n].update(proposer=e["player"], outcome=e["outcome"], cause=e.get("cause", ""))
    return [{"round": n, **r} for n, r in sorted(rounds.items()) if "outcome" in r]


def _share(n: int, d: int) -> float | None:
    return n / d if d else None


def _interval(name: str, k: int, n: int) -> dict[str, float | None]:
    ci = clopper_pearson(k, n)
    return {f"{name}_ci_low": None if ci is None else ci[0], f"{name}_ci_high": None if ci is None else ci[1]}


def sections(games: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    duels = _duels(games)
    roles: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    lines, puzzles = [], []
    for g in duels:
        first, second = g.seats
        record = g.record
        for r in rounds_of(record):
            proposer = g.seats[r["proposer"]]
            solver = g.seats[1 - r["proposer"]]
            p, s = roles[proposer], roles[solver]
            p["proposed"] += 1
            if r["outcome"].startswith(FAILURE):
                p["unsolved"] += 1
            s["rounds"] += 1
            s["won"] += r["outcome"] == SUCCESS or r["outcome"].startswith(PUZZLE_WRONG)
            if r["outcome"].startswith(PUZZLE_WRONG):
                p["penalties"] += 1
            else:
                s["asked"] += 1
                s["solved"] += r["outcome"] == SUCCESS
            puzzles.append(
                {
                    "duel": g.id,
                    "round": r["round"],
                    "proposer": proposer,
                    "solver": solver,
                    "outcome": r["outcome"],
                    "sample": r.get("solution", ""),
                    "sample_result": r.get("sample", "–"),
                    "answer": r.get("value"),
                    "answer_result": r.get("answer"),
                    "code": r.get("code", ""),
                }
            )
        scores = (record.get("outcome") or {}).get("scores") or [0, 0]
        lines.append(
            {
                "duel": g.id,
                "first": first,
                "second": second,
                "score_line": f"{scores[0]:g} vs {scores[1]:g}",
                "winner": "–" if g.winner is None else g.seats[g.winner],
            }
        )
    role_rows = [
        {
            "agent": agent,
            "proposed": r["proposed"],
            "proposal_rate": _share(r["unsolved"], r["proposed"]),
            **_interval("proposal", r["unsolved"], r["proposed"]),
            "penalties": r["penalties"],
            "penalty_rate": _share(r["penalties"], r["proposed"]),
            **_interval("penalty", r["penalties"], r["proposed"]),
            "asked": r["asked"],
            "solve_rate": _share(r["solved"], r["asked"]),
            "solver_rounds": r["rounds"],
            "solver_win_rate": _share(r["won"], r["rounds"]),
            **_interval("solver_win", r["won"], r["rounds"]),
        }
        for agent, r in sorted(roles.items())
    ]
    return {"duel_roles": role_rows, "duels": lines, "puzzles": puzzles}


def rated(games: Iterable[Any]) -> dict[str, list[tuple[str, str, float, str]]]:
    """(player, opponent, player's score, duel id) per round, for the proposer and solver ratings."""
    out: dict[str, list[tuple[str, str, float, str]]] = {
        "proposer_ratings": [],
        "solver_ratings": [],
        "seed_solver_ratings": [],
    }
    for g in _duels(games):
        if g.seats[0] == g.seats[1]:
            continue
        for r in rounds_of(g.record):
            proposer, solver = g.seats[r["proposer"]], g.seats[1 - r["proposer"]]
            outcome = r["outcome"]
            stumped = 1.0 if outcome.startswith(FAILURE) else 0.5 if outcome == SUCCESS else 0.0
            out["proposer_ratings"].append((proposer, solver, stumped, g.id))
            won = outcome == SUCCESS or outcome.startswith(PUZZLE_WRONG)
            out["seed_solver_ratings"].append((solver, proposer, 1.0 if won else 0.0, g.id))
            if not outcome.startswith(PUZZLE_WRONG):
                out["solver_ratings"].append((solver, proposer, 1.0 if outcome == SUCCESS else 0.0, g.id))
    return out


def replies_by_round(
    record: dict[str, Any], seats: tuple[str, ...], decisions: list[tuple[int, str]]
) -> list[dict[str, Any]]:
    """A duel's rounds with both players' replies: ``decisions`` are (seat, reply) in move order; a
    round takes its proposer's next reply, then, unless the sample was wrong, its solver's."""
    queues: dict[int, list[str]] = defaultdict(list)
    for seat, reply in decisions:
        queues[seat].append(reply)
    out = []
    for r in rounds_of(record):
        proposer = r["proposer"]
        asked = not r["outcome"].startswith(PUZZLE_WRONG)
        out.append(
            {
                "round": r["round"],
                "proposer": seats[proposer],
                "solver": seats[1 - proposer],
                "outcome": r["outcome"],
                "sample_result": r.get("sample"),
                "answer_result": r.get("answer"),
                "proposer_reply": queues[proposer].pop(0) if queues[proposer] else None,
                "solver_reply": queues[1 - proposer].pop(0) if asked and queues[1 - proposer] else None,
            }
        )
    return out


def by_round(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """Token Games' difficulty trend: per round index, the valid puzzles asked and the share solved,
    with its exact interval (every duel's round n together)."""
    asked: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for g in _duels(games):
        for r in rounds_of(g.record):
            if not r["outcome"].startswith(PUZZLE_WRONG):
                cell = asked[r["round"]]
                cell[0] += r["outcome"] == SUCCESS
                cell[1] += 1
    return _round_rows(asked, context)


def bank_by_round(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """The puzzle bank's ``by_round``: per round of the duel each puzzle came from (where the bank
    says it), the puzzles asked and the share solved; puzzles of unknown origin are left out."""
    asked: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    seen = set()
    for g in games:
        record = g.record if isinstance(g.record, dict) or g.record is None else g.record.to_json()
        if getattr(g, "status", "") != "finished" or not record or record.get("game") != "duel-bank" or g.id in seen:
            continue
        seen.add(g.id)
        origin = next((e.get("from_round") for e in record.get("events", ()) if e.get("kind") == "puzzle"), None)
        if isinstance(origin, int):
            cell = asked[origin]
            cell[0] += (record.get("outcome") or {}).get("reason") == SUCCESS
            cell[1] += 1
    return _round_rows(asked, context)


def _round_rows(asked: dict[int, list[int]], context: Any) -> list[dict[str, Any]]:
    rows = []
    for n, (solved, total) in sorted(asked.items()):
        low, high = context.interval(solved, total, f"round {n}") or (None, None)
        rows.append(
            {"round": n, "asked": total, "solved": solved, "solve_rate": solved / total, "ci_low": low, "ci_high": high}
        )
    return rows


def _by_round_table(build: Any) -> Any:
    # the report's table types only when a report asks for them
    from tcgtui.engine.registry import Figure, SeedTable

    return SeedTable(
        "by_round",
        "Token Games: solve rate by round index",
        build,
        Figure("line", "round", "solve_rate", (), low="ci_low", high="ci_high", percent_y=True),
    )


def _seed_elo(games: Iterable[Any]) -> dict[str, dict[str, float]]:
    """The seed's match, proposer and solver Elo of every player (``seed_elo``)."""
    duels = [
        (
            (g.seats[0], g.seats[1]),
            [(g.seats[r["proposer"]], g.seats[1 - r["proposer"]], r["outcome"]) for r in rounds_of(g.record)],
        )
        for g in _duels(games)
        if g.seats[0] != g.seats[1]
    ]
    return {kind: fit(results) for kind, results in comparisons(duels).items()}


def seed_elo_table(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """Per player, The Token Games' three Elo ratings as its ``elo.py`` computes them (its
    ``ttg_match_elo``, ``ttg_proposer_elo``, ``ttg_solver_elo``), best match rating first."""
    elo = _seed_elo(games)
    players = sorted(elo["match"], key=lambda p: (-elo["match"][p], p))
    return [{"agent": p, **{f"{kind}_elo": elo[kind].get(p) for kind in elo}} for p in players]


def role_correlation(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """How alike the proposer and solver Elo rank the players (The Token Games' ρ = 0.85)."""
    elo = _seed_elo(games)
    players = sorted(set(elo["proposer"]) & set(elo["solver"]))
    return [
        {
            "ratings": "proposer_elo ~ solver_elo",
            **correlation([elo["proposer"][p] for p in players], [elo["solver"][p] for p in players]),
        }
    ]


def score_correlation(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """Each of the seed's Elo ratings against each external score of ``report --scores FILE`` (the
    seed's ``model-scores.json``: HLE, GPQA...), over the players both name."""
    scores = getattr(context, "scores", None) or {}
    elo = _seed_elo(games)
    keys = sorted({k for by_key in scores.values() for k in by_key})
    rows = []
    for kind, ratings in elo.items():
        for key in keys:
            named = {p: context.named(p) for p in ratings}
            players = sorted(p for p in ratings if key in scores.get(named[p], {}))
            rows.append(
                {
                    "rating": f"{kind}_elo",
                    "benchmark": key,
                    **correlation([ratings[p] for p in players], [scores[named[p]][key] for p in players]),
                }
            )
    return rows


def tables() -> tuple:
    # the report's table types only when a report asks for them
    from tcgtui.engine.registry import SeedTable

    return (
        _by_round_table(by_round),
        SeedTable("seed_elo", "Token Games: match, proposer and solver Elo (elo.py)", seed_elo_table),
        SeedTable("role_correlation", "Token Games: proposer–solver rank correlation (rho = 0.85)", role_correlation),
        SeedTable("score_correlation", "Token Games: Elo against external benchmarks (analysis.py)", score_correlation),
    )


def bank_tables() -> tuple:
    return (_by_round_table(bank_by_round),)
