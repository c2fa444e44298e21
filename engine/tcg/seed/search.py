"""The released code's two search opponents, RolloutAgent-K and MCTSAgent-K, as pure policies.

Both see the true state (a clone of it: the opponent's hand and both deck
orders included), which is what the released code hands them.  Their habits,
kept on purpose under ``--protocol seed``:

* a playout starts with the evaluated card resolved but still in hand; the
  playout's first turn is the same player's again (it draws and plays once more);
* playouts always have combat, stop at turn 50, and give a game the higher LP
  wins to player 1 and everything else (equal LP included) to player 2;
* RolloutAgent scores a card ``100 * wins / K - mean final turn`` and keeps the
  first of equal scores;
* MCTSAgent keys its tree by a summary of the state (both LPs, hand and board
  sizes), so positions that share a summary share a node, and a node found again
  keeps children whose cards may have left the hand: it then plays such a card
  again from wherever it is (``STALE``).  It picks the most visited child, the
  first of equals; with no child, a random card.

Under the benchmark loop the chosen card resolves as a copy and stays in hand
(``KEPT``), because that loop hands the search a pickled copy of the state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from tcgtui.engine.tcg.cards import SPELL
from tcgtui.engine.tcg.seed.rules import KEPT, STALE, TURN_CAP, SeedState

Policy = Callable[[SeedState, random.Random], str]


def playout(state: SeedState, rng: random.Random) -> tuple[int, int]:
    """A random game from ``state`` (whose player to move plays first); (winner, final turn)."""
    sim = state.clone(rng, quiet=True)
    a, b = sim.sides
    while a.lp > 0 and b.lp > 0 and sim.turn < TURN_CAP:
        side = sim.sides[sim.current]
        side.draw()
        if side.hand:
            card = rng.choice(side.hand)
            side.hand.remove(card)
            if card.kind == SPELL:
                side.discard.append(card)
            sim.resolve(sim.current, card)
        sim.combat()
        if a.lp <= 0 or b.lp <= 0:
            break
        sim.end_of_turn()
    return (0 if a.lp > b.lp else 1), sim.turn


def _try(state: SeedState, card_id: str, rng: random.Random) -> SeedState:
    """A copy with ``card_id`` resolved from the hand of the player to move, the card left there."""
    sim = state.clone(rng, quiet=True)
    side = sim.sides[sim.current]
    card = next((c for c in side.hand if c.id == card_id), None)
    if card is not None:
        sim.resolve(sim.current, card)
    return sim


def _as_move(state: SeedState, card_id: str) -> str:
    """The chosen card as a move: kept in hand under the benchmark loop, played again if it left the hand."""
    in_hand = any(c.id == card_id for c in state.sides[state.current].hand)
    if state.loop.kept_by_search:
        return card_id + KEPT
    return card_id if in_hand else card_id + STALE


def rollout(k: int) -> Policy:
    """RolloutAgent-K: every card in hand, K playouts each."""

    def choose(state: SeedState, rng: random.Random) -> str:
        me = state.current
        best, best_score = None, -math.inf
        for card in [c.id for c in state.sides[me].hand]:
            wins = turns = 0
            for _ in range(k):
                winner, last = playout(_try(state, card, rng), rng)
                turns += last
                wins += winner == me
            score = wins / k * 100 - turns / k
            if score > best_score:
                best, best_score = card, score
        assert best is not None, "asked to move with an empty hand"
        return _as_move(state, best)

    return choose


class _Node:
    __slots__ = ("parent", "move", "visits", "wins", "children", "untried")

    def __init__(self, parent: _Node | None = None, move: str | None = None) -> None:
        self.parent, self.move = parent, move
        self.visits, self.wins = 0, 0.0
        self.children: list[_Node] = []
        self.untried: list[str] | None = None

    def ucb1(self, c: float) -> float:
        if self.visits == 0:
            return math.inf
        assert self.parent is not None
        return self.wins / self.visits + c * math.sqrt(2 * math.log(self.parent.visits) / self.visits)


def summary(state: SeedState) -> str:
    """MCTSAgent's key for a position: LPs, hand sizes and board sizes, the player to move first."""
    me, opp = state.sides[state.current], state.sides[1 - state.current]
    return f"{me.lp}_{opp.lp}_{len(me.hand)}_{len(opp.hand)}_{len(me.board)}_{len(opp.board)}"


def mcts(n: int, c: float = 1.41) -> Policy:
    """MCTSAgent-N: N iterations of selection by UCB1, one expansion, one playout, backup."""
    tree: dict[str, _Node] = {}

    def choose(state: SeedState, rng: random.Random) -> str:
        if not state.loop.tree_across_turns:
            tree.clear()
        me = state.current
        legal = [card.id for card in state.sides[me].hand]
        key = summary(state)
        root = tree.get(key)
        if root is None:
            root = tree[key] = _Node()
        root.untried = list(legal)
        for _ in range(n):
            node, sim = root, state.clone(rng, quiet=True)
            path = [node]
            while node.untried is not None and not node.untried and node.children:
                node = max(node.children, key=lambda child: child.ucb1(c))
                path.append(node)
                _resolve_from_hand(sim, me, node.move)
            if node.untried:
                move = rng.choice(node.untried)
                node.untried.remove(move)
                _resolve_from_hand(sim, me, move)
                child = _Node(node, move)
                node.children.append(child)
                tree[summary(sim)] = child
                path.append(child)
            winner, _ = playout(sim, rng)
            result = 1.0 if winner == me else 0.0
            for visited in reversed(path):
                visited.visits += 1
                visited.wins += result
        if root.children:
            chosen = max(root.children, key=lambda child: child.visits).move
        else:
            chosen = rng.choice(legal)
        assert chosen is not None
        return _as_move(state, chosen)

    return choose


def _resolve_from_hand(sim: SeedState, me: int, card_id: str | None) -> None:
    card = next((c for c in sim.sides[me].hand if c.id == card_id), None)
    if card is not None:
        sim.resolve(me, card)
