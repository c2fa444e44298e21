"""Keys as a person may type them: a letter in either case (Shift, Caps Lock), and what an
Arabic keyboard layout sends on the same physical key, so that Q still quits with the
layout switched to Arabic.

Every letter binding of every screen goes through ``keys``; the map is the standard
Arabic (101) layout, unshifted, by Unicode name.  B is left out: that key sends two
characters (lam-alef).
"""

from __future__ import annotations

import unicodedata

ARABIC_101 = {name: unicodedata.lookup(char) for name, char in {
    "q": "ARABIC LETTER DAD", "w": "ARABIC LETTER SAD", "e": "ARABIC LETTER THEH", "r": "ARABIC LETTER QAF",
    "t": "ARABIC LETTER FEH", "y": "ARABIC LETTER GHAIN", "u": "ARABIC LETTER AIN", "i": "ARABIC LETTER HEH",
    "o": "ARABIC LETTER KHAH", "p": "ARABIC LETTER HAH", "a": "ARABIC LETTER SHEEN",
    "s": "ARABIC LETTER SEEN", "d": "ARABIC LETTER YEH", "f": "ARABIC LETTER BEH", "g": "ARABIC LETTER LAM",
    "h": "ARABIC LETTER ALEF", "j": "ARABIC LETTER TEH", "k": "ARABIC LETTER NOON",
    "l": "ARABIC LETTER MEEM", "z": "ARABIC LETTER YEH WITH HAMZA ABOVE", "x": "ARABIC LETTER HAMZA",
    "c": "ARABIC LETTER WAW WITH HAMZA ABOVE", "v": "ARABIC LETTER REH", "n": "ARABIC LETTER ALEF MAKSURA",
    "m": "ARABIC LETTER TEH MARBUTA",
}.items()}
# Other keys the Arabic layout moves: "." sends zain, Shift+/ the Arabic question mark.
ARABIC_OTHER = {"full_stop": unicodedata.lookup("ARABIC LETTER ZAIN"), "question_mark": "arabic_question_mark"}


def keys(spec: str) -> str:
    """A binding's key list with each letter in both cases and its Arabic-layout twin:
    ``keys("q,escape")`` is ``"q,Q,<dad>,escape"``."""
    out: list[str] = []
    for key in spec.split(","):
        if len(key) == 1 and key.isascii() and key.isalpha():
            low = key.lower()
            names = [low, low.upper(), ARABIC_101.get(low, "")]
        else:
            names = [key, ARABIC_OTHER.get(key, "")]
        out += [n for n in names if n and n not in out]
    return ",".join(out)


# The one key grammar of every board (docs/keys.md): a digit, an arrow or a click SELECTS, Enter
# COMMITS.  Digits typed in quick succession make one number, so that card 12 of a hand or
# column 15 of a Gomoku board is reachable; a pause starts a new number.
DIGITS = [str(d) for d in range(10)]
NUMBER_PAUSE_S = 1.0


class TypedNumber:
    """The number a person is typing: ``1`` then ``2`` within ``NUMBER_PAUSE_S`` is 12 when 12
    is in range, else a fresh 2.  Nothing is played by typing; the choice shows and Enter plays it."""

    def __init__(self) -> None:
        self.value = 0
        self.at = float("-inf")

    def type(self, digit: int, limit: int, now: float) -> int | None:
        """The number selected once ``digit`` is typed (1..``limit``), or None if none is."""
        longer = self.value * 10 + digit
        if self.value and now - self.at <= NUMBER_PAUSE_S and longer <= limit:
            self.value = longer
        else:
            self.value = digit if 1 <= digit <= limit else 0
        self.at = now
        return self.value or None

    def reset(self) -> None:
        self.value = 0
