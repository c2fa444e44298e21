"""The card game under ``--protocol seed`` as a ``Game``: the community pack, one of the released loops."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game, IllegalMove
from tcgtui.engine.protocols import SEED
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.seed.prompt import BASELINE, NO_SUFFIX, REPOSITORY, SeedWording
from tcgtui.engine.tcg.seed.rules import (
    CARD_IDS,
    LOOPS,
    OPENING_HAND,
    STARTING_LP,
    TURN_CAP,
    Loop,
    SeedState,
    strip_move,
)

RULES = "tcg.seed_rules"  # the rules text's locale section
PACK = "community"  # the released code knows these 15 cards and no others


class SeedGame(Game[str]):
    """Both players hold the whole pool; the measured player always sits in seat 1, as in the released code."""

    name = "tcg"
    measured_seat = 0
    tcgtui_search = False

    def __init__(
        self,
        pack: Pack,
        loop: Loop,
        wording: SeedWording | None = None,
        strategy: str = BASELINE,
        qwen: str = NO_SUFFIX,
    ) -> None:
        if pack.id != PACK or tuple(c.id for c in pack.cards) != CARD_IDS:
            raise ValueError(
                f"--protocol seed plays the {PACK} pack only (the released code knows no other cards), not {pack.id!r}"
            )
        self.pack, self.loop = pack, loop
        self.wording = wording  # the released LLM prompt, from the user's checkout (llm players only)
        self.strategy, self.qwen = strategy, qwen  # its --prompt_strategy and Qwen3 suffix (seed_prompt, seed_qwen)

    @classmethod
    def from_params(
        cls, pack: Pack, loop: str, upstream: Any = None, strategy: str = BASELINE, qwen: str = NO_SUFFIX
    ) -> SeedGame:
        """``upstream``: the user's checkout (``tcgtui.upstream.Upstream``), whose source gives the prompt."""
        wording = None
        if upstream:  # unset: "" (or None once the command line has loaded it)
            wording = SeedWording.read(lambda path: upstream.text(path, REPOSITORY))
        return cls(pack, LOOPS[loop], wording, strategy, qwen)

    def new_state(self, seed: int) -> SeedState:
        return SeedState.new(self.pack, self.loop, seed)

    def run_seed(self, run_seed: int, index: int) -> int:
        """Game ``index`` of a run is dealt as the released code deals game ``seed + index``."""
        return run_seed + index

    def setup(self) -> dict[str, Any]:
        setup = {
            "pack": self.pack.id,
            "pack_version": self.pack.version,
            "pack_hash": self.pack.hash,
            "protocol": SEED,
            "seed_loop": self.loop.name,
        }
        # set only when not the default, so a game stored before these existed has the same setup
        setup.update(
            {
                k: v
                for k, v, default in (("seed_prompt", self.strategy, BASELINE), ("seed_qwen", self.qwen, NO_SUFFIX))
                if v != default
            }
        )
        return setup

    def rules_sentences(self, catalog: Any) -> list[tuple[str, str]]:
        """The rules as this protocol plays them (``locales/<lang>/tcg/seed_rules.toml``): the common
        sentences, then the ones of this game's loop."""
        params = {"starting_lp": STARTING_LP, "opening_hand": OPENING_HAND, "turn_limit": TURN_CAP}
        loops = tuple(f"{name}." for name in LOOPS)
        return [
            (f"{RULES}.{key}", catalog.t(f"{RULES}.{key}", **params))
            for key, _ in catalog.items(RULES)
            if not key.startswith(loops) or key.startswith(f"{self.loop.name}.")
        ]

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        if strip_move(text)[0] not in self.pack.index:  # type: ignore[attr-defined]
            raise IllegalMove(f"{text!r} is not a card of pack {self.pack.id!r}")
        return text
