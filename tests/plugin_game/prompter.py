"""What a language model reads in Nim, and how its reply is read: the last ``TAKE: N``."""

from __future__ import annotations

import re
from typing import Any

from tcgtui.engine.prompting import Message, Parsed

TAKE_RE = re.compile(r"TAKE:\s*(\d+)")


class NimPrompter:
    keeps_history = False
    version = "nim-v1"

    def __init__(self, game: Any, catalog: Any, seat: int) -> None:
        self.catalog, self.seat = catalog, seat

    def system(self) -> Message | None:
        return None

    def turn(self, obs: Any, events: list[Any], fallback: Any = None,
             retry: tuple[str, str] | None = None) -> Message:
        t = self.catalog.t
        return {"role": "user", "content": "\n\n".join((t("nim.prompts.rules", most=obs.most),
                                                         t("nim.prompts.turn", heap=obs.heap),
                                                         t("nim.prompts.format")))}

    def parse(self, answer: str, obs: Any) -> Parsed:
        found = TAKE_RE.findall(str(answer))
        if not found:
            return Parsed(None, "none", "format", str(answer).strip()[-200:])
        if found[-1] not in obs.legal_moves:
            return Parsed(None, "take", "illegal", found[-1])
        return Parsed(found[-1], "take", None, found[-1])

    def reason(self, parsed: Parsed) -> str:
        return self.catalog.t(f"nim.prompts.reason.{parsed.error}")

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        message = self.turn(obs, [])
        message["content"] += "\n\n" + reason
        return message
