"""What could be a credential, so that none is ever sent from a file, stored, printed or reported.

A key has one way in: the environment variable an entry names (or ``$TCGTUI_API_KEY``...),
sent only in the ``Authorization`` header.  Anything else that looks like one is refused
before it is used: a setting whose name says key, token, secret or password (``x-api-key``,
``openai_api_key``, ``headers.Authorization``) at any depth of ``extra_body``, a string that
looks like a provider's key, a URL with a key in its query, and a key written where a
variable's name goes.  The value is never repeated in the refusal.

``extra_body`` is also held to what JSON can carry: a TOML date or time has no JSON form.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

# Names (lower case, '-' and '_' dropped) that hold a credential: ending so, or so exactly.
_NAME = re.compile(
    r"(api|access|auth|private|secret|session|refresh|client|bearer)?"
    r"(key|token|secret|password|passwd|pwd|credentials?|cookie)$"
    r"|^(authorization|auth|bearer|headers|xapikey)$"
)
# Values with a provider's key prefix, or a bearer header.
_VALUE = re.compile(
    r"^(sk|pk|rk|hf|gsk|xai|ghp|gho|ghs|github_pat|nvapi|pplx|r8|glpat|AIza|AKIA|ya29)[-_.]"
    r"[A-Za-z0-9_.-]{8,}$|^(bearer|basic|token)\s+\S{8,}$",
    re.I,
)
# A long word of mixed case and digits is a key, not a variable's name (those are WORDS_LIKE_THIS).
_RANDOM = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9_-]{24,}$")
MAX_DEPTH = 32


class Refused(ValueError):
    """``where``: the dotted path of the value refused; ``why``: ``key`` or ``json``."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where, self.why = where, why


# Request fields that name no credential though they end like one (OpenAI's cache routing).
_NOT_KEYS = frozenset({"promptcachekey"})


def key_like_name(name: str) -> bool:
    """A setting's name that says it holds a credential (``x-api-key``, ``Authorization``)."""
    plain = re.sub(r"[^a-z0-9]", "", name.lower())
    return plain not in _NOT_KEYS and _NAME.search(plain) is not None


def key_like_value(value: str) -> bool:
    """A string that looks like a key: a provider's prefix, a bearer header, or a long random word."""
    text = value.strip()
    return _VALUE.match(text) is not None or _RANDOM.match(text) is not None


def key_like_variable(name: str) -> bool:
    """A key written where the environment variable's name goes (``hf_...``, ``gsk_...``)."""
    return key_like_value(name)


def url_has_key(url: str) -> bool:
    """Credentials in a base URL: user:password before the host, or a key-like query parameter."""
    try:
        parts = urlsplit(url.strip())
        pairs = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return False
    return "@" in parts.netloc or any(key_like_name(k) or key_like_value(v) for k, v in pairs)


def check_body(extra: Any, where: str = "extra_body", depth: int = 0) -> None:
    """Raise ``Refused`` at the first key-like name or value in ``extra`` (at any depth), or the
    first value JSON cannot carry; the message names the path, never the value."""
    if depth > MAX_DEPTH:
        raise Refused(where, "json")
    if isinstance(extra, dict):
        for key, value in extra.items():
            if not isinstance(key, str):
                raise Refused(where, "json")
            path = f"{where}.{key}"
            if key_like_name(key):
                raise Refused(path, "key")
            check_body(value, path, depth + 1)
    elif isinstance(extra, list):
        for i, value in enumerate(extra):
            check_body(value, f"{where}[{i}]", depth + 1)
    elif isinstance(extra, str):
        if key_like_value(extra):
            raise Refused(where, "key")
    elif extra is not None and not isinstance(extra, (bool, int, float)):
        raise Refused(where, "json")
