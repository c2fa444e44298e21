"""Participants' links: a random part and an HMAC of it, so a garbled or invented link is told apart
from one this server gave out, across restarts (the key is kept beside the store, readable by its
owner only).  The whole token matches ``study join``'s token format ([A-Za-z0-9_-]{16,64})."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

RANDOM_CHARS = 16          # 12 random bytes, url-safe base64
SIGNATURE_CHARS = 16       # 96 bits of HMAC-SHA256
TOKEN_RE = re.compile(rf"[A-Za-z0-9_-]{{{RANDOM_CHARS + SIGNATURE_CHARS}}}")
KEY_BYTES = 32


def key_path(db: Path) -> Path:
    """The signing key's file: beside the store, so links live as long as the games they lead to."""
    return db.with_name(db.name + ".serve-key")


def load_key(db: Path) -> bytes:
    """The store's signing key, made on first use (0600; an existing key is never replaced)."""
    path = key_path(db)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) != KEY_BYTES:
            raise ValueError(f"{path}: a link key is {KEY_BYTES} bytes; this file has {len(key)}")
        return key
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    return key


def _sign(key: bytes, study_id: str, random_part: str) -> str:
    mac = hmac.new(key, f"{study_id}\0{random_part}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:SIGNATURE_CHARS]


def mint(key: bytes, study_id: str) -> str:
    """A fresh participant's token for this study."""
    random_part = secrets.token_urlsafe(12)
    return random_part + _sign(key, study_id, random_part)


def valid(key: bytes, study_id: str, token: str) -> bool:
    """Whether ``token`` was given out for this study by a server holding ``key``."""
    if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
        return False
    random_part, signature = token[:RANDOM_CHARS], token[RANDOM_CHARS:]
    return hmac.compare_digest(signature, _sign(key, study_id, random_part))
