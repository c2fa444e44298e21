"""Small widgets that draw the screens; each renders from its data and the app's language.

Widgets and screens know the app only through ``Host``: its catalogue, its text
direction and its settings (plus the few requests a screen makes of it).  Any
app with those can host them; none of them imports the app.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from tcgtui.locales import Catalog
from tcgtui.tui.bidi_text import Direction


class HostSettings(Protocol):
    game_id: str
    params: dict[str, Any]
    lang: str
    rtl_mode: str


class Host(Protocol):
    """What widgets and screens read from the app that shows them."""

    catalog: Catalog
    settings: Any            # a HostSettings; Any so a dataclass with more fields fits

    @property
    def direction(self) -> Direction: ...

    async def toggle_language(self) -> None: ...

    def show_rules(self) -> None: ...

    def confirm_quit(self) -> None: ...


class Localized:
    """Mixin for widgets: the app's current catalogue and text direction.

    Widgets read these at render time, so switching the language is a refresh."""

    app: Any

    @property
    def host(self) -> Host:
        return cast(Host, self.app)

    @property
    def catalog(self) -> Catalog:
        return self.host.catalog

    @property
    def direction(self) -> Direction:
        return self.host.direction

    def tr(self, key: str, **params: object) -> str:
        return self.host.catalog.t(key, **params)
