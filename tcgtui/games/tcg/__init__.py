"""The card game's app side: its packs and deck lists read from disk (``packs``) and the
campaign ladder a person climbs (``campaign``)."""
