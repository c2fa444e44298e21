"""The game registry: every game registers itself once, under its id.

A game is a package under ``engine/`` whose ``__init__`` calls ``register``;
nothing outside that package, its app side (``tcgtui/games/<id>/``, declaring an
``AppSide``), its screen, its ``locales/<lang>/<id>/`` folder and its tests names
it (tests/test_game_locality.py).  ``games()`` finds the packages by walking
``engine/`` (importing a game package is cheap: heavy parts such as compiled
search load only when used), so a new game needs no list to be edited.

What a spec holds is pure: rules, parameters, text builders for prompts and
narration, report analyses, reference policies.  Players live in
``opponents``, screens in ``tcgtui.tui.games``; both look games up here.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tcgtui.engine import core
from tcgtui.engine.core import Game, GameState, Outcome
from tcgtui.engine.prompting import Prompter

if TYPE_CHECKING:
    from tcgtui.locales import Catalog

WDL, SCORE = "wdl", "score"  # outcome kinds: win/draw/loss, or a number per seat
LIST, TEXT = "list", "text"  # move kinds: a finite list of legal moves, or free text checked by validate()
AGENT, RULES = "agent", "rules"  # who handles an unusable reply: the player (re-prompt, fallback) or the rules


class UnknownGame(LookupError):
    """No game is registered under that id."""


class PluginError(ImportError):
    """A game plug-in (entry point group ``tcgtui.games``) could not be imported."""


class ParamError(ValueError):
    """A game parameter given on the command line does not fit the game.  It carries what is wrong
    (``param`` and ``value``; or ``game`` and the unknown ``name``) so the layers above say it in the
    reader's language (``tcgtui.arena.param_error_text``); ``str()`` is the English of logs and tests."""

    def __init__(
        self, message: str, *, param: Param | None = None, value: Any = None, game: str = "", name: str = ""
    ) -> None:
        super().__init__(message)
        self.param, self.value, self.game, self.name = param, value, game, name


@dataclass(frozen=True)
class Param:
    """One setting of a game (a board size, a threshold, a pack), with its type and default."""

    name: str
    type: type
    default: Any
    choices: tuple[Any, ...] = ()
    low: float | None = None  # inclusive bounds for numbers
    high: float | None = None
    kind: str = (
        ""  # a file kind (a pack, a question set...): a name or path, loaded by the caller (the engine does no I/O)
    )
    words: tuple[tuple[str, Any], ...] = ()  # values a word stands for, outside the bounds (Eleusis's rule=drawn)
    # A flag of its own (``--pack``) beside ``--param NAME=VALUE``: tcgtui/arena.py adds it to every
    # command that takes ``--game``, with ``dest`` the parameter's name.  "": only ``--param``.
    flag: str = ""
    metavar: str = ""  # the flag's value in --help; "": argparse lists ``choices`` and checks them
    help_key: str = ""  # the locale key of the flag's --help text
    # The locale key of its short name where a person sets it before a game: set, the home screen
    # offers it (tcgtui/tui/screens/home_params.py), with the help_key's text as its explanation.
    label_key: str = ""
    # Reports keep results apart by every parameter's value (tcgtui/report/grouping.py), unless it is
    # not ``keyed``: set game by game within one run (Eleusis's drawn rule), or where a seed's text was
    # read from.  ``digest``: the setup entry naming a file parameter's content (a pack's hash); where the
    # game also hands back the file as loaded (``GameSpec.files_of``: a ``Resource``), the setup names it
    # by ``NAME``, ``NAME_version`` and the digest, and the run's identity, a resume and a replay hold it.
    keyed: bool = True
    digest: str = ""

    def __post_init__(self) -> None:
        if self.flag and not (self.flag.startswith("--") and self.help_key):
            raise TypeError(f"parameter {self.name}: a flag is spelt --NAME and needs a help_key")
        if self.label_key and not self.help_key:
            raise TypeError(f"parameter {self.name}: a parameter home offers (label_key) needs a help_key")
        # Every number has both bounds: a value no game could use (move_cap=10**30) is refused when
        # given, not found out (or not) while playing.
        if self.type in (int, float) and not self.choices and (self.low is None or self.high is None):
            raise TypeError(f"parameter {self.name}: a number needs low and high bounds")

    def parse(self, text: str) -> Any:
        """The value of ``text`` for this parameter; ParamError names what was expected."""
        if self.kind:
            return text
        word = next((v for w, v in self.words if w.casefold() == text.strip().casefold()), None)
        if word is not None:
            return word
        try:
            value = self.type(text)
        except (TypeError, ValueError):
            raise ParamError(f"{self.name}={text!r}: expected {self.expected()}", param=self, value=text) from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        if self.kind or any(value == v for _, v in self.words):
            return value
        if isinstance(value, float) and not math.isfinite(value):
            raise ParamError(f"{self.name}={value!r}: expected {self.expected()}", param=self, value=value)
        if self.choices and isinstance(value, str):  # choices are matched ignoring case
            value = next((c for c in self.choices if isinstance(c, str) and c.casefold() == value.casefold()), value)
        if self.choices and value not in self.choices:
            raise ParamError(f"{self.name}={value!r}: expected {self.expected()}", param=self, value=value)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ParamError(f"{self.name}={value!r}: expected {self.expected()}", param=self, value=value)
        return value

    def shown(self, value: Any) -> str:
        """``value`` as ``tcgtui games`` and ``--param`` write it: its word, if it has one."""
        return next((w for w, v in self.words if v == value), str(value))

    def expected(self) -> str:
        words = "".join(f", or {w}" for w, _ in self.words)
        return self._expected() + words

    def _expected(self) -> str:
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        kind = {int: "an integer", float: "a number", str: "text"}.get(self.type, self.type.__name__)
        if self.low is not None and self.high is not None:
            return f"{kind} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{kind} of at least {self.low:g}"
        return kind


@dataclass(frozen=True)
class Variant:
    """A game users reach as a variant of another: ``--game duel --bank FILE`` plays ``duel-bank``.
    Read by tcgtui/arena.py (which game a command line names) and ``tcgtui games`` (listed under its game)."""

    game: str  # the id of the game it is a variant of
    param: str  # its parameter whose being given selects it


@dataclass(frozen=True)
class GameInfo:
    """What every part of the arena may know about a game without importing it whole."""

    id: str
    seats: int  # 1 or 2
    outcome: str = WDL  # WDL or SCORE
    right_wrong: bool = False  # every score is 1 (right) or 0 (wrong): the mean is a share
    moves: str = LIST  # LIST or TEXT
    invalid: str = AGENT  # AGENT or RULES
    params: tuple[Param, ...] = ()
    prompt_styles: tuple[str, ...] = ()  # forms of the state in prompts; the first is the default
    family: str = ""  # games that share a package, screen and locale folder
    # Whether random playouts from a re-deal say anything about a move.  Not where the result hangs
    # on one secret the seat must find (Eleusis's rule, a quiz's answer): there mc/mcts only guess.
    search: bool = True
    # Whether ``mc:K:peek`` can play it: a compiled path that starts from the true state (opponents/spec.py).
    peek: bool = False
    variant_of: Variant | None = None  # reached through another game's flag, not as a game of its own
    # A ladder a person climbs against stronger opponents (``play --campaign``, home's "campaign"
    # choice); its ladder and table are the game's app side (``AppSide.campaign``).
    campaign: bool = False
    # Every seat sees the whole position (no hand, no secret): two people at one keyboard need no
    # curtain between their turns (``tcgtui play --vs human``).  False: each sees only its own seat.
    public: bool = False

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise ParamError(f"{self.id} has no parameter {name!r}; its parameters: {known}", game=self.id, name=name)

    def resolve(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every parameter's value: the given ones checked, the rest at their defaults."""
        given = dict(given or {})
        out = {}
        for p in self.params:
            out[p.name] = p.check(given.pop(p.name)) if p.name in given else p.default
        if given:
            self.param(next(iter(given)))  # raises, naming the unknown one
        return out

    @property
    def locale_folder(self) -> str:
        return self.family or self.id


@dataclass(frozen=True)
class Reference:
    """A non-search reference player the game provides as a pure policy.

    ``policy(game, arg)`` returns ``choose(state, rng) -> move``; the player in
    ``opponents`` hands it a state rebuilt from its observation (``Game.resample``),
    so a reference never sees more than its seat does.  ``arg`` is the number in
    ``name:N`` when ``takes_arg`` (a search depth, say).
    """

    name: str
    policy: Callable[[Any, int | None], Callable[[Any, Any], Any]]
    takes_arg: bool = False
    default_arg: int | None = None
    max_arg: int | None = None
    # Handed a clone of the true state instead of a re-deal: only a protocol's own opponent
    # that saw everything in the seed's code (the card game's rollout:K, mcts-seed:K).
    sees_state: bool = False
    protocol: str = ""  # the protocol it belongs to ("seed"); "": every protocol
    # The same player under a time budget, for a policy that can take longer than a person should
    # wait (a deep search): ``anytime(game, arg)`` returns ``choose(state, rng, stop) -> (move, done,
    # asked)``, working until ``stop()`` and answering from the work it completed (depths, say: done
    # of asked).  Only the TUI stops it, while a person waits; the bench plays ``policy``.
    anytime: Callable[[Any, int | None], Callable[[Any, Any, Callable[[], bool]], tuple[Any, int, int]]] | None = None
    # Its policy runs on the game's compiled search (``GameSpec.fast``): the TUI loads that before
    # the game as it does for the search players, so the first decision does not wait for it.
    fast: bool = False


@dataclass(frozen=True)
class Figure:
    """How ``tcgtui report --plot DIR`` draws a table: ``y`` against ``x``, a line or a point per
    value of ``series`` (a row key), with an error bar from ``low`` to ``high`` when given."""

    kind: str  # "line" or "scatter"
    x: str
    y: str
    series: tuple[str, ...] = ("agent",)
    low: str = ""
    high: str = ""
    log_x: bool = False
    percent_y: bool = False  # y is a share, drawn as a percentage


@dataclass(frozen=True)
class SeedTable:
    """A table (and maybe a figure) of a seed paper that the report computes only when asked
    (``--table NAME``, ``--plot DIR``): ``build(games, context)`` returns its rows; ``context``
    carries what is not in the games (models' facts, the interval method)."""

    name: str
    answers: str  # which seed table or figure it answers
    build: Callable[[list, Any], list[dict]]
    figure: Figure | None = None


class Resource(Protocol):
    """A loaded file a game was built from, whose content is part of what was played (the card game's
    pack): a run's identity records it, a resume or replay refuses one that changed, and its languages
    bound ``--lang``."""

    id: str
    version: Any
    hash: str  # of its content: the setup's ``Param.digest`` entry
    short_hash: str
    source: str  # where it was read from, named when it changed
    languages: Sequence[str]  # the languages its text is in


# --- hook groups: what a layer above the engine may ask of a game, each declared once -------------


class SeedFiles(Protocol):
    """A module writing a finished game as the seed's own result files (``report --format seed``)."""

    REPOSITORY: str  # the seed's repository, named when --upstream is missing

    def wording(self, game_id: str, upstream: Any) -> Any: ...
    def seed_game(self, record: dict[str, Any], players: list[str], style: str, version: str, wording: Any) -> Any: ...
    def game_files(self, seed_game: Any, *, uuid: str, stamp: str, number: int, duration_s: int) -> dict[str, Any]: ...
    def submission_files(self, games: list[Any], *, uuid: str, stamp: str) -> dict[str, str]: ...


class BenchFlag(Protocol):
    """A flag a game adds to ``tcgtui bench`` (Eleusis's ``--rules``); read only, so a frozen dataclass is one."""

    @property
    def flag(self) -> str: ...
    @property
    def dest(self) -> str: ...
    @property
    def metavar(self) -> str: ...
    @property
    def help_key(self) -> str: ...  # the locale key of its --help text
    @property
    def type(self) -> type: ...


class Rounds(Protocol):
    """A game's own benchmark protocol as rounds of several setups (Eleusis: rules x deals)."""

    @property
    def FLAGS(self) -> Sequence[BenchFlag]: ...  # the flags that ask for it

    SOLVED: str  # the outcome reason of a solved round (the summary's share)

    def plan(self, values: dict[str, Any], params: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class StoreHooks:
    """What the store records of a game beyond the generic row; called by tcgtui/store/rows.py."""

    # (game, move text) -> the decisions' ``kind`` column (the card game: the card's type); None: no kind
    move_kind: Callable[[Game, str], str | None] | None = None
    result_code: Callable[[Outcome], str] | None = None  # -> the games' ``result`` column (the grid seed's codes)


@dataclass(frozen=True)
class ReportHooks:
    """What ``tcgtui report`` shows of a game beyond the generic sections; read by tcgtui/report/analyses.py
    and tcgtui/commands/report.py (``analyses`` and ``seed_tables`` on the spec give the sections)."""

    # The sections shown by default, in order; (): the outcome's, the game's own, decisions, llm, errors.
    layout: tuple[str, ...] = ()
    notes: Mapping[str, str] = field(default_factory=dict)  # section -> the note it brings (beyond the common ones)
    meta: Callable[[], dict[str, Any]] | None = None  # keys the report's JSON and notes carry
    # games -> {section: [(a, b, a's score, cluster)]}: ratings beyond the match's (a duel's roles)
    rated: Callable[[list], dict[str, list[tuple[str, str, float, Any]]]] | None = None
    reads_records: bool = False  # its sections replay each game's record, so the report loads them
    seed_files: SeedFiles | None = None  # ``--format seed``: the seed's own files (tcgtui/report/seed_export.py)
    # (a game's stored parameters, its bench run's identity) -> those parameters with one the game began
    # recording later read from what the run was given (Eleusis's ``rule_from``); the same dict if nothing is
    unrecorded: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] | None = None
    # Keys its setups add to what reports keep apart (``--by NAME``): name -> (a stored game, the default
    # prompt style) -> the game's value.  Every report offers every game's keys (a game without the setup
    # reads ``-``), so one list of ``--by`` keys serves all games; ``default_keys``: those kept apart by default.
    group_keys: Mapping[str, Callable[[Any, str], str]] = field(default_factory=dict)
    default_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class BenchHooks:
    """What ``tcgtui bench`` asks of a game beyond playing it; read by tcgtui/commands/bench.py and
    tcgtui/bench/plan.py."""

    rounds: Rounds | None = None  # its own protocol of rounds, asked for by its flags
    deal_seed: Callable[[int, int], int] | None = None  # (run seed, game index) -> the deal's seed (a bank: puzzle i)
    # Its own players that ``tcgtui ladder`` rates above the search players every game has, by
    # default (the card game: nmc:100, nmc:200), so the default ladder is the scale it ships.
    rungs: tuple[str, ...] = ()


@dataclass(frozen=True)
class RefereeHooks:
    """Moves no player chooses (tcgtui/referee.py): a state with ``pending()`` waits for a service."""

    service: str = ""  # the referee service that settles checks (referee.SERVICES, or the
    # game's own: its ``AppSide.referee``); "": none
    # (state, rng) -> any valid move text for whoever moves now, the referee included: the conformance
    # test plays whole games of free-text moves with it and ``tcgtui perf`` makes checks with it.
    random_move: Callable[[GameState, Any], str] | None = None


@dataclass(frozen=True)
class ToolHooks:
    """What the side commands ask of a game."""

    analyze: Callable[[GameState], dict[str, Any]] | None = None  # a state's facts (legal, wins...): tcgtui analyze
    perf: tuple[str, ...] = ()  # players ``tcgtui perf`` times on the opening position
    # (game, evaluator spec or None for the game's own) -> an object with ``key`` (the evaluator and its
    # settings, stored with each value) and ``values(state, seed)`` (each legal move -> its value for the
    # side to move, won 1, drawn 0, lost -1; ``seed`` for an evaluator that samples): ``tcgtui analyze --run``
    # judges stored decisions with it.  A spec the game does not take is a ValueError saying which it does.
    evaluate: Callable[[Game, str | None], Any] | None = None
    # the game's parameters -> the categories a player's choices fall in, or None (``report --table
    # diversity``, tcgtui/quality/diversity.py): the card game's card types, the grid games' regions
    choices: Callable[[dict[str, Any]], Choices | None] | None = None


@dataclass(frozen=True)
class Choices:
    """How a game sorts its players' choices for the diversity table: ``by`` what (its report label),
    every category, and ``of(move, kind)`` -> a decision's category (None: the decision is not counted;
    ``kind`` is ``StoreHooks.move_kind``'s, e.g. a card's type)."""

    by: str
    categories: tuple[str, ...]
    of: Callable[[str, str | None], str | None]


# --- the text builders: each game passes its own Game subclass, hence ``Any`` for the game ---------


class Narrator(Protocol):
    """What a seat (or a spectator) reads of the events as they happen."""

    def all(self, events: list[Any]) -> list[str]: ...


# (game, catalog, seat, style: one of GameInfo.prompt_styles, None: the first) -> that seat's Prompter
PrompterBuilder = Callable[[Any, "Catalog", int, Any], Prompter]
# (game, catalog, viewer: a seat, or None/-1 for a spectator) -> its narrator
NarratorBuilder = Callable[[Any, "Catalog", Any], Narrator]
# (stored games, report.data.StoredGame) -> {section: rows}: the report's sections of this game
Analyses = Callable[[list[Any]], Mapping[str, Any]]
# (game, catalog) -> the rules as players read them: (locale key, sentence) pairs
RulesText = Callable[[Any, "Catalog"], list[tuple[str, str]]]


# prompt text, whether the prompt shows an image -> the reply, or (reply, its reasoning)
FakeReply = Callable[[str, bool], "str | tuple[str, str | None]"]


@dataclass(frozen=True)
class FakeModel:
    """How a stand-in model answers this game's prompts, so tests and demos play the LLM path without a
    model: pure text functions in the game's package, served by opponents/llm/testserver.py (which names
    no game).  ``catalogs`` are the prompts' text in every language, so a reply reads any of them."""

    # (game id, catalogs, rng, **options) -> a FakeReply, seeded by ``rng``; options are the game's own
    player: Callable[..., FakeReply]
    # (game id, kind, prompt text, whether it shows an image, **options) -> an unusable reply of that kind
    invalid: Callable[..., str] | None = None
    invalid_kinds: tuple[str, ...] = ()  # the kinds ``invalid`` knows


@dataclass(frozen=True)
class GameSpec:
    """A registered game: its info and the pure builders the other layers call.

    Builders import their modules lazily so that registering stays cheap.
    """

    info: GameInfo
    make: Callable[[dict[str, Any]], Game]  # resolved params -> the Game
    prompter: PrompterBuilder | None = None
    narrator: NarratorBuilder | None = None
    analyses: Analyses | None = None  # report sections of this game (pure functions)
    rules_text: RulesText | None = None
    references: tuple[Reference, ...] = ()
    fast: Callable[[], Any] | None = None  # compiled search accelerator (module), when there is one
    # What search players use while ``fast`` compiles (a new install): the same protocol and the
    # same tallies, nothing to compile.  None: they search through the core API meanwhile.
    interim: Callable[[], Any] | None = None
    seed_tables: Callable[[], tuple[SeedTable, ...]] | None = None  # the seeds' tables the report adds on request
    # (state, catalog) -> sentences the replay viewer shows beside the log at each step, for a game
    # whose position it has no picture of (a plug-in's game): the heap, the score...
    replay_facts: Callable[[Any, Any], list[str]] | None = None
    # (game) -> the files it was built from, as loaded, by the name of their file parameter (one with a
    # ``digest``): the card game's pack.  See ``Resource`` for what the layers above do with them.
    files_of: Callable[[Game], Mapping[str, Resource]] | None = None
    # (a record's setup) -> parameters beyond the game's own that rebuild it as played (the card game:
    # its deck lists, as seated): a resume and a replay build the same game without the files.
    setup_params: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    store: StoreHooks = StoreHooks()
    report: ReportHooks = ReportHooks()
    bench: BenchHooks = BenchHooks()
    referee: RefereeHooks = RefereeHooks()
    tools: ToolHooks = ToolHooks()
    fake_model: FakeModel | None = None  # replies of opponents/llm/testserver.py's stand-in model

    @property
    def id(self) -> str:
        return self.info.id

    def game(self, params: Mapping[str, Any] | None = None) -> Game:
        return self.make(self.info.resolve(params))

    def files(self, game: Game) -> list[tuple[Param, Resource]]:
        """The files ``game`` was built from (``files_of``), each with its parameter; [] for a game without."""
        if self.files_of is None:
            return []
        loaded = self.files_of(game)
        return [(p, loaded[p.name]) for p in self.info.params if p.name in loaded]

    def reference(self, name: str) -> Reference | None:
        return next((r for r in self.references if r.name == name), None)


_REGISTRY: dict[str, GameSpec] = {}
_ORIGIN: dict[str, str] = {}  # game id -> the plug-in package that registered it
_SKIP = {"core", "registry"}
_loaded = False
PLUGIN_GROUP = "tcgtui.games"  # entry points naming packages that register games


def register(spec: GameSpec) -> GameSpec:
    """Called once by each game package when it is imported."""
    old = _REGISTRY.get(spec.id)
    if old is not None and old is not spec and old.make is not spec.make:
        raise ValueError(f"two games registered under the id {spec.id!r}")
    _REGISTRY[spec.id] = spec
    return spec


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    # every game package, only when a game is first looked up (registering stays cheap)
    import tcgtui.engine as root

    for mod in pkgutil.iter_modules(root.__path__):
        if mod.ispkg and mod.name not in _SKIP:
            importlib.import_module(f"{root.__name__}.{mod.name}")
    discover()
    _loaded = True


def plugin_packages() -> list[str]:
    """The packages other distributions declare under the entry point group ``tcgtui.games``."""
    # start-up time: package metadata only when plug-ins are looked for
    from importlib.metadata import entry_points

    return sorted({ep.module for ep in entry_points(group=PLUGIN_GROUP)})


def discover() -> None:
    """Import every plug-in package not imported yet; each registers its games on import.  A
    package that fails to import is one line naming it (a broken plug-in must not hide the rest)."""
    for package in plugin_packages():
        if package in _ORIGIN.values():
            continue
        before = set(_REGISTRY)
        try:
            importlib.import_module(package)
        except Exception as exc:  # a third party's code: anything can go wrong in it
            raise PluginError(
                f"game plug-in {package!r} (entry point group {PLUGIN_GROUP}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        for game_id in set(_REGISTRY) - before:
            _ORIGIN[game_id] = package


def origin(game_id: str) -> str | None:
    """The plug-in package that registered ``game_id``; None for a game shipped with tcgtui.  Its
    screen is the package's ``screen`` module and its text the package's ``locales/`` folder."""
    _load_all()
    return _ORIGIN.get(game_id)


def games() -> list[GameSpec]:
    """Every registered game, in id order (the card game first: it is the default)."""
    _load_all()
    return sorted(_REGISTRY.values(), key=lambda s: (s.id != DEFAULT, s.id))


def get(game_id: str) -> GameSpec:
    _load_all()
    spec = _REGISTRY.get(game_id)
    if spec is None:
        raise UnknownGame(f"{game_id!r} is not a game; expected one of {', '.join(s.id for s in games())}")
    return spec


core.spec_lookup = get

DEFAULT = "tcg"  # the default value of the user's setting ``game`` (tcgtui.config.default_game)
