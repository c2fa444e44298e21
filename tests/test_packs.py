"""Packs are data: any directory loads; a broken one fails with one line naming
the file, the card and the field, and exit code 2 — never a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.engine.tcg import PackError
from tcgtui.games.tcg.packs import load_pack, resolve

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def pack_dir(tmp_path: Path) -> Path:
    target = tmp_path / "mine"
    shutil.copytree(resolve("community"), target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tcgtui", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_shipped_packs_load_in_both_languages(community, starter):
    assert len(community.cards) == 15 and len(starter.cards) == 3
    for pack in (community, starter):
        assert pack.languages == ("ar", "en")
        assert all(c.name("ar") != c.name("en") for c in pack.cards)


def test_a_copied_pack_loads_from_any_directory_with_the_same_hash(pack_dir, community):
    pack = load_pack(str(pack_dir))
    assert pack.hash == community.hash and pack.source == str(pack_dir)


def test_hash_ignores_formatting_but_not_content(pack_dir, community):
    edit(pack_dir / "pack.toml", "[pack]", "# a comment\n\n[pack]")
    assert load_pack(str(pack_dir)).hash == community.hash
    edit(pack_dir / "pack.toml", "power = 2\nguard = 1", "power = 3\nguard = 1")
    assert load_pack(str(pack_dir)).hash != community.hash
    edit(pack_dir / "pack.toml", "power = 3\nguard = 1", "power = 2\nguard = 1")
    edit(pack_dir / "text" / "en.toml", "Swift Scout", "Quick Scout")
    assert load_pack(str(pack_dir)).hash != community.hash


BROKEN = [
    ("pack.toml", 'id = "stone_golem"\ntype = "champion"\npower = 1', 'id = "stone_golem"\ntype = "champion"\npower = "one"',
     ["pack.toml", "card 'stone_golem'", "field 'power'", "expected a whole number from 0 to 20, got 'one'"]),
    ("pack.toml", 'power = 2\nguard = 1', 'power = 2\nguard = 99',
     ["card 'swift_scout'", "field 'guard'", "got 99"]),
    ("pack.toml", '{ do = "draw", amount = 2 }', '{ do = "teleport", amount = 2 }',
     ["card 'draw_power'", "field 'effects[0].do'", "unknown value 'teleport'"]),
    ("pack.toml", 'when = "you_take_damage"', 'when = "on_full_moon"',
     ["card 'revenge_strike'", "field 'when'", "unknown value 'on_full_moon'"]),
    ("pack.toml", 'keywords = ["haste"]', 'keywords = ["flying"]',
     ["card 'swift_scout'", "field 'keywords'", "'flying'"]),
    ("pack.toml", 'id = "frost_mage"', 'id = "twin_blade_fighter"',
     ["card 'twin_blade_fighter'", "field 'id'", "duplicate card id"]),
    ("pack.toml", 'target = "blockers"', 'target = "attacker"',
     ["card 'frost_mage'", "field 'abilities[0].effects[0].target'", "'attacker' needs a trigger"]),
    ("pack.toml", 'n = 3\n', '',
     ["card 'emergency_summon'", "field 'n'", "missing"]),
    ("pack.toml", 'power = 2\nguard = 1', 'power = 2\nguard = 1\nspeed = 3',
     ["card 'swift_scout'", "field 'speed'", "unknown field"]),
    ("pack.toml", '[pack]\nid = "community"', '[pack]\nid = "community"\nturn_limit = 0',
     ["pack.toml", "field 'pack.turn_limit'", "from 2 to 500, got 0"]),
    ("pack.toml", 'type = "trick"\nwhen = "you_cast_spell"', 'type = "trick"\nwhen = "on_summon"',
     ["card 'spell_echo'", "field 'when'", "for champions only"]),
    ("pack.toml", '[[card]]\nid = "stone_golem"', '[[card]\nid = "stone_golem"',
     ["pack.toml", "not valid TOML", "line"]),
    ("text/ar.toml", 'frost_mage = { name = "ساحر الصقيع" }\n', '',
     ["ar.toml", "card 'frost_mage'", "field 'name'", "missing translation for language 'ar'"]),
    ("text/en.toml", 'spell_echo = { name = "Spell Echo" }', 'spell_echo = { name = "Spell Echo" }\nghost = { name = "Ghost" }',
     ["en.toml", "card 'ghost'", "no such card in the manifest"]),
    ("text/en.toml", '"Final Stand"', '""',
     ["en.toml", "card 'final_stand'", "field 'name'", "expected non-empty text"]),
]


@pytest.mark.parametrize("file,old,new,expected", BROKEN, ids=[b[3][-1][:30] for b in BROKEN])
def test_broken_pack_names_file_card_and_field(pack_dir, file, old, new, expected):
    edit(pack_dir / file, old, new)
    with pytest.raises(PackError) as info:
        load_pack(str(pack_dir))
    message = str(info.value)
    assert "\n" not in message
    for part in expected:
        assert part in message


def test_cards_command_reports_a_broken_pack_in_one_line_with_exit_code_2(pack_dir):
    edit(pack_dir / "pack.toml", 'power = 2\nguard = 1', 'power = -2\nguard = 1')
    result = cli("cards", "--pack", str(pack_dir))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "pack.toml" in lines[0] and "card 'swift_scout'" in lines[0] and "field 'power'" in lines[0]


def test_cards_command_errors_for_missing_dir_and_language(tmp_path, pack_dir):
    missing = cli("cards", "--pack", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "no such directory or built-in pack" in missing.stderr
    shutil.rmtree(pack_dir / "text")
    no_text = cli("cards", "--pack", str(pack_dir))
    assert no_text.returncode == 2 and "has no language files" in no_text.stderr
    lang = cli("cards", "--lang", "xx")
    assert lang.returncode == 2 and "--lang: 'xx' is not a language" in lang.stderr


def test_cards_command_lists_every_card_in_english_and_arabic(community):
    en = cli("cards")
    assert en.returncode == 0
    for card in community.cards:
        assert card.name("en") in en.stdout
    assert "Deal 3 damage to your opponent." in en.stdout
    ar = cli("cards", "--lang", "ar", "--rtl", "terminal")     # logical order: searchable text
    assert ar.returncode == 0
    for card in community.cards:
        assert card.name("ar") in ar.stdout
    shaped = cli("cards", "--lang", "ar")                      # reordered and shaped for the screen
    assert shaped.returncode == 0 and "\ufe8d" <= max(shaped.stdout) and "العملاق الحجري" not in shaped.stdout
    head = shaped.stdout.splitlines()[0]          # read right to left: "(15 cards, ..." — the count is
    before = head.split(f" {len(community.cards)})")[0].split()[-1]   # read with its word, not in the
    assert all(ch >= "\ufb50" or ch == "،" for ch in before), head                # Latin id's run ("15 ،community")


def test_private_pack_from_a_directory_plays(tmp_path):
    from tcgtui.engine.tcg import TcgGame
    from tests.test_engine_properties import play_random
    d = tmp_path / "secret"
    (d / "text").mkdir(parents=True)
    (d / "pack.toml").write_text(
        '[pack]\nid = "secret"\n\n[[card]]\nid = "ogre"\ntype = "champion"\npower = 4\nguard = 3\n\n'
        '[[card]]\nid = "zap"\ntype = "spell"\neffects = [{ do = "damage", amount = 1 }]\n', encoding="utf-8")
    (d / "text" / "en.toml").write_text('[pack]\nname = "Secret"\n[card]\nogre = { name = "Ogre" }\n'
                                        'zap = { name = "Zap" }\n', encoding="utf-8")
    pack = load_pack(str(d))
    match = play_random(TcgGame(pack), 1)
    assert match.record().setup == {"pack": "secret", "pack_version": 1, "pack_hash": pack.hash}
