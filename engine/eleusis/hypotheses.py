"""The reference scientist's hypothesis space: the 26 rules and their simple variants, in the rule language.

Variants are the shapes the library's rules take with other constants (another
suit, another rank range, another cycle, another pairing) and the other
relations to the previous card a person would try first.  Every one is plain
rule-language text, compiled by the same checker as any guess.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations

from tcgtui.engine.eleusis.library import library
from tcgtui.engine.eleusis.rulelang import Rule, compile_rule

SUITS = "HDCS"
FIRST = "if not mainline:\n    return True\nlast = mainline[-1]\n"
PAIRED = "n = len(mainline)\nif n == 0:\n    return True\nif n % 2 == 1:\n    return {same}\nreturn {differ}\n"


def _static() -> list[str]:
    out = [f"return card.suit == '{s}'" for s in SUITS]
    out += [f"return card.suit != '{s}'" for s in SUITS]
    out += [f"return card.suit in ('{a}', '{b}')" for a, b in combinations(SUITS, 2)]
    out += [
        "return card.rank % 2 == 0",
        "return card.rank % 2 == 1",
        "return card.is_face",
        "return not card.is_face",
        "return card.rank in (2, 3, 5, 7, 11, 13)",
        "return card.rank not in (2, 3, 5, 7, 11, 13)",
    ]
    out += [f"return {lo} <= card.rank <= {hi}" for lo in range(1, 14) for hi in range(lo, 14) if (lo, hi) != (1, 13)]
    for colour in ("red", "black"):
        out += [
            f"return card.color == '{colour}' and card.is_face",
            f"return card.color == '{colour}' and not card.is_face",
            f"return card.color == '{colour}' or card.is_face",
            f"return card.color == '{colour}' and card.rank % 2 == 0",
            f"return card.color == '{colour}' and card.rank % 2 == 1",
        ]
        out += [f"return card.color == '{colour}' and card.rank <= {k}" for k in range(2, 13)]
        out += [f"return card.color == '{colour}' and card.rank >= {k}" for k in range(2, 13)]
        other = "black" if colour == "red" else "red"
        out.append(f"if card.is_face:\n    return card.color == '{colour}'\nreturn card.color == '{other}'")
    return out


def _sequential() -> list[str]:
    relations = [
        "card.color == last.color",
        "card.color != last.color",
        "card.suit == last.suit",
        "card.suit != last.suit",
        "card.rank % 2 == last.rank % 2",
        "card.rank % 2 != last.rank % 2",
        "card.rank > last.rank",
        "card.rank >= last.rank",
        "card.rank < last.rank",
        "card.rank <= last.rank",
        "card.rank == last.rank",
        "card.rank != last.rank",
        "card.is_face == last.is_face",
        "card.is_face != last.is_face",
        "abs(card.rank - last.rank) <= 1",
        "abs(card.rank - last.rank) <= 2",
        "abs(card.rank - last.rank) >= 2",
        "card.suit == last.suit or card.rank == last.rank",
        "card.color == last.color or card.rank % 2 == last.rank % 2",
        "card.suit != last.suit and card.color == last.color",
        "card.suit == last.suit or abs(card.rank - last.rank) == 2",
        "card.color != last.color and card.rank % 2 != last.rank % 2",
    ]
    out = [FIRST + f"return {r}" for r in relations]
    for order in permutations("SCD"):
        cycle = "H" + "".join(order)
        following = ", ".join(f"'{cycle[i]}': '{cycle[(i + 1) % 4]}'" for i in range(4))
        out.append(FIRST + f"following = {{{following}}}\nreturn card.suit == following[last.suit]")
    for a in ("HS", "HC"):  # the other two ways to split the suits in two (HD/CS is the colour)
        out.append(FIRST + f"return (card.suit in '{a}') != (last.suit in '{a}')")
    for prop in ("suit", "rank", "color"):
        out.append(
            PAIRED.format(same=f"card.{prop} == mainline[-1].{prop}", differ=f"card.{prop} != mainline[-1].{prop}")
        )
        out.append(PAIRED.format(same=f"card.{prop} == mainline[-1].{prop}", differ="True"))
    out.append(FIRST + "if last.color == 'red':\n    return card.rank >= last.rank\nreturn card.rank <= last.rank")
    out.append(FIRST + "if last.color == 'red':\n    return card.rank <= last.rank\nreturn card.rank >= last.rank")
    out.append(FIRST + "if last.is_face:\n    return card.suit == last.suit\nreturn card.suit != last.suit")
    out.append(FIRST + "if last.is_face:\n    return card.color == last.color\nreturn card.color != last.color")
    return out


@cache
def space() -> tuple[Rule, ...]:
    """Every hypothesis, compiled once, the library's first; duplicates of the same text dropped."""
    texts = [r.code for r in library()] + _static() + _sequential()
    seen: set[str] = set()
    out = []
    for text in (t.strip() for t in texts):
        if text not in seen:
            seen.add(text)
            out.append(compile_rule(text))
    return tuple(out)
