"""What a language model reads each move of a grid game, and how its reply is read.

One fresh user message per move (no history): the game, the board in the chosen style,
the player's role, the JSON move format, what is invalid and, after an invalid move, the
previous reply, why it was invalid and how many invalid moves remain.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import TYPE_CHECKING, Any

from tcgtui.engine.grid.config import EMPTY_SYMBOL, VARIANTS
from tcgtui.engine.prompting import Message, Parsed

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

STYLES = ("list", "illustration", "image")
QUOTES = str.maketrans(
    {
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2018": '"',
        "\u2019": '"',
        "'": '"',
        chr(0x060C): ",",
    }
)  # the Arabic comma too


class GridPrompter:
    keeps_history = False

    def __init__(self, game: GridGame, catalog: Any, seat: int, style: str = "list") -> None:
        if style not in STYLES:
            raise ValueError(f"prompt style {style!r}: expected one of {', '.join(STYLES)}")
        self.game = game
        self.config = game.config
        self.catalog = catalog
        self.seat = seat
        self.style = style
        self.variant = VARIANTS[game.name]
        self.kind = "column" if self.config.gravity else "cell"
        used = "\n".join(repr(catalog.raw(k)) for k in self._keys())
        digest = hashlib.sha1(used.encode("utf-8")).hexdigest()[:8]
        self.version = f"grid-v1-{catalog.code}-{style}-{digest}"

    def _keys(self) -> list[str]:
        gid = self.game.name
        keys = [
            f"grid.prompts.explain.{gid}",
            "grid.prompts.coords.text",
            "grid.prompts.role.text",
            "grid.prompts.role_first",
            "grid.prompts.role_second",
            f"grid.prompts.format.{self.kind}",
            f"grid.prompts.warning.{self.kind}",
            "grid.prompts.retry.previous",
            "grid.prompts.retry.reason",
            "grid.prompts.retry.left",
            "grid.prompts.reason.format",
            "grid.prompts.reason.out_of_bounds",
            "grid.prompts.reason.taken",
            "grid.prompts.reason.taken_column",
            f"grid.games.{gid}.first",
            f"grid.games.{gid}.second",
        ]
        if self.style == "list":
            keys += [
                "grid.prompts.list.intro",
                "grid.prompts.list.first",
                "grid.prompts.list.second",
                "grid.prompts.none",
                "grid.prompts.separator",
            ]
        else:
            keys.append(f"grid.prompts.{self.style}.intro")
        return keys

    def _t(self, key: str, **params: Any) -> str:
        return self.catalog.t(f"grid.prompts.{key}", **params)

    # --- the board -------------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.catalog.t(f"grid.games.{self.game.name}.{'first' if seat == 0 else 'second'}")

    def board_list(self, obs: Any) -> str:
        lines = [self._t("list.intro")]
        sep = self.catalog.t("grid.prompts.separator")
        for seat, key in ((0, "list.first"), (1, "list.second")):
            cells = [f"{r + 1},{c + 1}" for r, c in obs.stones(seat)]
            lines.append(self._t(key, name=self._name(seat), cells=sep.join(cells) or self._t("none")))
        return "\n".join(lines)

    def board_rows(self, obs: Any) -> list[str]:
        first, second = self.variant.symbols
        table = str.maketrans({".": EMPTY_SYMBOL, "X": first, "O": second})
        return [row.translate(table) for row in obs.board]

    def board_illustration(self, obs: Any) -> str:
        first, second = self.variant.symbols
        return "\n".join(
            [self._t("illustration.intro", first=first, second=second, empty=EMPTY_SYMBOL), *self.board_rows(obs)]
        )

    def board_png(self, obs: Any) -> bytes:
        # start-up time: Pillow only for a picture of the board
        from tcgtui.engine.grid.render import board_png

        return board_png(self.game.name, obs.board, self.variant.symbols, EMPTY_SYMBOL)

    # --- the messages ----------------------------------------------------------------------------
    def system(self) -> Message | None:
        return None

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        cfg = self.config
        seat = obs.seat
        parts = [
            self._t(f"explain.{self.game.name}", rows=cfg.rows, cols=cfg.cols, connect=cfg.connect),
            self._t("coords.text", rows=cfg.rows, cols=cfg.cols),
        ]
        if self.style == "list":
            parts.append(self.board_list(obs))
        elif self.style == "illustration":
            parts.append(self.board_illustration(obs))
        else:
            first, second = self.variant.symbols
            parts.append(self._t("image.intro", first=first, second=second))
        parts.append(
            self._t(
                "role.text",
                role=self._t("role_first" if seat == 0 else "role_second"),
                name=self._name(seat),
                symbol=self.variant.symbols[seat],
            )
        )
        parts.append(self._t(f"format.{self.kind}", rows=cfg.rows, cols=cfg.cols))
        count = obs.invalid_counts[seat]
        parts.append(self._t(f"warning.{self.kind}", limit=cfg.invalid_limit, count=count))
        if retry is not None:
            previous, reason = retry
            parts.append(self._t("retry.previous", reply=previous))
            parts.append(self._t("retry.reason", reason=reason))
            parts.append(self._t("retry.left", left=max(0, cfg.invalid_limit - count)))
        text = "\n\n".join(parts)
        if self.style != "image":
            return {"role": "user", "content": text}
        url = "data:image/png;base64," + base64.b64encode(self.board_png(obs)).decode("ascii")
        return {
            "role": "user",
            "content": [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}],
        }

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        return self.turn(obs, [], retry=("", reason))

    # --- the reply -------------------------------------------------------------------------------
    def parse(self, answer: str, obs: Any) -> Parsed:
        text = str(answer).translate(QUOTES)
        start, end = text.rfind("{"), text.rfind("}")
        if start < 0 or end < start:
            return Parsed(None, "json", "format", text.strip()[-200:])
        snippet = text[start : end + 1]
        try:
            data = json.loads(snippet)
        except ValueError:
            return Parsed(None, "json", "format", snippet)
        want = {"column"} if self.config.gravity else {"row", "column"}
        if not isinstance(data, dict) or set(data) != want:
            return Parsed(None, "json", "format", snippet)
        nums = {}
        for key, value in data.items():
            if isinstance(value, bool):
                return Parsed(None, "json", "format", snippet)
            if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
                value = int(value.strip())
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if not isinstance(value, int):
                return Parsed(None, "json", "format", snippet)
            nums[key] = value
        cfg = self.config
        c = nums["column"]
        if self.config.gravity:
            if not 1 <= c <= cfg.cols:
                return Parsed(None, "json", "out_of_bounds", snippet)
            if obs.board[0][c - 1] != ".":
                return Parsed(None, "json", "taken", snippet)
            return Parsed(str(c), "json", None, snippet)
        r = nums["row"]
        if not (1 <= r <= cfg.rows and 1 <= c <= cfg.cols):
            return Parsed(None, "json", "out_of_bounds", snippet)
        if obs.board[r - 1][c - 1] != ".":
            return Parsed(None, "json", "taken", snippet)
        return Parsed(f"{r},{c}", "json", None, snippet)

    def reason(self, parsed: Parsed) -> str:
        kind = parsed.error or "format"
        if kind == "taken" and self.config.gravity:
            kind = "taken_column"
        if kind not in ("format", "out_of_bounds", "taken", "taken_column"):
            kind = "format"
        return self._t(f"reason.{kind}")
