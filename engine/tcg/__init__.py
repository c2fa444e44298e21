"""The two-player trading card game of TCG-Bench, with cards as data."""

from typing import Any

from tcgtui.engine.protocols import PROTOCOL, SEED, TCGTUI, UPSTREAM, protocol_of
from tcgtui.engine.registry import (
    BenchHooks,
    Choices,
    FakeModel,
    GameInfo,
    GameSpec,
    Param,
    Reference,
    ReportHooks,
    StoreHooks,
    ToolHooks,
    register,
)
from tcgtui.engine.tcg.cards import CHAMPION, SPELL, TRICK, Card, Pack
from tcgtui.engine.tcg.game import TcgGame
from tcgtui.engine.tcg.grouping import GROUP_KEYS
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation
from tcgtui.engine.tcg.pack import PackError, build_pack
from tcgtui.engine.tcg.redeal import determinize
from tcgtui.engine.tcg.seed.prompt import BASELINE, NO_SUFFIX, QWEN_MODES, STRATEGIES
from tcgtui.engine.tcg.state import TcgState

__all__ = [
    "Card",
    "ChampionView",
    "Pack",
    "PackError",
    "TcgGame",
    "TcgObservation",
    "TcgState",
    "build_pack",
    "determinize",
]


def _make(params: dict) -> TcgGame:
    from tcgtui.engine.tcg.decks import build_deck, whole_pack

    pack = params["pack"]
    if protocol_of(params) == SEED:
        from tcgtui.engine.tcg.seed.game import SeedGame

        if params.get("deck") or params.get("opp_deck"):
            raise ValueError(
                "--protocol seed deals both players the whole pool, as the released code does; "
                "it takes no --deck or --opp-deck"
            )
        return SeedGame.from_params(
            pack,
            params["seed_loop"],
            params.get("upstream"),  # type: ignore[return-value]
            params.get("seed_prompt", BASELINE),
            params.get("seed_qwen", NO_SUFFIX),
        )
    for name, default in (("seed_prompt", BASELINE), ("seed_qwen", NO_SUFFIX)):
        if params.get(name, default) != default:
            raise ValueError(
                f"--param {name}={params[name]} sets the released prompt: it plays under --protocol seed only"
            )
    if not params.get("deck") and not params.get("opp_deck"):
        return TcgGame(pack)

    def deck(raw: dict | None):
        if not raw:
            return whole_pack(pack)
        return build_deck(pack, {k: v for k, v in raw.items() if k != "file"}, str(raw.get("file", "deck")))

    return TcgGame(pack, (deck(params.get("deck")), deck(params.get("opp_deck"))))


def _prompter(game: TcgGame, catalog, seat: int, style: str | None = None):
    from tcgtui.engine.tcg.prompter import build
    from tcgtui.engine.tcg.seed.game import SeedGame

    if isinstance(game, SeedGame):
        from tcgtui.engine.tcg.seed.prompt import REPOSITORY, SeedPrompter, WordingError

        if game.wording is None:
            raise WordingError(catalog.t("tcg.seed.upstream_needed", repository=REPOSITORY))
        return SeedPrompter(game.wording, catalog.code, seat, game.strategy, game.qwen)
    return build(game, catalog, seat, style)


def _narrator(game: TcgGame, catalog, viewer: int | None = None):
    from tcgtui.engine.tcg.narrator import Narrator

    return Narrator(catalog, game.pack, viewer)


def _setup_params(setup: dict) -> dict:
    """The deck lists a game was played with, as seated, from its setup (none: the whole pack each)."""
    decks = setup.get("decks")
    return {"deck": {"cards": decks[0]}, "opp_deck": {"cards": decks[1]}} if decks else {}


def _fast() -> object:
    import importlib

    return importlib.import_module("tcgtui.engine.tcg.fast.search")


def _move_kind(game: Any, text: str) -> str | None:
    """A move's kind as the store keeps it: the card's type (the released search's ``card+kept`` too).
    ``game``: a ``TcgGame``, or under --protocol seed a ``SeedGame``; each carries its pack."""
    from tcgtui.engine.tcg.seed.rules import strip_move

    try:
        return game.pack.card(strip_move(text)[0]).type
    except KeyError:
        return None


def _report_meta() -> dict:
    from tcgtui.engine.tcg.analysis import DECAY_FORM

    return {"decay_form": DECAY_FORM}


def _analyses(games: list) -> dict:
    from tcgtui.engine.tcg.analysis import sections  # scipy loads only when reporting

    return sections(games)


def _seed_tables() -> tuple:
    from tcgtui.engine.tcg.seed_tables import tables

    return tables()


def _pack_of(game: Any) -> Pack:
    return game.pack  # a TcgGame's, or a SeedGame's (the community pack)


def _rules_text(game: TcgGame, catalog) -> list:
    from tcgtui.engine.tcg.describe import rules_sentences
    from tcgtui.engine.tcg.seed.game import SeedGame

    if isinstance(game, SeedGame):
        return game.rules_sentences(catalog)
    return rules_sentences(catalog, game.pack, deck_lists=not game.default_decks)


def _fake_player(game_id: str, catalogs, rng, **options):
    from tcgtui.engine.tcg.fake_replies import player

    return player(game_id, catalogs, rng, **options)


def _seed_policy(kind: str):
    """The released code's opponents (engine/tcg/seed/search.py), for --protocol seed."""

    def policy(game, arg):
        from tcgtui.engine.tcg.seed import search

        return search.rollout(arg) if kind == "rollout" else search.mcts(arg)

    return policy


SEED_LOOP = Param("seed_loop", str, "benchmark", choices=("benchmark", "baseline"))
# The released LLM prompt's --prompt_strategy, and its Qwen3 suffix (none: no suffix, tcgtui's default before)
SEED_PROMPT = Param("seed_prompt", str, BASELINE, choices=STRATEGIES)
SEED_QWEN = Param("seed_qwen", str, NO_SUFFIX, choices=QWEN_MODES)
SEED_REFERENCES = (
    Reference(
        "rollout",
        _seed_policy("rollout"),
        takes_arg=True,
        default_arg=1,
        max_arg=100_000,
        sees_state=True,
        protocol=SEED,
    ),
    Reference(
        "mcts-seed",
        _seed_policy("mcts-seed"),
        takes_arg=True,
        default_arg=1,
        max_arg=100_000,
        sees_state=True,
        protocol=SEED,
    ),
)


def _nested_policy(game, arg):
    """``nmc:K`` (engine/tcg/nested.py): flat Monte Carlo with playouts played by ``mc:5``."""
    from tcgtui.engine.tcg.nested import policy

    return policy(game, arg)


def _nested_anytime(game, arg):
    """``nmc:K`` under a person's time budget: the playouts it finished in time."""
    from tcgtui.engine.tcg.nested import anytime

    return anytime(game, arg)


NESTED = Reference(
    "nmc",
    _nested_policy,
    takes_arg=True,
    default_arg=100,
    max_arg=10_000,
    protocol=TCGTUI,
    anytime=_nested_anytime,
    fast=True,
)

# The report shows the card game's sections in this order, always (its layout predates the arena).
REPORT_LAYOUT = ("win_rates", "decay", "language_gap", "summary", "error_patterns", "quarters", "llm")

PARAMS = (
    Param(
        "pack",
        str,
        "community",
        kind="pack",
        digest="pack_hash",
        flag="--pack",
        metavar="DIR",
        help_key="arena.pack",
        label_key="arena.pack_label",
    ),
    # both deck lists are the setup's "decks": one key, the deck's
    Param(
        "deck",
        str,
        "",
        kind="deck",
        digest="decks",
        flag="--deck",
        metavar="FILE",
        help_key="arena.deck",
        label_key="arena.deck_label",
    ),
    Param(
        "opp_deck",
        str,
        "",
        kind="deck",
        flag="--opp-deck",
        metavar="FILE",
        help_key="arena.opp_deck",
        keyed=False,
        label_key="arena.opp_deck_label",
    ),
    PROTOCOL,
    UPSTREAM,
    SEED_LOOP,
    SEED_PROMPT,
    SEED_QWEN,
)


def _files_of(game: Any) -> dict[str, Any]:
    """The one file a card game is played with, its pack (a seed-protocol game has one too)."""
    return {"pack": game.pack}


register(
    GameSpec(
        GameInfo("tcg", seats=2, params=PARAMS, prompt_styles=("text",), peek=True, campaign=True),
        make=_make,
        prompter=_prompter,
        narrator=_narrator,
        analyses=_analyses,
        fast=_fast,
        rules_text=_rules_text,
        references=SEED_REFERENCES + (NESTED,),
        seed_tables=_seed_tables,
        files_of=_files_of,
        setup_params=_setup_params,
        store=StoreHooks(move_kind=_move_kind),
        bench=BenchHooks(rungs=("nmc:100", "nmc:200")),
        report=ReportHooks(
            layout=REPORT_LAYOUT,
            meta=_report_meta,
            group_keys=GROUP_KEYS,
            default_keys=tuple(GROUP_KEYS),
            notes={"decay": "decay", "summary": "decisions", "error_patterns": "patterns", "quarters": "quarters"},
        ),
        # diversity: the type of the card played (a decision that plays none is not counted)
        tools=ToolHooks(
            choices=lambda _params: Choices("card type", (CHAMPION, SPELL, TRICK), lambda _move, kind: kind)
        ),
        fake_model=FakeModel(_fake_player),
    )
)
