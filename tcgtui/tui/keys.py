"""Keys as a person may type them: a letter in either case (Shift, Caps Lock), and what an
Arabic keyboard layout sends on the same physical key, so that Q still quits with the
layout switched to Arabic.

Every letter binding of every screen goes through ``keys``; the map is the standard
Arabic (101) layout, unshifted.  B is left out: that key sends two characters (لا).
"""

from __future__ import annotations

ARABIC_101 = {
    "q": "ض", "w": "ص", "e": "ث", "r": "ق", "t": "ف", "y": "غ", "u": "ع", "i": "ه", "o": "خ", "p": "ح",
    "a": "ش", "s": "س", "d": "ي", "f": "ب", "g": "ل", "h": "ا", "j": "ت", "k": "ن", "l": "م",
    "z": "ئ", "x": "ء", "c": "ؤ", "v": "ر", "n": "ى", "m": "ة",
}
# Other keys the Arabic layout moves: "." sends ز, Shift+/ sends the Arabic question mark.
ARABIC_OTHER = {"full_stop": "ز", "question_mark": "arabic_question_mark"}


def keys(spec: str) -> str:
    """A binding's key list with each letter in both cases and its Arabic-layout twin:
    ``keys("q,escape")`` is ``"q,Q,ض,escape"``."""
    out: list[str] = []
    for key in spec.split(","):
        if len(key) == 1 and key.isascii() and key.isalpha():
            low = key.lower()
            names = [low, low.upper(), ARABIC_101.get(low, "")]
        else:
            names = [key, ARABIC_OTHER.get(key, "")]
        out += [n for n in names if n and n not in out]
    return ",".join(out)
