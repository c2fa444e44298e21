"""``tcgtui deck make``: questions written per language and loadable, the verdict's test,
and one-line errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tcgtui.cli import main
from tcgtui.engine.deck.make import candidate, verdict
from tcgtui.games.tcg.packs import load_pack
from tcgtui.questions import load_set


def test_make_writes_the_same_kept_questions_in_each_language(tmp_path: Path, capsys) -> None:
    out = tmp_path / "q.jsonl"
    code = main(["deck", "make", "--count", "1", "--out", str(out), "--lang", "en,ar", "--playouts", "2",
                 "--games", "300", "--field", "2", "--max-candidates", "2", "--workers", "1", "--seed", "7"])
    err = capsys.readouterr().err
    assert "candidates" in err and "questions per hour" in err
    en, ar = load_set("--q", str(tmp_path / "q.en.jsonl")), load_set("--q", str(tmp_path / "q.ar.jsonl"))
    assert code == 0 and len(en.questions) == 1          # this seed keeps its second candidate
    assert [q.id for q in en.questions] == [q.id for q in ar.questions]
    for q_en, q_ar in zip(en.questions, ar.questions):
        assert q_en.answer == q_ar.answer and q_en.win_rates == q_ar.win_rates
        assert q_en.win_rates[q_en.answer_index] == max(q_en.win_rates)
        assert q_en.language == "en" and q_ar.language == "ar" and q_en.sim["pack"] == "frontier"
        assert all(p <= 0.05 for i, p in enumerate(q_en.sim["p_values"]) if i != q_en.answer_index)


def test_a_candidate_is_a_legal_deck_short_of_one_card_with_six_fitting_options() -> None:
    import random
    pack = load_pack("frontier")
    for seed in range(30):
        c = candidate(pack, random.Random(seed))
        assert sum(c.partial) == 19 and max(c.partial) <= 2 and c.removed in c.options
        assert len(set(c.options)) == 6
        for o in range(6):
            assert sum(c.deck(o)) == 20 and max(c.deck(o)) <= 2


def test_the_verdict_keeps_a_clear_best_and_drops_a_tie() -> None:
    rng = np.random.default_rng(0)
    base = rng.random(2000) < 0.5
    clear = np.array([base | (rng.random(2000) < 0.25)] + [base] * 5, dtype=float)
    v = verdict(clear)
    assert v.kept and v.best == 0 and v.rates[0] > max(v.rates[1:])
    tie = np.array([rng.random(2000) < 0.5 for _ in range(6)], dtype=float)
    assert not verdict(tie).kept


@pytest.mark.parametrize("extra, needle", [
    (["--count", "0"], "--count: 0 is out of range"),
    (["--lang", "xx"], "--lang: 'xx'"),
    (["--pack", "no-such-pack"], "no-such-pack"),
])
def test_bad_flags_are_one_line(tmp_path: Path, capsys, extra, needle) -> None:
    assert main(["deck", "make", "--out", str(tmp_path / "q.jsonl"), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err, err
