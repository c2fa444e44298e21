"""Right-to-left rendering: wrap at the real width, reorder per line, numbers in their own cells."""

from __future__ import annotations

from rich.console import Console

from tcgtui import rtl
from tcgtui.tui.bidi_text import Direction, Line, Para, Piece

AR = Direction(True, "app")
TERMINAL = Direction(True, "terminal")


def render(obj, width: int) -> list[str]:  # type: ignore[no-untyped-def]
    console = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)
    console.print(obj)
    return console.export_text().rstrip("\n").split("\n")


def test_para_wraps_first_then_reorders_each_line_right_aligned() -> None:
    text = "عندما يتركك الضرر بأقل من 3 نقاط حياة: اسحب 3 بطاقات."
    lines = render(Para(text, AR), 20)
    assert len(lines) > 1 and all(len(line) == 20 for line in lines)      # padded on the left
    first = rtl.wrap(rtl.shape(text), 20)[0]
    assert lines[0].lstrip() == rtl.visual(first)        # the first logical words are on line 1
    assert lines[0][-1] == rtl.shape(text)[0]            # ...starting at the right edge


def test_numbers_keep_their_order_and_brackets_mirror() -> None:
    [line] = render(Para("القوة 12 (مؤقتا)", AR), 30)
    assert "12" in line and "21" not in line
    assert line.strip().startswith("(") and line.strip().endswith("ﺓﻮﻘﻟﺍ")


def test_line_lays_pieces_from_the_right_and_truncates_words_only() -> None:
    pieces = [Piece("العملاق الحجري العملاق الحجري"), Piece(" ", shrink=False), Piece("-5", shrink=False)]
    [line] = render(Line(pieces, AR), 14)
    assert line.startswith("-5 ")                    # the number is intact, on the far side
    assert "…" in line and len(line) == 14
    assert line[-1] == rtl.shape(pieces[0].text)[0]  # the name's start survives, at the right edge


def test_latin_lines_are_left_as_they_are() -> None:
    [line] = render(Line(["Stone Golem", " ", Piece("4", shrink=False)]), 20)
    assert line == "Stone Golem 4".ljust(20)


def test_arabic_word_inside_an_english_line_is_shaped() -> None:
    [line] = render(Line([Piece("L "), Piece("العربية")]), 20)
    assert line.startswith("L ") and rtl.visual(rtl.shape("العربية"), False) in line


def test_terminal_mode_keeps_logical_text_for_the_terminal() -> None:
    text = "سحبت العملاق الحجري."
    [line] = render(Para(text, TERMINAL), 30)
    assert line.strip() == text and line.endswith(text)   # unshaped, logical, right-aligned


def test_a_signed_number_in_arabic_prose_keeps_its_sign_in_front() -> None:
    [line] = render(Para("ونقاط حياته الآن -1، ثم 3.", AR), 40)
    assert "-1" in line and "1-" not in line
    [end] = render(Para("ونقاط حياته الآن -1.", AR), 40)
    assert end.strip().startswith(".-1 ")           # the full stop ends the sentence, on the left
    assert "\u2066" not in line and "\u2069" not in line       # the isolate marks are gone
    [line] = render(Line([Piece("نقاط الحياة -12")], AR), 40)
    assert "-12" in line


def test_markup_like_text_stays_literal() -> None:
    [line] = render(Line([Piece("[bold]Fire Bolt[/bold] [3]")]), 40)
    assert line.rstrip() == "[bold]Fire Bolt[/bold] [3]"


def test_a_quoted_latin_value_in_arabic_prose_keeps_its_quotes_around_it() -> None:
    [line] = render(Para("الجولة 1: إجابة من puzzler: 'ann'.", AR), 60)
    assert "'ann'" in line and "ann''" not in line and "''ann" not in line
    [two] = render(Para("القيمة \"a b\" ثم 'c'", AR), 60)
    assert '"a b"' in two and "'c'" in two


def test_a_quoted_rule_cut_by_the_wrap_keeps_every_line_left_to_right() -> None:
    code = "return card.rank % 2 == 0 and card.suit in ('H', 'D')"
    text = f'التخمين "{code}" خاطئ، خسرت نقطتين.'
    for width in (60, 30, 20):
        lines = Para(text, AR).lines(width)
        latin = [w for line in lines for w in line.split() if w.isascii()]    # the code's words, in order
        assert len(lines) > 1 and " ".join(latin) == f'"{code}"', (width, lines)


def test_a_card_keeps_its_rank_before_its_suit_in_right_to_left_prose() -> None:
    for card in ("10♦", "Q♠", "A♥"):
        [line] = Para(f"الدور 3: قبلت {card}.", AR).lines(40)
        assert card in line and card[::-1] not in line
