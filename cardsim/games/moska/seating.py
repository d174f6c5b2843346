"""Moska's searching seats: ``mc``, ``oracle`` and ``learned`` for the reference engine, decided by the compiled
engine, and the reference engine that seats them (``play``, the game's ``GameSpec.play``).

A layer above both engines: ``reference.py`` asks each seat's policy object and imports nothing compiled; it
gets these objects from ``make_policy`` here, passed in by ``play``. The policies are specified in words in
their class docstrings, as ``policies.py``'s are.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from cardsim.core.records import Replay
from cardsim.core.search import MonteCarlo
from cardsim.games.moska import policies, reference
from cardsim.games.moska.compiled import decide_from, decide_with
from cardsim.games.moska.compiled_policies import table
from cardsim.games.moska.learned import warn_other_rules
from cardsim.games.moska.policies import LEARNED, View
from cardsim.games.moska.rules import MoskaRules


class MonteCarloPolicy:
    """``mc(determinizations=D, base=B, search_stock=N, beliefs=uniform|reads)``: determinized Monte Carlo
    (docs/design.md), run by the compiled engine; ``oracle(...)``: the same search on the true state.

    At each decision of seat ``p`` at decision ``turn``: the candidates below (greedy's decision
    first, duplicates dropped; one candidate is taken without a play-out); ``D`` worlds, world ``j``
    keyed ``w = rng.world_key(key, turn, j)``, each dealing the cards ``p`` cannot see at random (the
    permutation of stream ``DEAL`` of ``w`` over those cards in code order fills the other seats' hands,
    seat by seat, to their sizes, then the stock front first); for each world and candidate a play-out
    to the end of the game with ``B`` in every seat, ``w`` as its game key; score 1 when ``p`` does not
    lose (a truncated play-out counts as not losing); the highest total wins, ties to the first.

    ``p`` sees (``compiled.hidden_cards``): its hand, the discard, the table, every other seat's
    publicly known cards (picked up from the table, taken back after an over-play, the turned card
    taken by the trump-two swap, the stock's last card drawn), the cards added in the addition step
    under way (they lie on the table until the over-play is settled), every hand's size, the stock's
    size and the face-up card under it; and M-6: while the turned card still lies under the stock
    with the swap on, the trump 2 is in the stock (its holder would have swapped at once; unless ``p`` sees
    it placed: a seat forbidden to swap keeps it), so a world puts it at a random place of the stock (``below(draw(w, EXTRA, 0, 0), places)``).

    ``beliefs=reads``: each other seat's hand is filled first with the hidden cards its choices since its
    last draw do not rule out, read as greedy's whatever the base (``reads.py``; ``compiled.determinize``),
    then, where too few are left, with any. ``oracle``: no world is dealt; each is the true state under the
    world's key (it sees every hand and the stock: not a fair player); with ``greedy`` or ``learned``
    play-outs, which draw nothing, its worlds are all alike and one is played.

    Candidates (``compiled_policies``, ``compiled.decision_candidates``). While the stock holds more than
    ``search_stock`` cards (``SEARCH_STOCK`` = 8 by default; ``None`` or ``all``: never) nothing is searched
    and no play-out is made: the decision is the base's when the base is ``learned``, else greedy's.
    Searching earlier with 32 worlds loses more often among greedy, not less (benchmarks/bench_beliefs.py);
    over a ``learned`` base, greedy's early decisions lost more often than the base's (docs/ladder.md).
    From then on, decision kind by kind:
    - open: greedy's; each single card; each rank's group ``part(hand, r, room)`` (ranks with >= 2
      cards, room >= 2); all non-trump groups together from the lowest rank, within the room;
    - defence: greedy's; kill every card with its cheapest killer (non-trump killers first, then the
      lowest trump: greedy without keeping J..A trumps); kill only with non-trumps; these two
      self-attack like greedy (M-14), and with M-14 also greedy's kills without self-attacks. (Kill
      nothing, picking everything up, was a candidate too: it made mc lose more often.);
    - add: greedy's; none; the cheapest (greedy's ``order``) low non-trumps (2..T), non-trumps, or
      cards, at most ``room``; each single card;
    - give_back: greedy's (the highest ``order`` back) and its mirror (the lowest ``order`` back).

    The reference engine asks a defence card by card: the whole decision is searched at its first
    call (on ``compiled.state_from`` of the game) and the later calls of the same turn are answered
    from it, so both engines decide alike.
    """

    def __init__(self, search: MonteCarlo) -> None:
        self.search = search
        self._turn: tuple[int, int] | None = None
        self._move: Any = None

    def _decide(self, v: View, kind: str) -> Any:
        """The compiled ``MOVE`` of this decision of kind ``open``, ``defend``, ``add`` or ``give_back``
        (searched once per turn)."""
        if self._turn != (v.key, v.turn):
            self._move, self._turn = decide_from(v.game, kind, v.seat, self.search), (v.key, v.turn)
        return self._move

    def open(self, v: View) -> int:
        return int(self._decide(v, "open")["cards"])

    def kill(self, v: View, attack: int, killers: int) -> int:
        return int(self._decide(v, "defend")["killer"][attack])

    def self_attack(self, v: View, card: int, killers: int) -> int:
        move = self._decide(v, "defend")
        return int(move["killer"][card]) if int(move["cards"]) >> card & 1 else -1

    def add(self, v: View, cands: int, room: int) -> int:
        return int(self._decide(v, "add")["cards"])

    def give_back(self, v: View, cards: int, e: int) -> int:
        return int(self._decide(v, "give_back")["cards"])


class LearnedPolicy:
    """``learned(model=NAME)``: a scorer over candidate decisions (linear, or a small network), run by the
    compiled engine.

    At each decision the candidates are ``mc``'s for its decision kind, at every stage of the game
    (``compiled.decision_candidates``: greedy's first, duplicates dropped). Each is described by the
    integer features of ``learned_features.py``, computed from the deciding seat's view only (its hand, the
    table, the discard, trump, the stock's size); its score is the model's fixed-point weights of the
    block of the decision's kind and stage dotted with them, plus a network's rectified units
    (``core.learned.score``, computed as ``score_lanes``); the highest score wins, ties to the first
    candidate (so a model of zero weights is ``greedy``). No draws. ``NAME`` is a committed model
    (``cardsim/models/moska/``) or a model file's path; without it, ``DEFAULT_MODEL``.

    The reference engine asks the compiled scorer, once per decision as for ``mc``.
    """

    def __init__(self, text: str) -> None:
        self.row = table((text,))[0]
        self._turn: tuple[int, int] | None = None
        self._move: Any = None

    def _decide(self, v: View, kind: str) -> Any:
        if self._turn != (v.key, v.turn):
            self._move, self._turn = decide_with(v.game, kind, v.seat, self.row), (v.key, v.turn)
        return self._move

    open, kill, self_attack = MonteCarloPolicy.open, MonteCarloPolicy.kill, MonteCarloPolicy.self_attack
    add, give_back = MonteCarloPolicy.add, MonteCarloPolicy.give_back


def make_policy(text: str) -> policies.RandomPolicy | policies.GreedyPolicy | MonteCarloPolicy | LearnedPolicy:
    """A seat's policy object from its string: the scalar twins of ``policies.py``, or a searching seat."""
    name, param = policies.parse_policy(text)
    if name == LEARNED:
        return LearnedPolicy(text)
    return MonteCarloPolicy(param) if isinstance(param, MonteCarlo) else policies.make_policy(text)


def play(rules: MoskaRules, players: int, seed: int, game: int, seats: Sequence[str],
         on_move: Callable[[reference.State], None] | None = None) -> Replay:
    """``reference.play`` with every policy seated (``make_policy``), warning of a model trained under other
    rules."""
    warn_other_rules(seats, rules, players)
    return reference.play(rules, players, seed, game, seats, on_move, seat=make_policy)
