"""Small widgets that draw the board; each renders from its data and the app's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from tcgtui.locales import Catalog
from tcgtui.tui.bidi_text import Direction

if TYPE_CHECKING:
    from tcgtui.tui.app import TcgApp


class Localized:
    """Mixin for widgets: the app's current catalogue and text direction.

    Widgets read these at render time, so switching the language is a refresh."""

    app: Any

    @property
    def tcg(self) -> TcgApp:
        return cast("TcgApp", self.app)

    @property
    def catalog(self) -> Catalog:
        return self.tcg.catalog

    @property
    def direction(self) -> Direction:
        return self.tcg.direction

    def tr(self, key: str, **params: object) -> str:
        return self.tcg.catalog.t(key, **params)
