"""The grid games as ``Game`` objects: parameters in, states and move text out."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game, IllegalMove, RandomAttempt
from tcgtui.engine.grid.config import VARIANTS, GridConfig
from tcgtui.engine.grid.observation import GridObservation
from tcgtui.engine.grid.position import parse_position
from tcgtui.engine.grid.state import GridState, parse_move
from tcgtui.engine.protocols import SEED, TCGTUI


class GridGame(Game[str]):
    """One of tictactoe, connect4, gomoku with its thresholds and start position."""

    def __init__(
        self,
        game_id: str,
        invalid_limit: int | None = None,
        move_cap: int | None = None,
        position: str = "",
        to_move: str = "",
        protocol: str = TCGTUI,
        upstream: Any = None,
        size: int | None = None,
    ) -> None:
        seeds = VARIANTS[game_id]
        variant = seeds.sized(seeds.rows if size is None else int(size))
        self.size = variant.rows if seeds.sizes else None  # None: a game of one shape (Connect Four)
        self.name = game_id
        self.protocol = protocol or TCGTUI
        if self.protocol == SEED and variant != seeds:
            raise ValueError(
                f"--protocol seed: the seed's simulator plays {game_id} on a {seeds.rows} by "
                f"{seeds.cols} board only, not {variant.rows} by {variant.cols}"
            )
        self.wording = seed_wording(game_id, upstream) if self.protocol == SEED and upstream is not None else None
        self.config = GridConfig(
            variant,
            variant.invalid_limit if invalid_limit is None else int(invalid_limit),
            variant.move_cap if not move_cap else int(move_cap),
        )  # None, 0: the board's
        self.position = position
        self.to_move = to_move
        self._start: tuple[list[int], int] | None = None
        if position:
            self._start = parse_position(position, self.config, to_move)  # raises PositionError early
        else:
            if to_move.upper() not in ("", "X"):
                # only a bad --to-move needs the error
                from tcgtui.engine.grid.position import PositionError

                raise PositionError(f"on an empty board X moves first, not {to_move}")

    @classmethod
    def from_params(cls, game_id: str, params: dict[str, Any]) -> GridGame:
        upstream = params.get("upstream")
        return cls(
            game_id,
            params.get("invalid_limit"),
            params.get("move_cap"),
            params.get("position", "") or "",
            params.get("to_move", "") or "",
            params.get("protocol") or TCGTUI,
            None if isinstance(upstream, (str, dict)) else upstream,
            params.get("size"),
        )

    def new_state(self, seed: int) -> GridState:
        if self._start is None:
            return GridState(self.config)
        board, seat = self._start
        return GridState(self.config, board, seat)

    def setup(self) -> dict[str, Any]:
        """The parameters; the protocol only when it is not tcgtui's (older records have none).
        The seed's checkout is not part of it: the prompt version each player records says
        which wording it read."""
        out = {
            "invalid_limit": self.config.invalid_limit,
            "move_cap": self.config.move_cap,
            "position": self.position,
            "to_move": self.to_move,
        }
        if self.protocol != TCGTUI:
            out["protocol"] = self.protocol
        if self.size is not None and self.size != VARIANTS[self.name].rows:  # older records: the seed's board
            out["size"] = self.size
        return out

    def random_attempt(self, obs: GridObservation, rng: Any) -> RandomAttempt | None:
        """Under the seed protocol, the seed's random player: any cell (or column), taken or not."""
        if self.protocol != SEED:
            return None
        # the seed protocol's reader only under --protocol seed
        from tcgtui.engine.grid.seed import judge_reply, random_reply

        raw = random_reply(self.config, rng)
        judged = judge_reply(self.config, list(obs.board), raw)
        return RandomAttempt(raw, judged.move, judged.kind)

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        p = parse_move(text, self.config)  # IllegalMove on bad text
        return str(p + 1) if isinstance(p, int) else f"{p[0] + 1},{p[1] + 1}"

    def resample(self, obs: GridObservation, rng: Any) -> GridState:
        if obs.game != self.name:
            raise IllegalMove(f"a {obs.game} observation given to {self.name}")
        return GridState.from_observation(self.config, obs)


def seed_wording(game_id: str, upstream: Any) -> Any:
    """The seed's prompt wording, read through the caller's ``upstream`` (the user's checkout)."""
    # the seed protocol's reader only under --protocol seed
    from tcgtui.engine.grid.seed import GAME_FILES, REPOSITORY, SERVICE_FILE, wording_from_sources

    return wording_from_sources(
        game_id, upstream.text(GAME_FILES[game_id], REPOSITORY), upstream.text(SERVICE_FILE, REPOSITORY)
    )
