"""One rating scale: a reference ladder rated once, and any player placed on it from its games
against the ladder's rungs.

A scale is the Bradley–Terry fit of a round robin among reference players (``tcgtui ladder``), on
the Elo scale of ``tcgtui.report.ratings``, with one rung fixed at 0 (``random`` by default: a
player nobody needs to be taught).  It keeps its bootstrap resamples, each a row of every rung's
rating refitted together, so a placement can carry the rungs' own uncertainty.

A placement fits one number, the player's rating, with the rungs held at their ratings: the
maximum of the Bradley–Terry likelihood of its games (a draw half a win, as everywhere) under the
same weak prior as the ratings (Gaussian, sd 400, centred on the rungs it met, worth about one
game).  Its 95% interval is a percentile bootstrap: each resample draws the player's games with
replacement and one of the scale's resamples for the rungs, and refits.  A player that won every
game (or lost every game) has no finite maximum; its rating then rests on the prior and is marked
``beyond`` (only a bound is measured).  So a model measured against mc:10 and mc:100 and one
measured against mc:1000 get ratings on one scale, each with an interval that says how far apart
they may be.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from tcgtui import locales
from tcgtui.engine.core import CANCELLED
from tcgtui.errors import UserError
from tcgtui.report import ratings as bt

FORMAT = 1
ZERO = "random"
PRIOR_SD = bt.PRIOR_SD
RESAMPLES = 400


@dataclass(frozen=True)
class Scale:
    """A rated reference ladder, as shipped (``to_json``) and read back (``load``)."""

    game: str
    setup: dict[str, Any]               # what a placed player's games must have been played under
    zero: str                           # the rung fixed at 0
    ratings: dict[str, float]
    ci: dict[str, tuple[float, float]]
    games: dict[str, int]               # games each rung played in the round robin
    samples: dict[str, list[float]]     # bootstrap resamples: sample i of every rung from one refit
    command: str = ""
    made: str = ""
    format: int = FORMAT

    def to_json(self) -> str:
        out = asdict(self)
        out["ci"] = {k: list(v) for k, v in self.ci.items()}
        return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def build(results: Sequence[bt.Result], game: str, setup: dict[str, Any], zero: str = ZERO, *,
          resamples: int = RESAMPLES, seed: int = bt.SEED, command: str = "", made: str = "") -> Scale:
    """Rate the rungs of a round robin, ``zero`` at 0 (it must be among them)."""
    fit = bt.fitted(results, resamples=resamples, seed=seed, anchor=zero)
    if fit is None or zero not in fit.players:
        raise ValueError(f"a scale needs two or more rungs, {zero} among them")
    shift = -bt.ANCHOR                 # ratings.fitted puts its anchor at 1000; a scale puts its zero at 0
    point = fit.point + shift
    boot = (fit.boot if fit.boot is not None else fit.point[None, :]) + shift
    low, high = np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)
    return Scale(game=game, setup=setup, zero=zero,
                 ratings={p: round(float(point[i]), 2) for i, p in enumerate(fit.players)},
                 ci={p: (round(float(low[i]), 2), round(float(high[i]), 2)) for i, p in enumerate(fit.players)},
                 games={p: int(fit.games[i]) for i, p in enumerate(fit.players)},
                 samples={p: [round(float(x), 2) for x in boot[:, i]] for i, p in enumerate(fit.players)},
                 command=command, made=made)


def load(path: Path, flag: str = "--scale") -> Scale:
    """A scale file read back; anything else is one line naming the flag and the file."""
    text = locales.load()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        rungs = list(raw["ratings"])
        samples = {p: [float(x) for x in raw["samples"][p]] for p in rungs}
        if raw.get("format") != FORMAT or not rungs or len({len(v) for v in samples.values()}) != 1:
            raise ValueError
        return Scale(game=str(raw["game"]), setup=dict(raw["setup"]), zero=str(raw["zero"]),
                     ratings={p: float(raw["ratings"][p]) for p in rungs},
                     ci={p: (float(raw["ci"][p][0]), float(raw["ci"][p][1])) for p in rungs},
                     games={p: int(raw["games"][p]) for p in rungs}, samples=samples,
                     command=str(raw.get("command", "")), made=str(raw.get("made", "")))
    except OSError as exc:
        raise UserError(text.t("scale.unreadable", flag=flag, path=str(path), why=exc.strerror or type(exc).__name__)) \
            from None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        raise UserError(text.t("scale.not_a_scale", flag=flag, path=str(path))) from None


@dataclass(frozen=True)
class Placement:
    player: str
    rating: float
    ci_low: float
    ci_high: float
    games: int
    score: float                          # the player's score share over those games
    rungs: tuple[str, ...] = field(default=())
    beyond: bool = False                  # won (or lost) every game: the rating rests on the prior


def _solve(theirs: np.ndarray, scores: np.ndarray, weights: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The posterior maximum of one rating per row (Newton's method; the log-posterior is concave):
    ``theirs`` the rung ratings met, game by game, ``weights`` how often each game counts."""
    lam = 1.0 / PRIOR_SD ** 2
    r = centre.copy()
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - theirs) / bt.SCALE))
        grad = (weights * (scores - p)).sum(axis=1) / bt.SCALE - lam * (r - centre)
        hess = -(weights * p * (1 - p)).sum(axis=1) / bt.SCALE ** 2 - lam
        step = np.clip(grad / hess, -400.0, 400.0)
        r -= step
        if np.all(np.abs(step) < 1e-7):
            break
    return r


def place(scale: Scale, player: str, results: Sequence[tuple[str, float]], *, resamples: int = RESAMPLES,
          seed: int = bt.SEED) -> Placement:
    """``player`` on ``scale`` from its games ``(rung, its score)``; each rung must be on the scale."""
    rungs = list(scale.ratings)
    index = {p: i for i, p in enumerate(rungs)}
    met = np.array([index[r] for r, _ in results], dtype=np.int64)
    scores = np.array([float(s) for _, s in results])
    point = np.array([scale.ratings[p] for p in rungs])
    centre = np.array([point[met].mean()])
    rating = float(_solve(point[met][None, :], scores[None, :], np.ones((1, len(met))), centre)[0])
    samples = np.array([scale.samples[p] for p in rungs]).T                  # (scale's resamples, rungs)
    rng = np.random.default_rng(seed)
    n = len(met)
    weights = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(resamples)]).astype(float)
    drawn = samples[rng.integers(0, len(samples), resamples)][:, met]        # the rungs, one refit each
    boot = _solve(drawn, np.broadcast_to(scores, drawn.shape), weights, drawn.mean(axis=1))
    low, high = np.percentile(boot, 2.5), np.percentile(boot, 97.5)
    return Placement(player, rating, float(low), float(high), n, float(scores.mean()),
                     tuple(sorted({rungs[i] for i in met}, key=lambda p: scale.ratings[p])),
                     beyond=bool(np.all(scores == 1.0) or np.all(scores == 0.0)))


def expected_score(rating: float, against: float) -> float:
    """The Bradley–Terry expected score of a player rated ``rating`` against one rated ``against``."""
    return 1.0 / (1.0 + math.exp(-(rating - against) / bt.SCALE))


# --- the report's table: every player measured against rungs, placed ---------------------------

RUN_ONLY = ("until", "budget_cut")        # a run's stopping rule and time cuts are not the game's setup


def setup_of(params: dict[str, Any]) -> dict[str, Any]:
    """A stored game's setup as a scale compares it: its parameters without what belongs to the run."""
    return {k: v for k, v in params.items() if k not in RUN_ONLY}


def shipped(game: str) -> list[Scale]:
    """The scales tcgtui ships for ``game`` (``tcgtui/games/<game>/scales/*.json``, made by ``tcgtui ladder``)."""
    # start-up time: only a report that asks for the scale table looks for shipped scales
    from importlib import resources
    folder = resources.files("tcgtui.games").joinpath(game, "scales")
    if not folder.is_dir():
        return []
    return [load(Path(str(f)), "scale") for f in sorted(folder.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".json")]


def table(games: Sequence[Any], scales: Sequence[Scale], seed: int = bt.SEED) -> list[dict[str, Any]]:
    """Per player and language, its rating on the scale its games were played under, from its finished
    games against the scale's rungs.  A game played with a time cut (``budget_cut``) does not count:
    a rung cut short is not the rung."""
    by_player: dict[tuple[int, str, str], list[tuple[str, float]]] = {}
    for g in games:
        if g.result is None or g.reason == CANCELLED or g.params.get("budget_cut"):
            continue
        setup = setup_of(g.params)
        for i, s in enumerate(scales):
            if s.game == g.game and s.setup == setup and g.opponent in s.ratings:
                score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[g.result]
                for name in g.groups():
                    by_player.setdefault((i, name, g.lang), []).append((g.opponent, score))
                break
    rows = []
    for (i, name, lang), results in sorted(by_player.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
        placed = place(scales[i], name, results, seed=seed)
        rows.append({"agent": name, "lang": lang, "rating": placed.rating, "ci_low": placed.ci_low,
                     "ci_high": placed.ci_high, "beyond": placed.beyond, "games": placed.games,
                     "score_share": placed.score, "rungs": ", ".join(placed.rungs),
                     "scale_rating": scales[i].ratings.get(name), "zero": scales[i].zero})
    return sorted(rows, key=lambda r: (r["lang"], -r["rating"], r["agent"]))
