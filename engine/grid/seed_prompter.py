"""The LLM player's prompts and reply reading under ``--protocol seed`` (see ``seed.py``)."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from tcgtui.engine.grid.config import VARIANTS
from tcgtui.engine.grid.seed import OUTCOMES, SeedWording, judge_reply, prompt
from tcgtui.engine.prompting import Message, Parsed

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

JSON = "json"


class SeedGridPrompter:
    """One fresh user message per move, as the seed sends it; no system message (the seed's is empty)."""

    keeps_history = False

    def __init__(self, game: GridGame, wording: SeedWording, seat: int, style: str) -> None:
        cfg = game.config
        if (cfg.invalid_limit, cfg.move_cap) != (wording.max_invalid, wording.max_moves):
            raise ValueError(
                f"--protocol seed plays {game.name} with the seed's limits: "
                f"invalid_limit={wording.max_invalid} and move_cap={wording.max_moves} "
                f"(given {cfg.invalid_limit} and {cfg.move_cap})"
            )
        self.game = game
        self.config = cfg
        self.wording = wording
        self.seat = seat
        self.style = style
        self.symbols = VARIANTS[game.name].symbols
        self.version = f"seed-{wording.version}-{style}"
        self._said = ""  # the last reply as the seed quotes it back (its JSON, or its cleaned text)

    def system(self) -> Message | None:
        return None

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        previous = (self._said, retry[1]) if retry is not None else None
        text = prompt(
            self.config,
            list(obs.board),
            self.symbols,
            self.style,
            self.wording,
            obs.seat,
            obs.invalid_counts[obs.seat],
            previous,
        )
        if self.style != "image":
            return {"role": "user", "content": text}
        # start-up time: Pillow only for a picture of the board
        from tcgtui.engine.grid.render import board_png

        png = board_png(self.game.name, obs.board, self.symbols, "e")
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        return {
            "role": "user",
            "content": [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}],
        }

    def parse(self, answer: str, obs: Any) -> Parsed:
        judged = judge_reply(self.config, list(obs.board), answer)
        self._said = judged.response
        return Parsed(judged.move, JSON, judged.kind, judged.response)

    def reason(self, parsed: Parsed) -> str:
        """The seed's name for the invalid move (its prompt quotes it as the reason)."""
        return OUTCOMES.get(parsed.error or "format", OUTCOMES["format"])

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        return self.turn(obs, [], retry=(self._said, reason))
