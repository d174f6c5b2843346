"""Molotow Jass, compiled engine: one game at a time in numba, records identical to ``reference.py``.

A translation of the reference engine's decision protocol (its module docstring) onto an
explicit, copyable state: ``STATE`` is one numpy record, a game is ``np.zeros(1, STATE)``,
and every function below reads or changes that record, one phase of the rules each:

    new_game, deal (MJ-5)            the game key; a hand dealt in packets of three
    to_act, game_over, legal_cards   the seat to play, the end (or ``max_turns``), MJ-6…MJ-11
    choose = decide | search         a seat's policy, from that seat's view only (``decide``: ``random``,
                                     ``greedy``, ``learned_card`` among ``allowed_cards``, the ``forbid``
                                     of the seat; ``search``: ``mc``, its worlds from ``determinize``, its
                                     play-outs ``roll_out``)
    apply = lead | follow (+ set_trump, rule_out), take_trick (MJ-12), end_hand (MJ-4, MJ-13…MJ-18)
    copy_state, play_out             copy a state; play it to the end with given policies
    state_from, decide_from          a reference engine position as a state; its ``mc`` card

The engine's own loops (``play_games``, ``play_hands``) are ``new_game`` then ``choose``
and ``apply`` until ``game_over``. Nothing allocates: a state carries its deal's scratch,
a ``WORK`` record ``mc``'s (its world and play-out states). Rules knobs go in as a ``Params``
named tuple read by field name (``make_params``: a value, so passing it to a function costs no
reference counting), seat policies as a table of int64 rows (``policy_table``: the code, ``mc``'s worlds
and base policy, the ``forbid`` mask, ``learned``'s fixed-point weights), passed once per play-out.

What a seat's view holds (for ``choose`` and for determinizing the hidden cards): its
own hand ``held[seat]``, the cards played this hand (``played``; who took which trick is
in ``taken``), the trick (``trick``, ``trick_len``, ``led``, ``best``, ``best_seat``), the
trump state and who set it, the hand and dealer, and ``ruled_out``: for each seat, the
cards its plays this hand have shown it does not hold (public, see ``rule_out``). When a
hand ends, ``last_points``/``last_sticks``/``last_potatoes`` hold its result.

Speed (about 1,100,000 random hands per CPU-second): the per-decision functions are
``inline="always"`` (20–30% faster than calls), except ``learned``'s scorer (numba types an inlined
function again in every caller: inlined, it tripled the first compile; its candidates' features are
small enough for LLVM to inline instead, ``learned_features.context``), the hand's POLICY
draws come with the deal (vectorised, off the per-card critical path), the deal counts
ranks instead of sorting, ``random`` finds its card without a loop (``nth_card``), winners
and points are table lookups, and nothing passes an array to a per-decision call (numba
would count references atomically).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardsim.core import jit
from cardsim.core.jit import ONE, ZERO, U, njit
from cardsim.games.molotow.cards import (BEATS, BUUR, N_CARDS, N_RANKS, NO_TRUMP, POINTS, SUIT_MASK, SUIT_OF,
                                         mask_points)
from cardsim.core.models import Learned
from cardsim.games.molotow import learned_features as feat
from cardsim.games.molotow.learned import load_model, warn_other_rules
from cardsim.games.molotow.policies import CHEAP_RANK, LEARNED, MC, POLICIES, TRUMP_STRENGTH, parse_full
from cardsim.games.molotow.reference import Hand, best_card
from cardsim.games.molotow.rules import UNDERTRUMP, MolotowRules

SEATS = 4
RANDOM, GREEDY, SEARCH = POLICIES.index("random"), POLICIES.index("greedy"), POLICIES.index(MC)
LEARNED_CODE = POLICIES.index(LEARNED)
TRUMP_INSTEAD, UNDERTRUMPS, KEEP_BUUR = 1, 2, 4
"""The bits of a ``forbid`` mask (``rules.OPTIONS`` in order, ``policies.forbid_of``)."""
SEED, FORBIDDEN = UNDERTRUMP.index("seed"), UNDERTRUMP.index("forbidden")

STATE = np.dtype([
    ("key", np.uint64),                     # the game key (rng.game_key)
    ("players", np.int64),
    ("hand_no", np.int64),                  # the hand in play, from 0; = hands scored so far
    ("dealer", np.int64),
    ("turn", np.int64),                     # cards played in the game (the protocol's ``turn``)
    ("held", np.uint64, SEATS),             # each seat's cards
    ("taken", np.uint64, SEATS),            # the cards of the tricks each seat took this hand
    ("played", np.uint64),                  # every card played this hand (taken tricks and the trick)
    ("ruled_out", np.uint64, SEATS),        # cards each seat's plays this hand showed it does not hold
    ("trick", np.int64, SEATS),             # the trick's cards in play order
    ("trick_cards", np.uint64),             # the same as a mask
    ("trick_len", np.int64),
    ("trick_no", np.int64),                 # tricks taken this hand
    ("leader", np.int64),                   # the seat that led (or leads) the trick
    ("led", np.int64),                      # the suit led
    ("best", np.int64),                     # the trick's best card so far (MJ-12)
    ("best_seat", np.int64),
    ("trump", np.int64),                    # a suit, or NO_TRUMP until set (MJ-8)
    ("trump_trick", np.int64),              # the trick it was set in, -1 if not yet
    ("setter", np.int64),                   # the seat that set it, -1 if not yet
    ("sticks", np.int64, SEATS),
    ("potatoes", np.int64, SEATS),
    ("hands_trumpless", np.int64),
    ("hands_100", np.int64),
    ("hands_157", np.int64),
    ("hands_tie3", np.int64),
    ("last_points", np.int64, SEATS),       # the last scored hand: its points, sticks, potatoes, trump
    ("last_sticks", np.int64, SEATS),
    ("last_potatoes", np.int64, SEATS),
    ("last_trump", np.int64),
    ("last_trump_trick", np.int64),
    ("last_setter", np.int64),
    ("policy_draws", np.uint64, N_CARDS),   # the POLICY stream's draw of each turn of this hand (deal)
    ("draws", np.uint64, N_CARDS),          # the deal's scratch: its 36 keyed draws, their top halves, ranks
    ("tops", np.uint32, N_CARDS),
    ("ranks", np.int32, N_CARDS),
    ("over", np.bool_),                     # every hand scored (``game_over`` also stops at max_turns)
])
"""One game's state; every field but the last is 8 bytes wide, so none needs padding."""



class Params(NamedTuple):
    """The rules as the compiled functions read them, by field name (``make_params``)."""

    players: int
    undertrump: int    # an index of ``UNDERTRUMP`` (MJ-10)
    others: int        # the sticks (MJ-16) or potatoes (MJ-17) of every other seat: 3, or 1 (big_hand="one_each")
    hands: int         # hands in a game (MJ-19); an ``mc`` play-out's copy stops at its world's hand
    bonus: int         # the last trick's points (MJ-4)
    total: int         # all the points of a hand (157, MJ-17)
    max_turns: int     # -1: no limit


RECORD = ("game", "turns", "truncated", "winner", "winners", *(f"{k}_{s}" for k in ("score", "sticks", "potatoes")
                                                               for s in range(SEATS)),
          "hands_trumpless", "hands_100", "hands_157", "hands_tie3")
"""The record's columns (``__init__.COLUMNS``), in the order ``record`` writes them."""
HAND_RECORD = ("game", "hand", "dealer", "trump", "trump_trick", "trump_setter",
               *(f"{k}_{s}" for k in ("points", "sticks", "potatoes") for s in range(SEATS)))
"""The per-hand table's columns (``__init__.HAND_COLUMNS``), in the order ``hand_record`` writes them."""
AT = jit.positions(RECORD)
"""Where ``record`` writes each column (a seat's ``score_s`` at ``AT.score_0 + s``, ...)."""
AT_HAND = jit.positions(HAND_RECORD)
"""Where ``hand_record`` writes each column."""


def _deal_seat() -> np.ndarray:
    """``DEAL_SEAT[players, dealer, i]``: the seat the i-th card of the deck goes to (MJ-5)."""
    table = np.zeros((SEATS + 1, SEATS, N_CARDS), dtype=np.int64)
    for n in (3, 4):
        for d in range(n):
            table[n, d] = [(d + 1 + i // 3) % n for i in range(N_CARDS)]
    return table


DEAL_SEAT = _deal_seat()
_SUIT_BITS = np.uint64((1 << N_RANKS) - 1)
_ALL = np.uint64((1 << N_CARDS) - 1)
_HALF = np.uint64(32)
_S1, _S2, _S4, _S8 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(8)
_H1, _H2, _H4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_L8, _H8, _BYTE = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080), np.uint64(255)
SELECT8 = np.array([[([i for i in range(8) if v >> i & 1] + [0] * 8)[j] for j in range(8)] for v in range(256)],
                   dtype=np.uint8)
"""``SELECT8[v, j]``: the position of the j-th set bit (from 0) of the byte v."""


def make_params(rules: MolotowRules, players: int) -> Params:
    """The rules as the ``Params`` the compiled functions read."""
    max_turns = -1 if rules.max_turns is None else rules.max_turns
    return Params(players, UNDERTRUMP.index(rules.undertrump), 3 if rules.big_hand == "seed" else 1, rules.hands,
                  rules.last_trick_bonus, rules.total_points, max_turns)


# the policy table (policy_table): a row per seat
CODE, DETERMINIZATIONS, BASE, SEES, FORBID, WEIGHTS = range(6)
"""The columns of a policy table row: the code; ``mc``'s worlds and base policy (a code), whether it sees
every hand (``oracle``); the ``forbid`` mask; from ``WEIGHTS`` on the fixed-point weights
(``learned_features.SCALE``) of the row's ``learned`` policy, or of its search's ``learned`` base."""

LOWEST = np.iinfo(np.int64).min
"""Below every score: the first candidate's score replaces it."""
MAX_CANDIDATES = 12
"""``mc``'s candidates are the legal cards: at most a hand, 12 cards at the 3-player table."""

WORK = np.dtype([
    ("worlds", STATE, (2,)),                            # a world, a play-out
    ("candidates", np.int64, (MAX_CANDIDATES,)),
    ("totals", np.int64, (MAX_CANDIDATES,)),
    ("room", np.int64, (SEATS,)),                       # a world's deal: cards each seat still needs
    ("slack", np.int64, (1 << SEATS,)),                 # ... and the room each set of seats has to spare
], align=True)
"""``mc``'s scratch (``search``): its world and play-out states, candidates and their totals, the deal."""


def policy_table(policies: tuple[str, ...]) -> np.ndarray:
    """A row per seat (int64): ``CODE`` (``RANDOM``, ``GREEDY``, ``LEARNED_CODE``, ``SEARCH``), for ``mc`` its
    ``DETERMINIZATIONS``, ``BASE`` (a code) and ``SEES``, the ``FORBID`` mask, and the ``WEIGHTS`` of a
    ``learned`` policy or base; validated (``policies.parse_full``)."""
    table = np.zeros((len(policies), WEIGHTS + feat.WEIGHTS), dtype=np.int64)
    for seat, text in enumerate(policies):
        name, param, forbid = parse_full(text)
        table[seat, CODE] = POLICIES.index(name) if name in POLICIES[:SEARCH] else SEARCH
        table[seat, FORBID] = forbid
        if param is not None and not isinstance(param, Learned):    # mc, oracle
            base, base_param, _ = parse_full(param.base)
            table[seat, DETERMINIZATIONS], table[seat, BASE] = param.determinizations, POLICIES.index(base)
            table[seat, SEES] = param.sees_all  # oracle: its worlds are the true state
            param = base_param
        if isinstance(param, Learned):
            table[seat, WEIGHTS:] = load_model(param.model).fixed_point(feat.SCALE)
    return table


def new_state() -> np.ndarray:
    """A blank state (``new_game`` starts a game in it)."""
    return np.zeros(1, STATE)


def new_work() -> np.ndarray:
    """A ``WORK`` record (a 1-element array)."""
    return np.zeros(1, WORK)


# ----------------------------------------------------------------------------- cards

@njit(cache=True, inline="always")
def suit(card: int) -> int:
    return SUIT_OF[card]


@njit(cache=True, inline="always")
def beats(card: int, best: int, trump: int) -> bool:
    """MJ-12: does ``card`` take the trick from its best card ``best``? (a table lookup)"""
    return BEATS[best, trump] & jit.bit(card) != ZERO


# ----------------------------------------------------------------------------- deal

@njit(cache=True)
def new_game(s, params: Params, key: np.uint64) -> None:
    """A fresh game from its key (``rng.game_key(seed, game)``), hand 0 dealt."""
    s.key = key
    s.players = params.players
    s.hand_no = 0
    s.turn = 0
    s.over = False
    for p in range(SEATS):
        s.sticks[p] = 0
        s.potatoes[p] = 0
        s.last_points[p] = 0
        s.last_sticks[p] = 0
        s.last_potatoes[p] = 0
    s.hands_trumpless = 0
    s.hands_100 = 0
    s.hands_157 = 0
    s.hands_tie3 = 0
    s.last_trump = -1
    s.last_trump_trick = -1
    s.last_setter = -1
    deal(s)


@njit(cache=True)
def deal(s) -> None:
    """MJ-5, MJ-6: deal hand ``hand_no``; the dealer's right leads.

    The deck order is ``rng.permutation(key, DEAL, 36, counter=hand_no)``, the argsort of
    36 keyed draws (ties by index): the card whose draw has rank r in that order goes to
    seat ``DEAL_SEAT[players, dealer, r]``. The hand's draws of the POLICY stream,
    ``rng.draw(key, POLICY, turn, 0)`` for its 36 turns, are drawn here too, all at once.
    """
    n = s.players
    dealer = s.hand_no % n
    base = jit.fold(jit.fold(s.key, jit.DEAL), s.hand_no)
    draws, ranks = s.draws, s.ranks
    for i in range(N_CARDS):
        draws[i] = jit.fold(base, i)
    rank_draws(draws, s.tops, ranks)
    draw_policy(s)
    for p in range(SEATS):
        s.held[p] = ZERO
        s.taken[p] = ZERO
        s.ruled_out[p] = ZERO
    for i in range(N_CARDS):
        s.held[DEAL_SEAT[n, dealer, ranks[i]]] |= ONE << U(i)
    s.dealer = dealer
    s.leader = (dealer + 1) % n
    s.played = ZERO
    s.trick_len = 0
    s.trick_no = 0
    s.led = -1
    s.best = -1
    s.best_seat = -1
    s.trump = NO_TRUMP
    s.trump_trick = -1
    s.setter = -1


@njit(cache=True)
def draw_policy(s) -> None:
    """``policy_draws``: ``rng.draw(key, POLICY, turn, 0)`` for the 36 turns of hand ``hand_no``."""
    first = N_CARDS * s.hand_no                                 # the hand's turns: first, first + 1, ...
    policy = jit.fold(s.key, jit.POLICY)
    for i in range(N_CARDS):
        s.policy_draws[i] = jit.fold(jit.fold(policy, first + i), 0)


@njit(cache=True)
def rank_draws(draws: np.ndarray, tops: np.ndarray, ranks: np.ndarray) -> None:
    """``ranks[i]``: the place of ``draws[i]`` in the stable ascending order of the 36 ``draws``.

    Counted, not sorted, on the draws' top 32 bits (``tops``: the counting loops then
    vectorise 16 wide). Should two draws share their top halves (about once in 7 million
    deals), the ranks are counted again on the whole draws, ties going by index.
    """
    for i in range(N_CARDS):
        tops[i] = np.uint32(draws[i] >> _HALF)
    for i in range(N_CARDS):
        r = np.int32(0)
        for j in range(N_CARDS):
            r += np.int32(tops[j] < tops[i])
        ranks[i] = r
    seen = ZERO
    for i in range(N_CARDS):
        seen |= ONE << U(ranks[i])
    if seen != _ALL:
        for i in range(N_CARDS):
            r = np.int32(0)
            for j in range(N_CARDS):
                r += np.int32((draws[j] < draws[i]) or (draws[j] == draws[i] and j < i))
            ranks[i] = r


# ----------------------------------------------------------------------------- whose turn, which cards

@njit(cache=True, inline="always")
def to_act(s) -> int:
    """MJ-6: the seat to play (the leader, then counter-clockwise)."""
    seat = s.leader + s.trick_len
    return seat - s.players if seat >= s.players else seat


@njit(cache=True, inline="always")
def game_over(s, params: Params) -> bool:
    """Every hand scored, or ``max_turns`` cards played (then the game is truncated)."""
    return s.over or s.turn == params.max_turns


@njit(cache=True, inline="always")
def legal_cards(s, params: Params) -> np.uint64:
    """The cards the seat to act may play (MJ-6, MJ-7, MJ-9, MJ-10, MJ-11; ``reference.legal_moves``)."""
    return rule_cards(s, params, True)


@njit(cache=True, inline="always")
def rule_cards(s, params: Params, exempt: bool) -> np.uint64:
    """``legal_cards``, or (``exempt`` False) the cards that would be legal were the Buur an ordinary trump."""
    hand = s.held[to_act(s)]
    if s.trick_len == 0:                                        # MJ-6: any card may be led
        return hand
    t = s.trump
    kept = BUUR[t] & hand if exempt else ZERO                   # MJ-11: the Buur is never forced
    rest = hand & ~kept
    if rest == ZERO:                                            # a lone Buur is a last card
        return hand
    follow = rest & SUIT_MASK[s.led]
    if t == NO_TRUMP or s.led == t:                             # MJ-7: follow suit if you can
        return (follow if follow != ZERO else rest) | kept
    trumps = rest & SUIT_MASK[t]
    free = (follow | trumps) if follow != ZERO else rest        # MJ-9: or play a trump
    if suit(s.best) != t:                                       # no trump in the trick yet
        return free | kept
    higher = trumps & BEATS[s.best, t]
    lower = trumps & ~higher
    undertrump = params.undertrump
    if undertrump == SEED:                                      # MJ-10 "seed"
        above = follow | higher
        return (above if above != ZERO else (lower if lower != ZERO else rest)) | kept
    if undertrump == FORBIDDEN and rest != trumps:              # MJ-10 "forbidden"
        return (free & ~lower) | kept
    return free | kept                                          # MJ-10 "allowed"


@njit(cache=True, inline="always")
def allowed_cards(s, params: Params, legal: np.uint64, forbid: int) -> np.uint64:
    """The ``legal`` cards a policy with the ``forbid`` mask may play (``reference.allowed_moves``): per option
    forbidden, in order, the cards that would take it dropped unless none would be left."""
    t = s.trump
    if forbid == 0 or s.trick_len == 0 or t == NO_TRUMP:
        return legal
    trumps = legal & SUIT_MASK[t] if s.led != t else ZERO
    allowed = legal
    if forbid & TRUMP_INSTEAD and s.held[to_act(s)] & SUIT_MASK[s.led] != ZERO and allowed & ~trumps != ZERO:
        allowed &= ~trumps                                      # MJ-9
    lower = trumps & ~BEATS[s.best, t] if suit(s.best) == t else ZERO
    if forbid & UNDERTRUMPS and allowed & ~lower != ZERO:       # MJ-10
        allowed &= ~lower
    kept = legal & ~rule_cards(s, params, False)
    if forbid & KEEP_BUUR and allowed & ~kept != ZERO:          # MJ-11
        allowed &= ~kept
    return allowed


# ----------------------------------------------------------------------------- policies (policies.py)

@njit(cache=True)
def cheapest(mask: np.uint64, trump: int) -> int:
    """The greedy order's minimum of a non-empty mask (``policies.cheapest``)."""
    card, low = -1, 1 << 30
    while mask != ZERO:
        c = jit.lowest(mask)
        mask = jit.drop_lowest(mask)
        r = CHEAP_RANK[trump, c]
        if r < low:
            card, low = c, r
    return card


@njit(cache=True, inline="always")
def nth_card(mask: np.uint64, k: int) -> int:
    """The card of index ``k`` (from 0, ``k`` < cards in ``mask``) in ascending code (``jit.ith_lowest``).

    Without a loop or a branch: the cards per byte of the mask and their running sums, bytewise
    (``sums`` byte i = cards in bytes 0..i); the byte holding card ``k`` is the number of bytes
    whose running sum is at most ``k``; ``SELECT8`` finds the card within that byte.
    """
    x = mask - ((mask >> _S1) & _H1)
    x = (x & _H2) + ((x >> _S2) & _H2)
    sums = (((x + (x >> _S4)) & _H4) * _L8)                     # running sums, each < 128
    at_most_k = ((U(k) * _L8) | _H8) - sums                     # byte i: 128 + k - sums_i, no borrows
    byte = jit.popcount(at_most_k & _H8)
    before = np.int64(((sums << _S8) >> U(8 * byte)) & _BYTE)   # cards in the bytes below
    return 8 * byte + np.int64(SELECT8[np.int64((mask >> U(8 * byte)) & _BYTE), k - before])


@njit(cache=True, inline="always")
def random_card(legal: np.uint64, u: np.uint64) -> int:
    """``random``: the legal card of rank ``rng.below(u, n)`` in ascending code, ``u`` the turn's draw."""
    k = jit.below(u, jit.popcount(legal))
    return nth_card(legal, k)


@njit(cache=True)
def trump_choice(hand: np.uint64) -> int:
    """Greedy step 2: the suit with the most trump points, then cards, then the lowest index."""
    best, value = 0, -1
    for x in range(4):
        v = TRUMP_STRENGTH[np.int64((hand >> U(N_RANKS * x)) & _SUIT_BITS)]
        if v > value:
            best, value = x, v
    return best


@njit(cache=True)
def greedy_card(s, legal: np.uint64) -> int:
    """``greedy`` (``policies.greedy_card``), from the seat's hand, the trick and the trump state."""
    t = s.trump
    if s.trick_len == 0:                                        # step 1
        return cheapest(legal, t)
    hand = s.held[to_act(s)]
    if t == NO_TRUMP and hand & SUIT_MASK[s.led] == ZERO:       # step 2
        ts = trump_choice(hand)
        return cheapest(hand & SUIT_MASK[ts], ts)
    winning = legal & BEATS[s.best, t]                          # step 3
    if winning != ZERO:
        value = 0
        for i in range(s.trick_len):
            value += POINTS[t, s.trick[i]]
        if value > 0:
            return cheapest(winning, t)
    return cheapest(legal, t)


@njit(cache=True, inline="always")
def base_card(s, params: Params, policy: int, forbid: int) -> int:
    """The card the seat to act plays under a search-free ``policy`` without weights (``RANDOM``, ``GREEDY``)
    with the ``forbid`` mask; it reads that seat's view only. ``play_plain`` compiles this and not
    ``learned``'s scorer."""
    legal = allowed_cards(s, params, legal_cards(s, params), forbid)
    if policy == RANDOM:
        return random_card(legal, s.policy_draws[s.turn - N_CARDS * s.hand_no])
    return greedy_card(s, legal)


@njit(cache=True, inline="always")
def decide(s, params: Params, code: int, policies: np.ndarray, row: int, forbid: int) -> int:
    """The card the seat to act plays under the search-free policy ``code`` (``RANDOM``, ``GREEDY``,
    ``LEARNED_CODE``: the weights of row ``row`` of the policy table) with the ``forbid`` mask; from its view."""
    if code == LEARNED_CODE:
        return learned_card(s, params, allowed_cards(s, params, legal_cards(s, params), forbid), policies, row)
    return base_card(s, params, code, forbid)


@njit(cache=True, inline="always")
def choose(s, params: Params, policies: np.ndarray, w) -> int:
    """The card the seat to act plays under its row of the policy table (``policy_table``); it reads that
    seat's view only. ``w`` is a ``WORK`` record, ``mc``'s scratch."""
    seat = to_act(s)
    policy = policies[seat, CODE]
    if policy == SEARCH:
        return search(s, params, policies, seat, w)
    return decide(s, params, policy, policies, seat, policies[seat, FORBID])


# ----------------------------------------------------------------------------- learned (policies.py specifies it)

@njit(cache=True)
def learned_card(s, params: Params, legal: np.uint64, policies: np.ndarray, row: int) -> int:
    """``learned``: of the ``legal`` cards (``greedy``'s first, then ascending code), the one whose features
    (``learned_features``) score highest under the weights of policy table row ``row``; ties to the first. A
    single legal card is played without scoring; cards that set trump go to ``trump_setting_card``."""
    if legal & (legal - ONE) == ZERO:
        return jit.lowest(legal)
    first = greedy_card(s, legal)
    seat = to_act(s)
    possible = feat.possible_cards(s, seat)
    blk = feat.block(s.players, s.trick_len, s.trick_no, s.trump)
    w, net = feat.weights(policies, row, WEIGHTS, blk), feat.has_units(policies, row, WEIGHTS, blk)
    if feat.trump_after(s, first) != s.trump:
        return trump_setting_card(s, seat, first, legal, w, params.bonus, possible, policies, row, blk, net)
    here = feat.context(s, seat, s.trump, params.bonus, possible)
    if net:  # a loop of its own for a network's block: the linear one stays as it was (with units in it, 3% slower)
        return top_card(first, legal, here, w, policies, row, blk, True)
    return top_card(first, legal, here, w, policies, row, blk, False)


@njit(cache=True, inline="always")
def top_card(first: int, legal: np.uint64, here: tuple, w: tuple, policies: np.ndarray, row: int, blk: int,
              net: bool) -> int:
    """``learned_card``'s loop over the ``legal`` cards (``first``, then ascending code) under one context: the
    first best scored. Inlined with ``net`` a constant, so that each caller's loop has the units or none."""
    best, top, c, rest = first, LOWEST, first, legal & ~jit.bit(first)
    while True:                                                 # one call of features: LLVM inlines it
        f = feat.features(c, c == first, here)
        value = feat.score(w, f) + (feat.units(policies, row, WEIGHTS, blk, f) if net else 0)
        if value > top:
            best, top = c, value
        if rest == ZERO:
            return best
        c = jit.lowest(rest)
        rest = jit.drop_lowest(rest)


@njit(cache=True)
def trump_setting_card(s, seat: int, first: int, legal: np.uint64, w: tuple, bonus: int, possible: np.uint64,
                       policies: np.ndarray, row: int, blk: int, net: bool) -> int:
    """``learned_card`` when its candidates set trump (MJ-8; then all do): each is valued under its own suit, a
    context per suit; kept apart, so that ``learned_card``'s loop keeps one context (measured 5% faster)."""
    t = feat.trump_after(s, first)
    here = feat.context(s, seat, t, bonus, possible)
    best, top, c, rest = first, LOWEST, first, legal & ~jit.bit(first)
    while True:
        if feat.trump_after(s, c) != t:
            t = feat.trump_after(s, c)
            here = feat.context(s, seat, t, bonus, possible)
        f = feat.features(c, c == first, here)
        value = feat.score(w, f) + (feat.units(policies, row, WEIGHTS, blk, f) if net else 0)
        if value > top:
            best, top = c, value
        if rest == ZERO:
            return best
        c = jit.lowest(rest)
        rest = jit.drop_lowest(rest)


# ----------------------------------------------------------------------------- playing a card

@njit(cache=True, inline="always")
def apply(s, params: Params, card: int) -> None:
    """The seat to act plays ``card``; a full trick is taken, a finished hand scored, the next dealt."""
    seat = to_act(s)
    if s.trick_len == 0:
        lead(s, seat, card)
    else:
        follow(s, params, seat, card)
    s.turn += 1
    if s.trick_len == s.players:
        take_trick(s, params)


@njit(cache=True, inline="always")
def lead(s, seat: int, card: int) -> None:
    """MJ-6: any card leads; it is the trick's best so far."""
    b = jit.bit(card)
    s.held[seat] &= ~b
    s.played |= b
    s.trick[0] = card
    s.trick_cards = b
    s.trick_len = 1
    s.led = suit(card)
    s.best = card
    s.best_seat = seat


@njit(cache=True, inline="always")
def follow(s, params: Params, seat: int, card: int) -> None:
    """A card to a led trick: what it shows (``rule_out``), trump set (MJ-8), the best card (MJ-12)."""
    b = jit.bit(card)
    if suit(card) != s.led:
        rule_out(s, params.undertrump, seat, card)
        if s.trump == NO_TRUMP:
            set_trump(s, seat, card)
    s.held[seat] &= ~b
    s.played |= b
    s.trick[s.trick_len] = card
    s.trick_cards |= b
    s.trick_len += 1
    if beats(card, s.best, s.trump):
        s.best = card
        s.best_seat = seat


@njit(cache=True, inline="always")
def set_trump(s, seat: int, card: int) -> None:
    """MJ-8: the first card of a hand off the led suit sets trump; it is a trump in its own trick."""
    s.trump = suit(card)
    s.trump_trick = s.trick_no
    s.setter = seat


@njit(cache=True)
def rule_out(s, undertrump: int, seat: int, card: int) -> None:
    """The cards ``seat`` shows it does not hold by playing ``card`` off the led suit (before it lands).

    Public, as every player at the table can reason it: a card x is ruled out when holding
    x as well would have made ``card`` illegal (MJ-7, MJ-10). The Buur is never ruled
    out, nor does playing it show anything (MJ-11: it is never forced).
    """
    t, led = s.trump, s.led
    buur = BUUR[t]
    if jit.bit(card) == buur:
        return
    out = ZERO
    if t == NO_TRUMP or led == t or suit(card) != t:            # MJ-7: could not follow
        out = SUIT_MASK[led]
    if t != NO_TRUMP and led != t and suit(s.best) == t:        # MJ-10: a trump in the trick
        if suit(card) != t:
            if undertrump == SEED:                              # nor overtrump, nor undertrump
                out |= SUIT_MASK[t]
        elif not beats(card, s.best, t):                        # an undertrump
            if undertrump == SEED:                              # could not follow or overtrump
                out |= SUIT_MASK[led] | (SUIT_MASK[t] & BEATS[s.best, t])
            elif undertrump == FORBIDDEN:                       # held only trumps
                out |= _ALL & ~SUIT_MASK[t]
    s.ruled_out[seat] |= out & ~buur


@njit(cache=True)
def take_trick(s, params: Params) -> None:
    """MJ-12, MJ-6: the best card's seat takes the trick and leads the next; after the last, the hand ends."""
    s.taken[s.best_seat] |= s.trick_cards
    s.leader = s.best_seat
    s.trick_len = 0
    s.trick_no += 1
    if s.trick_no * s.players == N_CARDS:
        end_hand(s, params)


# ----------------------------------------------------------------------------- the end of a hand

@njit(cache=True)
def end_hand(s, params: Params) -> None:
    """MJ-4, MJ-13…MJ-18: value the hand, score it; then deal the next or end the game (MJ-19)."""
    n = s.players
    total = params.total
    big = False
    full = False
    for p in range(SEATS):
        pts = mask_points(s.taken[p], s.trump) if p < n else 0
        if p == s.leader:                                       # MJ-4: the last trick
            pts += params.bonus
        s.last_points[p] = pts
        s.last_sticks[p] = 0
        s.last_potatoes[p] = 0
        full |= pts == total
        big |= 100 <= pts < total
    tie3 = score_hand(s, params)
    for p in range(n):
        s.sticks[p] += s.last_sticks[p]
        s.potatoes[p] += s.last_potatoes[p]
    s.hands_trumpless += s.trump == NO_TRUMP
    s.hands_100 += big
    s.hands_157 += full
    s.hands_tie3 += tie3
    s.last_trump = -1 if s.trump == NO_TRUMP else s.trump
    s.last_trump_trick = s.trump_trick
    s.last_setter = s.setter
    s.hand_no += 1
    if s.hand_no == params.hands:
        s.over = True
    else:
        deal(s)


@njit(cache=True)
def score_hand(s, params: Params) -> bool:
    """Sticks and potatoes of ``last_points`` into ``last_sticks``/``last_potatoes`` (MJ-13…MJ-18);
    True when the three-way-tie draw settled it (MJ-15)."""
    n = s.players
    pts, sticks, potatoes = s.last_points, s.last_sticks, s.last_potatoes
    others = params.others
    for p in range(n):
        if pts[p] == params.total:                           # MJ-17: all the points
            for q in range(n):
                sticks[q], potatoes[q] = (3, 0) if q == p else (0, others)
            return False
        if pts[p] >= 100:                                       # MJ-16: 100 to 156 points
            for q in range(n):
                sticks[q], potatoes[q] = (0, 3) if q == p else (others, 0)
            return False
    high, low = pts[0], pts[0]
    for p in range(1, n):
        high, low = max(high, pts[p]), min(low, pts[p])
    top, bottom = 0, 0
    for p in range(n):
        top += pts[p] == high
        bottom += pts[p] == low
    if n == 4 and (top == 3 or bottom == 3):                    # MJ-15: three-way tie
        value = high if top == 3 else low
        tied = 0
        for p in range(n):
            if pts[p] == value:
                tied |= 1 << p
            else:
                sticks[p] = 1
        potatoes[tie_draw(s.key, s.hand_no, tied)] = 1
        return True
    for p in range(n):                                          # MJ-13, MJ-14, MJ-18
        if pts[p] == high:
            sticks[p] = top == 1
        elif pts[p] == low:
            sticks[p] = bottom == 1
        else:
            potatoes[p] = 1
    return False


@njit(cache=True)
def tie_draw(key: np.uint64, hand_no: int, tied: int) -> int:
    """MJ-15: the tied seat (bit mask ``tied``) that draws the single highest plain rank.

    Attempt ``a`` orders the deck by ``rng.draw(key, EXTRA, hand_no, a, i)`` (ties by
    index); the tied seats, ascending, take its first three cards; redraw while the
    highest rank is drawn twice or more.
    """
    attempt = 0
    while True:
        base = jit.fold(jit.fold(jit.fold(key, jit.EXTRA), hand_no), attempt)
        c0, c1, c2 = -1, -1, -1                                 # the three smallest draws, in order
        u0, u1, u2 = ZERO, ZERO, ZERO
        for i in range(N_CARDS):
            u = jit.fold(base, i)
            if c0 < 0 or u < u0:
                c2, u2, c1, u1, c0, u0 = c1, u1, c0, u0, i, u
            elif c1 < 0 or u < u1:
                c2, u2, c1, u1 = c1, u1, i, u
            elif c2 < 0 or u < u2:
                c2, u2 = i, u
        r0, r1, r2 = c0 % N_RANKS, c1 % N_RANKS, c2 % N_RANKS
        high = max(r0, r1, r2)
        if (r0 == high) + (r1 == high) + (r2 == high) == 1:
            pick = 0 if r0 == high else (1 if r1 == high else 2)
            for seat in range(SEATS):
                if tied >> seat & 1:
                    if pick == 0:
                        return seat
                    pick -= 1
        attempt += 1


# ----------------------------------------------------------------------------- states and loops

@njit(cache=True)
def copy_state(dst, src) -> None:
    """``dst`` becomes a copy of ``src`` (both 1-element ``STATE`` arrays)."""
    dst[0] = src[0]


@njit(cache=True)
def play_out(s, params: Params, policies: np.ndarray, w) -> None:
    """Play the game of state ``s`` to its end, seat ``p`` playing row ``p`` of the policy table
    (``w`` a ``WORK`` record)."""
    while not game_over(s, params):
        apply(s, params, choose(s, params, policies, w))


# ----------------------------------------------------------------------------- mc (policies.py specifies it)

def _affected() -> np.ndarray:
    """``AFFECTED[q, T]``: the sets of seats S (a bitmask over S = 0..15) whose spare room a card open to
    the seats ``T`` uses up when it goes to seat ``q``: those holding ``q`` but not all of ``T``."""
    table = np.zeros((SEATS, 1 << SEATS), dtype=np.uint64)
    for q in range(SEATS):
        for t in range(1 << SEATS):
            table[q, t] = sum(1 << x for x in range(1 << SEATS) if x >> q & 1 and t & ~x)
    return table


AFFECTED = _affected()
SEAT_COUNT = np.array([bin(x).count("1") for x in range(1 << SEATS)], dtype=np.int64)
"""``SEAT_COUNT[T]``: the seats in the bitmask ``T``."""


@njit(cache=True)
def determinize(world, seat: int, key: np.uint64, w) -> None:
    """World ``key`` of a copy of the searched state, from ``seat``'s view: the cards it cannot see dealt
    to the other seats, each getting as many as it holds now and none a card of its ``ruled_out``; then
    ``key`` stands in for the game key (its ``policy_draws`` drawn again).

    ``w.slack[S]`` is the room of the set of seats ``S`` less the hidden cards only ``S``'s seats may
    hold; a deal exists while no slack is negative (Hall's theorem), so a card goes to a seat only if
    that leaves every slack at 0 or more (``place``). The cards open to one seat go first, then those
    open to two, to three; last any ruled out everywhere (no view from play has one).
    """
    n = world.players
    hidden = _ALL & ~world.held[seat] & ~world.played
    others = 0
    for q in range(n):
        if q != seat:
            others |= 1 << q
    for q in range(SEATS):
        w.room[q] = jit.popcount(world.held[q]) if others >> q & 1 else 0
        if others >> q & 1:
            world.held[q] = ZERO
    for x in range(1, 1 << SEATS):                             # a set with seats that get no card (the
        room, elsewhere = 0, ZERO                               # searching seat, a seat 3 of 3 players)
        for q in range(SEATS):                                  # has the slack of its other seats
            if x >> q & 1:
                room += w.room[q]
            elif others >> q & 1:
                elsewhere |= ~world.ruled_out[q]
        w.slack[x] = room - jit.popcount(hidden & ~elsewhere)
    draws = jit.fold(jit.fold(key, jit.DEAL), 0)
    for step in range(1, n + 1):
        k = step if step < n else 0                             # open to 1, 2, ... n - 1 seats, then to none
        for t in range(1 << SEATS):
            if t & ~others == 0 and SEAT_COUNT[t] == k:
                cards = hidden
                for q in range(n):
                    if others >> q & 1:
                        cards &= ~world.ruled_out[q] if t >> q & 1 else world.ruled_out[q]
                while cards != ZERO:
                    c = jit.lowest(cards)
                    cards = jit.drop_lowest(cards)
                    place(world, w, c, t, others, jit.fold(draws, c))
    world.key = key
    draw_policy(world)


@njit(cache=True, inline="always")
def place(world, w, card: int, seats: int, others: int, u: np.uint64) -> None:
    """Deal ``card``, open to the bitmask ``seats``: to the seat of ``rng.below(u, room of seats)`` in
    seat order, each seat weighted by its room, or the next open seat (cyclically) that keeps every slack
    at 0 or more; should none (a view no deal can meet), to the first seat with room."""
    total = 0
    for q in range(SEATS):
        if seats >> q & 1:
            total += w.room[q]
    r = jit.below(u, total) if total > 0 else 0
    start = 0
    for q in range(SEATS):
        if seats >> q & 1 and 0 <= r:
            start = q
            r -= w.room[q]
    to = -1
    for i in range(SEATS):
        q = (start + i) % SEATS
        if to < 0 and seats >> q & 1 and w.room[q] > 0 and keeps_slack(w, AFFECTED[q, seats]):
            to = q
    for q in range(SEATS):
        if to < 0 and others >> q & 1 and w.room[q] > 0:
            to = q
    if to >= 0:
        world.held[to] |= jit.bit(card)
        w.room[to] -= 1
        sets = AFFECTED[to, seats]
        while sets != ZERO:
            w.slack[jit.lowest(sets)] -= 1
            sets = jit.drop_lowest(sets)


@njit(cache=True, inline="always")
def keeps_slack(w, sets: np.uint64) -> bool:
    """Is every slack of the sets of seats ``sets`` (a bitmask) at least 1?"""
    ok = True
    while sets != ZERO:
        ok &= w.slack[jit.lowest(sets)] >= 1
        sets = jit.drop_lowest(sets)
    return ok


@njit(cache=True, inline="always")
def to_hand_end(params: Params, hand_no: int) -> Params:
    """The rules with hand ``hand_no`` the last: a play-out stops when that hand is scored, dealing none."""
    return Params(params.players, params.undertrump, params.others, hand_no + 1, params.bonus, params.total,
                  params.max_turns)


@njit(cache=True)
def roll_out(s, params: Params, policies: np.ndarray, row: int) -> None:
    """An ``mc`` play-out for the seat of policy table row ``row``: its search's base policy in every seat
    until the game (``to_hand_end``: the hand) ends, that seat's own decisions with its ``forbid`` mask."""
    base, forbid = policies[row, BASE], policies[row, FORBID]
    while not game_over(s, params):
        apply(s, params, decide(s, params, base, policies, row, forbid if to_act(s) == row else 0))


@njit(cache=True)
def search(s, params: Params, policies: np.ndarray, row: int, w) -> int:
    """``mc``'s card for the seat to act, of policy table row ``row`` (policies.py): the candidate of
    ``search_totals`` with the highest total, ties to greedy's card; a single candidate without a play-out."""
    m = search_totals(s, params, policies, row, policies[row, DETERMINIZATIONS], w)
    return w.candidates[0] if m == 1 else w.candidates[jit.argmax_first(w.totals, m)]


@njit(cache=True)
def search_totals(s, params: Params, policies: np.ndarray, row: int, determinizations: int, w) -> int:
    """``mc``'s totals (policies.py), into ``w.totals``, of its candidates (``w.candidates``): every card the
    seat may play (``allowed_cards`` with the row's ``forbid``), greedy's first, played out in the same
    ``determinizations`` worlds (``determinize``, keyed ``jit.world_key(key, turn, j)``) to the end of the
    hand with the row's base policy (``roll_out``); a play-out scores the seat's sticks minus potatoes of the
    hand (0 if ``max_turns`` stops it first). How many candidates; with one, no play-out is played.
    ``oracle`` (the row's ``SEES``): the worlds are the state itself under the world's key."""
    seat, hand_no = to_act(s), s.hand_no
    sees = policies[row, SEES]
    legal = allowed_cards(s, params, legal_cards(s, params), policies[row, FORBID])
    first = greedy_card(s, legal)
    w.candidates[0] = first
    m = 1
    rest = legal & ~jit.bit(first)
    while rest != ZERO:
        w.candidates[m] = jit.lowest(rest)
        rest = jit.drop_lowest(rest)
        m += 1
    if m == 1:
        return m
    hand_end = to_hand_end(params, hand_no)
    world, trial = w.worlds[0], w.worlds[1]
    for i in range(m):
        w.totals[i] = 0
    for j in range(determinizations):
        w.worlds[0] = s
        if sees:
            world.key = jit.world_key(s.key, s.turn, j)
            draw_policy(world)
        else:
            determinize(world, seat, jit.world_key(s.key, s.turn, j), w)
        for i in range(m):
            w.worlds[1] = world
            apply(trial, hand_end, w.candidates[i])
            roll_out(trial, hand_end, policies, row)
            if trial.hand_no > hand_no:
                w.totals[i] += trial.last_sticks[seat] - trial.last_potatoes[seat]
    return m


@njit(cache=True)
def record(s, params: Params, game: int, row: np.ndarray) -> None:
    """MJ-19: the game's record (``RECORD`` columns) into ``row``; scores are sticks minus potatoes."""
    n = s.players
    truncated = s.turn < params.hands * N_CARDS
    high = s.sticks[0] - s.potatoes[0]
    for p in range(1, n):
        high = max(high, s.sticks[p] - s.potatoes[p])
    winners, winner = 0, -1
    for p in range(n):
        if s.sticks[p] - s.potatoes[p] == high:
            winner = p if winners == 0 else -1
            winners |= 1 << p
    row[AT.game], row[AT.turns], row[AT.truncated] = game, s.turn, truncated
    row[AT.winner], row[AT.winners] = (-1, 0) if truncated else (winner, winners)
    for p in range(SEATS):
        row[AT.score_0 + p] = s.sticks[p] - s.potatoes[p]
        row[AT.sticks_0 + p] = s.sticks[p]
        row[AT.potatoes_0 + p] = s.potatoes[p]
    row[AT.hands_trumpless], row[AT.hands_100] = s.hands_trumpless, s.hands_100
    row[AT.hands_157], row[AT.hands_tie3] = s.hands_157, s.hands_tie3


@njit(cache=True)
def hand_record(s, game: int, row: np.ndarray) -> None:
    """The row of the hand just scored (``HAND_RECORD`` columns)."""
    row[AT_HAND.game], row[AT_HAND.hand] = game, s.hand_no - 1
    row[AT_HAND.dealer] = (s.hand_no - 1) % s.players
    row[AT_HAND.trump], row[AT_HAND.trump_trick] = s.last_trump, s.last_trump_trick
    row[AT_HAND.trump_setter] = s.last_setter
    for p in range(SEATS):
        row[AT_HAND.points_0 + p] = s.last_points[p]
        row[AT_HAND.sticks_0 + p] = s.last_sticks[p]
        row[AT_HAND.potatoes_0 + p] = s.last_potatoes[p]


@njit(cache=True)
def play_games(params: Params, policies: np.ndarray, seed: np.uint64, games: np.ndarray,
               state: np.ndarray, out: np.ndarray, work: np.ndarray) -> None:
    """The engine's loop: game ``games[i]``'s record into ``out[i]``, one game at a time."""
    s, w = state[0], work[0]
    for i in range(len(games)):
        new_game(s, params, jit.game_key(seed, games[i]))
        play_out(s, params, policies, w)
        record(s, params, games[i], out[i])


@njit(cache=True)
def play_plain(params: Params, policies: np.ndarray, seed: np.uint64, games: np.ndarray,
               state: np.ndarray, out: np.ndarray, work: np.ndarray) -> None:
    """``play_games`` for a policy table without ``mc`` or ``learned``: the same cards (``base_card``), so a
    call that plays neither compiles no search and no scorer."""
    s = state[0]
    for i in range(len(games)):
        new_game(s, params, jit.game_key(seed, games[i]))
        while not game_over(s, params):
            q = to_act(s)
            apply(s, params, base_card(s, params, policies[q, CODE], policies[q, FORBID]))
        record(s, params, games[i], out[i])


@njit(cache=True)
def play_hands(params: Params, policies: np.ndarray, seed: np.uint64, games: np.ndarray,
               state: np.ndarray, out: np.ndarray, work: np.ndarray) -> int:
    """The per-hand loop: a row per scored hand into ``out``, game by game; the rows written."""
    s, w = state[0], work[0]
    rows = 0
    for i in range(len(games)):
        new_game(s, params, jit.game_key(seed, games[i]))
        while not game_over(s, params):
            before = s.hand_no
            apply(s, params, choose(s, params, policies, w))
            if s.hand_no != before:
                hand_record(s, games[i], out[rows])
                rows += 1
    return rows


def simulate(rules: MolotowRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...]
             ) -> dict[str, np.ndarray]:
    """The compiled engine's entry point (``GameSpec.compiled``): one array per record column."""
    games = np.asarray(games, dtype=np.int64)
    out = np.zeros((len(games), len(RECORD)), dtype=np.int64)
    table = policy_table(policies)
    warn_other_rules(policies, rules, players)
    searching = bool(np.isin(table[:, CODE], (SEARCH, LEARNED_CODE)).any())  # their code is in play_games alone
    jit.first_call(play_games if searching else play_plain, "molotow (mc, learned)" if searching else "molotow",
                   make_params(rules, players), table, np.uint64(seed), games, new_state(), out, new_work())
    cols = dict(zip(RECORD, out.T))
    cols["truncated"] = cols["truncated"].astype(bool)
    return cols


def simulate_hands(rules: MolotowRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...]
                   ) -> dict[str, np.ndarray]:
    """One array per ``HAND_RECORD`` column: a row per scored hand, game by game."""
    games = np.asarray(games, dtype=np.int64)
    out = np.zeros((len(games) * rules.hands, len(HAND_RECORD)), dtype=np.int64)
    rows = jit.first_call(play_hands, "molotow (per hand)", make_params(rules, players), policy_table(policies),
                          np.uint64(seed), games, new_state(), out, new_work())
    return dict(zip(HAND_RECORD, out[:rows].T))


# ----------------------------------------------------------------------------- the reference engine's positions

def state_from(key: int, turn: int, hand: Hand, trick: list[int], trick_no: int) -> np.ndarray:
    """The compiled state (a 1-element array) of a reference position: ``hand`` in play, ``trick_no``
    tricks taken, the ``trick`` led by ``hand.leader``, ``turn`` cards played in the game (so the hand
    is number ``turn // 36``). The game's sticks and potatoes so far are not kept (``mc`` scores the
    hand). For the reference engine's ``mc`` and for tests."""
    state = new_state()
    s = state[0]
    n = len(hand.held)
    s["key"], s["players"], s["turn"], s["hand_no"] = key, n, turn, turn // N_CARDS
    s["dealer"] = s["hand_no"] % n
    s["held"][:n], s["taken"][:n], s["ruled_out"][:n] = hand.held, hand.taken, hand.ruled_out
    s["trick"][:len(trick)] = trick
    s["trick_cards"] = sum(1 << c for c in trick)
    s["played"] = s["trick_cards"] | int(np.bitwise_or.reduce(s["taken"]))
    s["trick_len"], s["trick_no"], s["leader"] = len(trick), trick_no, hand.leader
    s["trump"], s["trump_trick"], s["setter"] = hand.trump, hand.trump_trick, hand.setter
    s["led"] = SUIT_OF[trick[0]] if trick else -1
    s["best"] = best_card(trick, hand.trump) if trick else -1
    s["best_seat"] = (hand.leader + trick.index(s["best"])) % n if trick else -1
    s["last_trump"] = s["last_trump_trick"] = s["last_setter"] = -1
    draw_policy(s)
    return state


def decide_from(rules: MolotowRules, policy: str, key: int, turn: int, hand: Hand, trick: list[int],
                trick_no: int) -> int:
    """The card the reference position's seat to play plays by ``policy`` (``mc``: the reference
    engine's), chosen here on ``state_from(...)``."""
    state, n = state_from(key, turn, hand, trick, trick_no), len(hand.held)
    return int(jit.first_call(choose, "molotow choose", state[0], make_params(rules, n),
                              policy_table((policy,) * n), new_work()[0]))
