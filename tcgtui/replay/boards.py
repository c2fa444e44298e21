"""Each game's position drawn as text for the replay viewer: a picture and a few facts.

The picture (a grid, a mainline, a puzzle's code) is drawn left to right in
every language; the facts are localized sentences the viewer lays out in the
language's direction.  Everything is read from the rebuilt engine state, so
the replay shows what the rules held, hidden cards included: the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rich.text import Text

from tcgtui.engine.core import Game
from tcgtui.locales import Catalog

STONES = ("X", "O")
STONE_STYLES = ("bold cyan", "bold magenta")


@dataclass
class Board:
    picture: list[Text] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


def grid(state: Any, game: Game, cat: Catalog, last: tuple[int, int] | None, lang: str) -> Board:
    cfg = state.config
    head = "   " + "".join(f"{c + 1:>3}" for c in range(cfg.cols))
    rows = [Text(head, style="dim")]
    for r in range(cfg.rows):
        line = Text(f"{r + 1:>3}", style="dim")
        for c in range(cfg.cols):
            v = state.board[r * cfg.cols + c]
            glyph = "·" if v == 0 else STONES[v - 1]
            style = "" if v == 0 else STONE_STYLES[v - 1]
            line.append("  ")
            line.append(glyph, style=style + (" reverse" if (r, c) == last else ""))
        rows.append(line)
    facts = [cat.t("replay.board.to_move", seat=state.current_player + 1)] if not state.is_terminal() else []
    return Board(rows, facts)


def tcg(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    pack = game.pack

    def name(idx: int) -> str:
        return pack.cards[idx].name(lang)

    facts = [cat.t("replay.board.turn", turn=state.turn)]
    for p in (0, 1):
        sep = cat.t("ui.player.list_sep")
        champions = sep.join(f"{name(ch.card)} {ch.cur_power}/{ch.cur_guard}" for ch in state.boards[p])
        facts.append(cat.t("replay.board.tcg_seat", seat=p + 1, lp=state.lp[p], hand=len(state.hands[p]),
                           deck=len(state.decks[p])))
        facts.append("  " + cat.t("replay.board.hand", cards=sep.join(name(c) for c in state.hands[p]) or "–"))
        facts.append("  " + cat.t("replay.board.champions", cards=champions or "–"))
        if state.tricks[p]:
            facts.append("  " + cat.t("replay.board.tricks", cards=sep.join(name(c) for c in state.tricks[p])))
    return Board([], facts)


def eleusis(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    main = Text()
    for i, (card, rejected) in enumerate(state.board):
        if i:
            main.append("  ")
        main.append(card.symbol() if card is not None else "?", style="bold")
        if rejected:
            main.append("[" + " ".join(c.symbol() for c in rejected) + "]", style="red")
    hand = Text(" ".join(c.symbol() for c in state.hand), style="dim")
    facts = [cat.t("replay.board.eleusis", turn=state.turns, hand=len(state.hand), deck=len(state.deck))]
    return Board([main, Text(""), hand], facts)


def duel(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    facts = [cat.t("replay.board.duel", wins1=state.wins[0], wins2=state.wins[1], pen1=state.penalties[0],
                   pen2=state.penalties[1])]
    cur = state.current
    picture: list[Text] = []
    if cur is not None:
        facts.append(cat.t("replay.board.round", round=cur.number, proposer=cur.proposer + 1))
        picture = [Text(line) for line in (cur.code or "").rstrip().splitlines()]
        if cur.value is not None:
            picture.append(Text(f"x = {cur.value}", style="bold"))
    return Board(picture, facts)


def deck(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    q = state.question
    picture = [Text(", ".join(f"{count}×{name}" for name, count in q.deck), style="dim")]
    for letter, option in zip("ABCDEF", q.options):
        style = "bold reverse" if letter == state.chosen else ""
        picture.append(Text(f"{letter}  {option.name}", style=style))
    facts = [cat.t("replay.board.deck", answer=q.answer)] if state.chosen else []
    return Board(picture, facts)


DRAW: dict[str, Callable[..., Board]] = {"grid": grid, "tcg": tcg, "eleusis": eleusis, "duel": duel, "deck": deck}


def draw(replay: Any, index: int, cat: Catalog, lang: str) -> Board:
    """The position after ``index`` moves."""
    from tcgtui.replay.moments import family
    step = replay.steps[index]
    last = None
    fam = family(replay.row.game)
    if fam == "grid" and index and not step.move.startswith("!"):
        before = replay.steps[index - 1].state
        last = before.target(replay.game.move_from_text(step.move))
    if fam in DRAW:
        return DRAW[fam](step.state, replay.game, cat, last, lang)
    facts = replay.spec.replay_facts
    return Board([], list(facts(step.state, cat)) if facts is not None else [])
