"""Moska self-play policies compiled with numba: ``random`` and ``greedy``, draw for draw as ``policies.py``;
the candidate decisions of ``mc`` (its search is ``compiled.search``).

Each function implements the words of its scalar class's docstring in ``policies.py``
(that docstring is the specification; it is not repeated here) and draws the same keyed
numbers, so both engines choose the same moves. A policy sees only what its arguments
hold: the deciding seat's own hand and public facts (trump, stock size, room, the card
to kill), never another hand. ``head`` is ``fold(fold(key, POLICY), turn)``, the prefix
of every draw of the decision, so ``d(k) = fold(head, k)``. No function allocates.

Policies are codes (``RANDOM``, ``GREEDY``, ``MC``, ``LEARNED``) so that a seat's policy is one row of
the policy table the engine receives (``table``: code, determinizations, base, then the weights of a
``learned`` policy, or of ``mc``'s ``learned`` base, in fixed point: ``learned_features.SCALE``).
The defence styles (``ALL_KILLS`` ...) are not seat policies: they are rules that
``kill_move`` and ``self_attack_move`` also follow, to make ``mc``'s defence candidates.
"""
from __future__ import annotations

import numpy as np

from cardsim.core import learned, models
from cardsim.core.search import MonteCarlo
from cardsim.core.jit import ONE, U, ZERO, below, bit, fold, ith_lowest, lowest, n_lowest, njit, popcount
from cardsim.games.moska import learned_features as features
from cardsim.games.moska.cards import RANK_MASK, RANKS, SUIT_MASK, pair_ranks, rank_set
from cardsim.games.moska.learned import load_model
from cardsim.games.moska.policies import LOW_CARDS, LOW_RANKS, forbid_of, parse_policy

RANDOM, GREEDY, MC, LEARNED = 0, 1, 2, 3
CODES = {"random": RANDOM, "greedy": GREEDY, "mc": MC, "learned": LEARNED}
"""Policy name → code of the policy table."""
CODE, DETERMINIZATIONS, BASE, SEARCH_STOCK, WORLDS, FORBID, WEIGHTS = range(7)
"""The columns of a policy table row: the code; for ``mc`` (and ``oracle``) its worlds, its base policy's code,
the stock size from which it searches (``DECK_SIZE``: the whole game) and how its worlds deal the hidden cards;
the seat's forbid mask (``policies.FORBID``, any policy; the engine copies it to ``STATE.forbid``); from
``WEIGHTS`` on the fixed-point weights of the row's ``learned`` policy, or of its search's ``learned``
base (``learned_features.TABLE_WEIGHTS`` of them: ``lane_weights``)."""
UNIFORM, READS, TRUE_STATE = 0, 1, 2
"""``WORLDS``: the hidden cards dealt uniformly over the view, or also meeting the reads (``beliefs="reads"``),
or not dealt at all (``oracle``: the world is the true state)."""
ALL_KILLS, PLAIN_KILLS, GREEDY_KILLS = 10, 11, 12
"""Defence styles of ``mc``'s candidates (``seating.MonteCarloPolicy``): kill every card with its cheapest
killer (greedy without keeping high trumps); kill only with non-trumps; greedy's kills without
self-attacks. The first two self-attack like greedy (M-14)."""
LOW = np.uint64(LOW_CARDS)


@njit(cache=True)
def part(mask: np.uint64, rank: int, m: int) -> np.uint64:
    """``part(X, r, m)``: the cards of rank ``r`` if at most ``m``, else the ``m`` lowest if ``m >= 2``, else none."""
    group = mask & RANK_MASK[rank]
    if popcount(group) <= m:
        return group
    return n_lowest(group, m) if m >= 2 else ZERO


@njit(cache=True)
def order(card: int, trump: int) -> int:
    """Greedy's card order: non-trumps below trumps, then rank, then suit."""
    suit = card // RANKS
    return 4 * (RANKS * (suit == trump) + card % RANKS) + suit


# --- random ---------------------------------------------------------------------------------

@njit(cache=True)
def random_open(head: np.uint64, hand: np.uint64, room: int) -> np.uint64:
    groups = pair_ranks(hand)
    if groups != ZERO and room >= 2 and below(fold(head, 0), 2) == 0:
        r0 = ith_lowest(groups, below(fold(head, 1), popcount(groups)))
        chosen = part(hand, r0, room)
        rest = groups & ~bit(r0)
        while rest != ZERO:
            r = lowest(rest)
            rest &= rest - ONE
            if below(fold(head, 2 + r), 2) == 0:
                chosen |= part(hand, r, room - popcount(chosen))
        return chosen
    return bit(ith_lowest(hand, below(fold(head, 1), popcount(hand))))


@njit(cache=True)
def random_kill(head: np.uint64, attack: int, killers: np.uint64) -> int:
    if below(fold(head, attack), 4) == 0:
        return -1
    return ith_lowest(killers, below(fold(head, 64 + attack), popcount(killers)))


@njit(cache=True)
def random_self_attack(head: np.uint64, card: int, killers: np.uint64) -> int:
    if below(fold(head, 128 + card), 2) != 0:
        return -1
    return ith_lowest(killers, below(fold(head, 192 + card), popcount(killers)))


@njit(cache=True)
def random_add(head: np.uint64, cands: np.uint64, room: int) -> np.uint64:
    chosen = ZERO
    n = 0
    while cands != ZERO and n < room:
        c = lowest(cands)
        cands &= cands - ONE
        if below(fold(head, c), 2) == 0:
            chosen |= bit(c)
            n += 1
    return chosen


@njit(cache=True)
def random_give_back(head: np.uint64, cards: np.uint64, e: int) -> np.uint64:
    """The ``e`` cards with the smallest ``(d(c), c)``, picked one at a time."""
    back = ZERO
    for _ in range(e):
        best, best_u = -1, ZERO
        rest = cards & ~back
        while rest != ZERO:
            c = lowest(rest)
            rest &= rest - ONE
            u = fold(head, c)
            if best < 0 or u < best_u:  # ascending codes: a tie keeps the lower code
                best, best_u = c, u
        back |= bit(best)
    return back


# --- greedy --------------------------------------------------------------------------------

@njit(cache=True)
def greedy_open(hand: np.uint64, trump: int, room: int) -> np.uint64:
    plain = hand & ~SUIT_MASK[trump]
    chosen = ZERO
    groups = pair_ranks(plain)
    for r in range(LOW_RANKS + 1):
        if groups >> U(r) & ONE:
            chosen |= part(plain, r, room - popcount(chosen))
    if chosen != ZERO:
        return chosen
    if plain != ZERO:  # the lowest rank, then the lowest suit: the lowest ``order``
        low_rank = plain & RANK_MASK[lowest(rank_set(plain))]
        return low_rank & (~low_rank + ONE)
    return bit(lowest(hand))


@njit(cache=True)
def greedy_kill(attack: int, killers: np.uint64, trump: int, stock_left: int) -> int:
    plain = killers & ~SUIT_MASK[trump]
    if plain != ZERO:
        return lowest(plain)
    k = lowest(killers)
    if attack // RANKS != trump and k % RANKS > LOW_RANKS and stock_left > 0:
        return -1
    return k


@njit(cache=True)
def greedy_self_attack(card: int, killers: np.uint64, trump: int) -> int:
    plain = killers & ~SUIT_MASK[trump]
    return lowest(plain) if plain != ZERO and card // RANKS != trump else -1


@njit(cache=True)
def greedy_add(cands: np.uint64, room: int, trump: int, stock_left: int) -> np.uint64:
    plain = cands & ~SUIT_MASK[trump]
    if stock_left > 0:
        plain &= LOW
    return n_lowest(plain, room)


@njit(cache=True)
def greedy_give_back(cards: np.uint64, e: int, trump: int) -> np.uint64:
    """The ``e`` cards with the highest ``order``, picked one at a time."""
    back = ZERO
    for _ in range(e):
        best = -1
        rest = cards & ~back
        while rest != ZERO:
            c = lowest(rest)
            rest &= rest - ONE
            if best < 0 or order(c, trump) > order(best, trump):
                best = c
        back |= bit(best)
    return back


# --- a seat's policy by code ----------------------------------------------------------------

@njit(cache=True)
def open_move(code: int, head: np.uint64, hand: np.uint64, trump: int, room: int) -> np.uint64:
    """``open(view)``: the mask of the opening."""
    if code == RANDOM:
        return random_open(head, hand, room)
    return greedy_open(hand, trump, room)


@njit(cache=True)
def kill_move(code: int, head: np.uint64, attack: int, killers: np.uint64, trump: int, stock_left: int) -> int:
    """``kill(view, a, killers)``: a killer of ``attack`` or -1 (the seat's policy, or a defence style)."""
    if code == RANDOM:
        return random_kill(head, attack, killers)
    plain = killers & ~SUIT_MASK[trump]
    if code == ALL_KILLS:
        return lowest(plain) if plain != ZERO else lowest(killers)
    if code == PLAIN_KILLS:
        return lowest(plain)
    return greedy_kill(attack, killers, trump, stock_left)


@njit(cache=True)
def self_attack_move(code: int, head: np.uint64, card: int, killers: np.uint64, trump: int) -> int:
    """``self_attack(view, c, killers)``: a killer of the own card ``card`` or -1 (M-14; a policy or a style)."""
    if code == RANDOM:
        return random_self_attack(head, card, killers)
    if code == GREEDY_KILLS:
        return -1
    return greedy_self_attack(card, killers, trump)


@njit(cache=True)
def add_move(code: int, head: np.uint64, cands: np.uint64, room: int, trump: int, stock_left: int) -> np.uint64:
    """``add(view, cands, room)``: a subset of ``cands`` of at most ``room`` cards."""
    if code == RANDOM:
        return random_add(head, cands, room)
    return greedy_add(cands, room, trump, stock_left)


@njit(cache=True)
def give_back_move(code: int, head: np.uint64, cards: np.uint64, e: int, trump: int) -> np.uint64:
    """``give_back(view, cards, e)``: exactly ``e`` cards of ``cards`` (M-12)."""
    if code == RANDOM:
        return random_give_back(head, cards, e)
    return greedy_give_back(cards, e, trump)


# --- mc's candidates (the lists of ``seating.MonteCarloPolicy``) ---------------------------

@njit(cache=True)
def cheapest(mask: np.uint64, n: int, trump: int) -> np.uint64:
    """The ``n`` cards of the mask with the lowest ``order`` (non-trumps by rank, then trumps; all if fewer),
    looking only at the ranks the mask holds."""
    out = ZERO
    for trumps in (False, True):
        suited = mask & (SUIT_MASK[trump] if trumps else ~SUIT_MASK[trump])
        ranks = rank_set(suited)
        while ranks != ZERO:
            cards = suited & RANK_MASK[lowest(ranks)]
            ranks &= ranks - ONE
            while cards != ZERO:
                if popcount(out) == n:
                    return out
                out |= cards & (~cards + ONE)
                cards &= cards - ONE
    return out


@njit(cache=True)
def add_candidate(out: np.ndarray, m: int, cards: np.uint64, seen: int) -> int:
    """Append the decision ``cards`` to ``out[:m]`` unless it is among ``out[:seen]`` already (the caller knows
    the rest differ); the new count."""
    for i in range(seen):
        if out[i].cards == cards:
            return m
    out[m].cards = cards
    return m + 1


@njit(cache=True)
def opening_candidates(out: np.ndarray, m: int, hand: np.uint64, trump: int, room: int) -> int:
    """Openings (M-8, M-9): each single card, each rank's group (``part(hand, r, room)``), and every
    non-trump group together from the lowest rank (within the room). Singles differ from each other, and
    groups (two cards or more, one rank each) from singles and from each other: each is checked against
    the candidates before ``m`` only, the groups together against all."""
    first = m
    rest = hand
    while rest != ZERO:
        m = add_candidate(out, m, rest & (~rest + ONE), first)
        rest &= rest - ONE
    if room < 2:
        return m
    groups = pair_ranks(hand)
    plain = hand & ~SUIT_MASK[trump]
    plain_groups = pair_ranks(plain)  # within ``groups``
    together = ZERO
    while groups != ZERO:
        r = lowest(groups)
        groups &= groups - ONE
        m = add_candidate(out, m, part(hand, r, room), first)
        if plain_groups >> U(r) & ONE:
            together |= part(plain, r, room - popcount(together))
    if together != ZERO:
        m = add_candidate(out, m, together, m)
    return m


@njit(cache=True)
def addition_candidates(out: np.ndarray, m: int, cands: np.uint64, room: int, trump: int) -> int:
    """Additions (M-11) of at most ``room`` cards: none; the cheapest low non-trumps (2..T), non-trumps, or
    cards (``cheapest``); each single card (checked against those before it, as the singles differ)."""
    plain = cands & ~SUIT_MASK[trump]
    m = add_candidate(out, m, ZERO, m)
    m = add_candidate(out, m, cheapest(plain & LOW, room, trump), m)
    m = add_candidate(out, m, cheapest(plain, room, trump), m)
    m = add_candidate(out, m, cheapest(cands, room, trump), m)
    first = m
    rest = cands
    while rest != ZERO:
        m = add_candidate(out, m, rest & (~rest + ONE), first)
        rest &= rest - ONE
    return m


@njit(cache=True)
def give_back_candidates(out: np.ndarray, m: int, cards: np.uint64, e: int, trump: int) -> int:
    """Give-backs (M-12) of ``e`` cards: greedy's mirror, the ``e`` cheapest (greedy's own is ``out[0]``)."""
    return add_candidate(out, m, cheapest(cards, e, trump), m)


def lane_weights(model: str) -> np.ndarray:
    """A model's fixed-point weights as the policy table holds them (``core.learned.lanes``, then the open blocks
    ``learned_features.fold``ed; a ``ValueError`` naming the file where they do not fit)."""
    loaded = load_model(model)
    try:
        lanes = learned.lanes(loaded.fixed_point(features.SCALE), features.N)
    except ValueError as err:
        raise ValueError(f"{loaded.path}: {err}") from None
    return np.concatenate([lanes, features.fold(lanes)])


def search_row(row: np.ndarray, search: MonteCarlo) -> None:
    """Write an ``mc``/``oracle`` seat's parameters into its policy table row (``WEIGHTS`` on: its ``learned``
    base's, if it has one)."""
    name, base = parse_policy(search.base)
    row[CODE], row[DETERMINIZATIONS], row[BASE] = MC, search.determinizations, CODES[name]
    if isinstance(base, models.Learned):
        row[WEIGHTS:] = lane_weights(base.model)
    row[SEARCH_STOCK] = 52 if search.search_stock is None else search.search_stock
    row[WORLDS] = TRUE_STATE if search.sees_all else READS if search.beliefs == "reads" else UNIFORM


def table(policies: tuple[str, ...]) -> np.ndarray:
    """The policy table (int64, one row per seat: ``CODE``, ``DETERMINIZATIONS``, ``BASE``, ``SEARCH_STOCK``,
    ``WORLDS``, ``FORBID``, the weights) of policy strings (validated by ``policies.parse_policy``, their
    models by ``learned.load_model``)."""
    rows = np.zeros((len(policies), WEIGHTS + features.TABLE_WEIGHTS), dtype=np.int64)
    for seat, text in enumerate(policies):
        name, param = parse_policy(text)
        if isinstance(param, MonteCarlo):
            search_row(rows[seat], param)
        else:
            rows[seat, CODE] = CODES[name]
            if isinstance(param, models.Learned):
                rows[seat, WEIGHTS:] = lane_weights(param.model)
        rows[seat, FORBID] = forbid_of(text)
    return rows


@njit(cache=True)
def reads_of(policies: np.ndarray) -> bool:
    """Whether a seat of the policy table deals its worlds from the reads (the engine keeps them only then)."""
    for q in range(policies.shape[0]):
        if policies[q, WORLDS] == READS:
            return True
    return False
