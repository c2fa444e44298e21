"""A seeded app for tests; the driving helpers come from the app itself."""

from __future__ import annotations

from tcgtui.games.tcg.packs import load_pack
from tcgtui.tui.app import HUMAN, Settings, TcgApp
from tcgtui.tui.driving import play_moves, screen_text, settle

__all__ = ["make_app", "play_moves", "screen_text", "settle"]


def make_app(seats: tuple[str, str] = (HUMAN, "random"), *, lang: str = "en", seed: int = 7,
             pause: float = 0.0, rtl_mode: str = "app", pack: str = "community",
             **options: object) -> TcgApp:
    settings = Settings(seats, params={"pack": load_pack(pack)}, lang=lang, rtl_mode=rtl_mode, seed=seed,
                        pause=pause, **options)  # type: ignore[arg-type]
    return TcgApp(settings)
