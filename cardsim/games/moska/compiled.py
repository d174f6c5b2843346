"""Moska compiled engine: one game at a time in numba, record for record equal to ``reference.py``.

It is a translation of the DECISION PROTOCOL (v2) of ``reference.py`` (read it there, next to
docs/rules/moska.md); rule IDs are cited where they are applied. It does not trace moves
(``cardsim.replay`` does, with the reference engine).

A game is an explicit state: ``STATE``, one numpy record. It lives in a 1-element array
(``state = np.zeros(1, STATE)``) and every function takes the record ``s = state[0]``, a
view that numba passes by reference (records, unlike arrays, cost no reference counting
per call, which doubled the speed). Hands are uint64 card masks (card ``c`` =
bit ``c``, core/cards.py), the stock is an array of card codes drawn from the front
(``drawn`` cards gone; its last card lies under it), the round on the table is three
masks. A state always waits for one decision of ``seat`` (``phase`` says which kind)
or is over (``phase == OVER``); every automatic event (refills, the M-6 swap, the end
of a round, truncation) has been applied. The API:

- ``deal(s, params, key, u, perm, count)``: game ``key``'s deal, then the first decision;
- ``to_act(s)``: the seat whose decision it is, -1 when the game is over;
- ``choose(s, params, policies, move, work)``: the decision of the seat to act, from its
  **view** only (own hand, the table, trump, stock size, the cards shown; never another hand);
- ``apply(s, params, move)``: make the decision, then run the game to the next one;
- ``is_legal(s, params, move)``: whether a decision is one the rules allow;
- ``copy_state(dst, src)`` (into a 1-element array), ``play_out(s, params, policies, move, work)``
  (to the end).

A decision is a ``MOVE`` record: ``cards`` (an opening, an addition, a give-back of
M-12, or the defender's own cards of M-14) and ``killer[a]`` (the card that kills
attack card ``a`` in a defence, -1: left unkilled). The engine's loop (``run_games``)
is ``deal`` then ``choose``/``apply`` until the game is over; nothing else.

Rules and players reach numba as a ``PARAMS`` record ``p`` (``make_params(...)[0]``), seat
policies as a policy table (``compiled_policies.table``: one int64 row per seat, its code and
``mc``'s parameters). Per-decision functions allocate nothing: scratch is passed in (a ``WORK``
record), so they could be compiled for a GPU with numba's CUDA target (one thread per game,
``STATE`` records in device memory).

``mc`` (``search``, specified in ``seating.MonteCarloPolicy``) plays its candidates out on
copies of the state in worlds that deal the cards its seat cannot see again; for that the
state holds what a seat's view needs: ``known[p]``, the cards publicly known to be in seat
``p``'s hand (picked up from the table, taken back after an over-play, the turned card taken
by the trump-two swap, the card under the stock drawn last), the discard pile, the table,
the addition step's cards, hand sizes, the stock size and the card under the stock. The
reference engine's ``mc`` decides on ``state_from`` of its position (``decide_from``).
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit, learned, repetition, shedding
from cardsim.core.cards import FRENCH52
from cardsim.core.jit import ONE, U, ZERO, bit, fold, lowest, njit, popcount
from cardsim.core.search import MonteCarlo
from cardsim.games.moska import compiled_policies as pol
from cardsim.games.moska import learned_features as feat
from cardsim.games.moska import reference
from cardsim.games.moska.cards import pair_ranks, rank_cards, rank_set
from cardsim.games.moska.learned import warn_other_rules
from cardsim.games.moska.policies import FORBID_CONTINUATION, FORBID_SELF_ATTACK, FORBID_SWAP
from cardsim.games.moska.reference import NO_CAP, TRUMP_TWO_RANK
from cardsim.games.moska.rules import DECK_SIZE, MoskaRules

MAX_PLAYERS = 8
RANKS = FRENCH52.n_ranks
KILL = np.array(reference.KILL, dtype=np.uint64)
"""``KILL[t, a]``: mask of the cards that kill card ``a`` when suit ``t`` is trump (M-10)."""

OPEN, DEFEND, ADD, GIVE_BACK, OVER = 0, 1, 2, 3, 4
"""Phases: the kind of decision a state waits for (M-15), or the game is over."""

STATE = np.dtype([
    ("key", np.uint64),
    ("hands", np.uint64, (MAX_PLAYERS,)),
    ("known", np.uint64, (MAX_PLAYERS,)),
    ("stock", np.int8, (DECK_SIZE,)),
    ("stock_size", np.int64),
    ("drawn", np.int64),
    ("trump", np.int64),
    ("turned", np.int64),
    ("discard", np.uint64),
    ("attack", np.uint64),
    ("unkilled", np.uint64),
    ("kills", np.uint64),
    ("start_hand", np.int64),
    ("gone", np.int64),
    ("attacker", np.int64),
    ("defender", np.int64),
    ("phase", np.int64),
    ("seat", np.int64),
    ("added", np.uint64, (MAX_PLAYERS,)),
    ("step_room", np.int64),
    ("step_allowed", np.uint64),
    ("adder", np.int64),
    ("excess", np.int64),
    ("out", np.int64),
    ("finish", np.int64),
    ("n_out", np.int64),
    ("turns", np.int64),
    ("rounds", np.int64),
    ("swaps", np.int64),
    ("overplays", np.int64),
    ("pickups", np.int64),
    ("self_attacks", np.int64),
    ("loser", np.int64),
    ("truncated", np.bool_),
    ("barred", np.uint64, (MAX_PLAYERS,)),
    ("reads", np.bool_),
    ("forbid", np.int64, (MAX_PLAYERS,)),
    ("seen", np.uint64, (repetition.WINDOW,)),
    ("n_seen", np.int64),
    ("epoch", np.int64),
    ("position", np.uint64, (1 + MAX_PLAYERS,)),
    ("first", np.uint64, (1 + MAX_PLAYERS,)),
])
"""One game. ``stock[drawn:stock_size]`` is the stock, front first; ``attack``/``unkilled``/``kills``
the round's table; ``gone`` the defender's cards that left their hand this round; ``added``,
``step_room``, ``step_allowed``, ``adder`` the addition step under way (M-11, M-12; added cards stay
in their owners' hands until every adder has chosen), ``excess`` the cards to give back;
``out`` a bitmask of seats out (M-18), ``finish`` their order packed (the ``j``-th seat out,
plus one, in bits ``4j .. 4j+3``); ``barred[q]`` the cards seat ``q``'s choices since its last draw say it
does not hold, read as greedy's (``reads.py``), kept only while ``reads`` (a seat's ``mc`` deals its worlds
from them); ``forbid[q]`` seat ``q``'s forbid mask (``policies.FORBID``, set by ``seat_forbids``: ``deal`` keeps
it); ``seen``, ``n_seen``, ``epoch``, ``position``, ``first``: the positions the last rounds began in with
the stock empty (M-23, ``repetition.FIELDS``; a position's words: the attacker, then every hand); the rest are
the record's counters."""

MOVE = np.dtype([("cards", np.uint64), ("killer", np.int8, (DECK_SIZE,))])
"""One decision (see the module docstring)."""

FULL_DECK = np.uint64((1 << DECK_SIZE) - 1)
MAX_CANDIDATES = 1 + DECK_SIZE + RANKS + 1
"""A bound on ``mc``'s candidates: greedy's, then an opening's single cards, rank groups and all non-trump
groups (the longest list; an addition has at most 57, a defence 4, a give-back 2)."""

WORK = np.dtype([
    ("u", np.uint64, (DECK_SIZE,)), ("perm", np.int64, (DECK_SIZE,)), ("count", np.int64, (jit.BUCKETS + 1,)),
    ("hidden", np.int64, (DECK_SIZE,)), ("candidates", MOVE, (MAX_CANDIDATES,)),
    ("score", np.int64, (MAX_CANDIDATES,)), ("move", MOVE, (1,)), ("worlds", STATE, (2,)),
    ("play", MOVE, (MAX_CANDIDATES,)), ("features", np.int64, (feat.N,)), ("kept", np.int64, (feat.N_KEPT,)),
], align=True)
"""Scratch of one game loop (``new_work``): the deal's draws and permutation (``u``, ``perm``); for ``mc``
(``search``) the bucket counts of a world's permutation, the hidden cards, the candidates and their
scores, a play-out's move, a world and a play-out state; for ``learned`` (``learned_move``, also inside
``mc``'s play-outs) its candidates and one candidate's features."""


def new_work() -> np.ndarray:
    """A ``WORK`` record (a 1-element array)."""
    return np.zeros(1, WORK)

PARAMS = np.dtype([(name, np.int64) for name in (
    "players", "hand_size", "cap", "cap_to_hand", "cap_unkilled", "kill_ranks", "swap", "self_attack",
    "leave_limit", "closes", "excess", "max_turns", "repetition")])
"""The rules and the player count (``make_params``): ``cap`` is 52 when ``attack_cap`` is None;
``cap_unkilled``: ``cap_mode="unkilled"``; ``kill_ranks``: ``continuation="attack_and_kill"``;
``leave_limit``: TARAKI's six cards of M-14 (52: no limit); ``closes``: ``defender_closes``;
``excess``: ``excess_return`` as ``BY_DEFENDER``, ``BY_ATTACKER`` or ``BY_LAST``; ``repetition``: M-23."""
BY_DEFENDER, BY_ATTACKER, BY_LAST = 0, 1, 2
EXCESS_CODES = {"defender": BY_DEFENDER, "attacker": BY_ATTACKER, "last": BY_LAST}


def make_params(rules: MoskaRules, players: int) -> np.ndarray:
    """The 1-element ``PARAMS`` array of a rules object and a player count."""
    rules.check_players(players)
    p = np.zeros(1, dtype=PARAMS)
    p["players"], p["hand_size"] = players, rules.hand_size
    p["cap"] = NO_CAP if rules.attack_cap is None else rules.attack_cap
    p["cap_to_hand"] = rules.cap_to_defender_hand
    p["cap_unkilled"] = rules.cap_mode == "unkilled"
    p["kill_ranks"] = rules.continuation == "attack_and_kill"
    p["swap"] = rules.trump_two_swap
    p["self_attack"] = rules.defender_self_attack
    p["leave_limit"] = reference.leave_limit(rules)
    p["closes"] = rules.defender_closes
    p["excess"] = EXCESS_CODES[rules.excess_return]
    p["max_turns"] = rules.max_turns
    p["repetition"] = rules.repetition
    return p


# --- the table: room, allowed ranks, legal shapes (M-8 … M-11, M-14) -------------------------

@njit(cache=True)
def room_of(p: np.void, start_hand: int, attack: np.uint64, defender_hand: np.uint64, unkilled: np.uint64) -> int:
    """M-9: attack cards the cap still allows (``cap_mode``, ``cap_to_defender_hand``)."""
    if p.cap_unkilled:
        hand, used = popcount(defender_hand), popcount(unkilled)
    else:
        hand, used = start_hand, popcount(attack)
    limit = min(p.cap, hand) if p.cap_to_hand else p.cap
    return max(0, limit - used)


@njit(cache=True)
def allowed_of(p: np.void, attack: np.uint64, kills: np.uint64) -> np.uint64:
    """M-11: cards of the ranks that may be added now (``continuation``)."""
    return rank_cards(rank_set(attack | kills if p.kill_ranks else attack))


@njit(cache=True)
def room(s: np.void, p: np.void) -> int:
    return room_of(p, s.start_hand, s.attack, s.hands[s.defender], s.unkilled)


@njit(cache=True)
def allowed(s: np.void, p: np.void) -> np.uint64:
    return allowed_of(p, s.attack, s.kills)


@njit(cache=True)
def is_legal_opening(cards: np.uint64, hand: np.uint64, room_: int) -> bool:
    """M-8: one card, or a union of same-rank groups of at least two cards; M-9: within the room."""
    n = popcount(cards)
    if cards == ZERO or cards & ~hand != ZERO or n > room_:
        return False
    return n == 1 or rank_set(cards) & ~pair_ranks(cards) == ZERO


@njit(cache=True)
def self_attack_killers(p: np.void, trump: int, hand: np.uint64, attack: np.uint64, kills: np.uint64,
                        unkilled: np.uint64, start_hand: int, gone: int, card: int) -> np.uint64:
    """M-14: the killers with which the defender holding ``hand`` may self-attack ``card`` now (0: not legal)."""
    if not p.self_attack or hand & bit(card) == ZERO or allowed_of(p, attack, kills) & bit(card) == ZERO:
        return ZERO
    if room_of(p, start_hand, attack, hand, unkilled) < 2:
        return ZERO  # the table is full or one short: no "virpiminen" (TARAKI glossary)
    if gone + 2 > p.leave_limit:
        return ZERO  # the pair would break the six-card limit (TARAKI 3.5.3)
    if p.cap_unkilled and popcount(hand) - 2 < popcount(unkilled):
        return ZERO  # M-9: the defender's hand must still cover the unkilled cards
    return KILL[trump, card] & hand & ~bit(card)


# --- seats, stock, swap, end (M-6, M-7, M-13, M-16, M-18 … M-21) ---------------------------

@njit(cache=True)
def next_active(s: np.void, p: np.void, seat: int) -> int:
    """M-7, M-16: the next seat clockwise after ``seat`` that is not out (``seat`` if none)."""
    for step in range(1, p.players + 1):
        nxt = (seat + step) % p.players
        if not s.out >> nxt & 1:
            return nxt
    return seat


@njit(cache=True)
def take_cards(s: np.void, seat: int, cards: np.uint64) -> None:
    """``cards`` leave the hand of ``seat`` (to the table)."""
    s.hands[seat] &= ~cards
    s.known[seat] &= ~cards


@njit(cache=True)
def refill(s: np.void, p: np.void, seat: int) -> None:
    """M-13: draw up to ``hand_size`` from the stock front; M-18: no cards and no stock = out.

    M-6: right after drawing the trump 2, before the next card, the drawer swaps it if possible."""
    two = s.trump * RANKS + TRUMP_TWO_RANK
    n = popcount(s.hands[seat])
    if s.drawn < s.stock_size and n < p.hand_size:
        s.barred[seat] = ZERO  # unseen cards come in: what its choices said of its hand no longer holds
    while s.drawn < s.stock_size and n < p.hand_size:
        card = s.stock[s.drawn]
        s.hands[seat] |= bit(card)
        s.drawn += 1
        n += 1
        if s.drawn == s.stock_size:
            s.known[seat] |= bit(card)  # the card under the stock was face up
        if card == two and can_swap(s, p, seat):
            swap_trump_two(s, seat)
    if s.drawn == s.stock_size and s.hands[seat] == ZERO and not s.out >> seat & 1:
        s.out |= 1 << seat
        s.finish |= (seat + 1) << (4 * s.n_out)
        s.n_out += 1


@njit(cache=True)
def can_swap(s: np.void, p: np.void, seat: int) -> bool:
    """M-6: the trump 2 may replace the turned card while that card is still under the stock."""
    two = s.trump * RANKS + TRUMP_TWO_RANK
    return (p.swap != 0 and s.drawn < s.stock_size and s.stock[s.stock_size - 1] == s.turned
            and s.hands[seat] & bit(two) != ZERO and not s.forbid[seat] & FORBID_SWAP)


@njit(cache=True)
def swap_trump_two(s: np.void, seat: int) -> None:
    """M-6: the holder's trump 2 goes under the stock, the turned card to their hand."""
    two = s.trump * RANKS + TRUMP_TWO_RANK
    take_cards(s, seat, bit(two))
    s.hands[seat] |= bit(s.turned)
    s.known[seat] |= bit(s.turned)
    s.stock[s.stock_size - 1] = two
    s.swaps += 1


@njit(cache=True)
def game_over(s: np.void, p: np.void) -> bool:
    """M-19, M-20: with the stock empty and at most one seat holding cards the game is over (then True).

    The defender also holds the unkilled cards on the table (theirs to pick up, M-15)."""
    if s.drawn < s.stock_size:
        return False
    holder, holders = -1, 0
    for q in range(p.players):
        if s.hands[q] != ZERO or (q == s.defender and s.unkilled != ZERO):
            holder = q
            holders += 1
    if holders > 1:
        return False
    s.loser = holder
    s.phase = OVER
    return True


# Steps: what the game does next between two decisions. A phase function returns the next step
# instead of calling it, and ``advance`` runs steps until a decision is awaited (WAIT) or the game
# is over: no recursion (the rounds loop through these steps), so the code also suits a GPU.
WAIT, BEGIN_ROUND, BEGIN_DEFENCE, END_DEFENCE, BEGIN_ADDITIONS, END_ADDITIONS, PLACE_ADDITIONS, END_ROUND = range(8)


@njit(cache=True)
def await_decision(s: np.void, p: np.void, phase: int, seat: int) -> int:
    """The game waits for a decision of ``seat``, unless M-21 truncates it now."""
    if s.turns == p.max_turns:
        s.truncated = True
        s.phase = OVER
    else:
        s.phase, s.seat = phase, seat
    return WAIT


# --- the phases of a round (M-7 … M-17) ------------------------------------------------------

@njit(cache=True)
def repeats(s: np.void, p: np.void) -> bool:
    """M-23: the round about to begin, the stock empty, would begin in a position (the attacker, every hand)
    one of the last 64 did (``repetition.repeats``)."""
    if not p.repetition or stock_left(s) != 0 or s.turns >= p.max_turns:
        return False
    s.position[0] = s.attacker
    s.position[1:1 + p.players] = s.hands[:p.players]
    return repetition.repeats(s, 1 + p.players, popcount(s.discard))


@njit(cache=True)
def begin_round(s: np.void, p: np.void) -> int:
    """M-7: a round begins: the defender is the next seat in play; the attacker opens. M-23: unless it
    would repeat; then the game stops."""
    if repeats(s, p):
        s.truncated = True
        s.phase = OVER
        return WAIT
    s.rounds += 1
    s.defender = next_active(s, p, s.attacker)
    s.attack = s.unkilled = s.kills = ZERO
    s.gone = 0
    s.start_hand = popcount(s.hands[s.defender])
    return await_decision(s, p, OPEN, s.attacker)


@njit(cache=True)
def open_round(s: np.void, p: np.void, cards: np.uint64) -> int:
    """M-8: the attacker opens with ``cards``; M-13: refills; then the end check and the defence."""
    take_cards(s, s.attacker, cards)
    s.attack |= cards
    s.unkilled |= cards
    refill(s, p, s.attacker)
    return WAIT if game_over(s, p) else BEGIN_DEFENCE


@njit(cache=True)
def begin_defence(s: np.void, p: np.void) -> int:
    """M-15: a defence step: a decision of the defender, or none when they hold no card."""
    if s.hands[s.defender] == ZERO:
        return END_DEFENCE
    return await_decision(s, p, DEFEND, s.defender)


@njit(cache=True)
def kill(s: np.void, attack: int, killer: int) -> None:
    """M-10: the defender kills ``attack`` with ``killer`` from hand."""
    take_cards(s, s.defender, bit(killer))
    s.unkilled &= ~bit(attack)
    s.kills |= bit(killer)
    s.gone += 1


@njit(cache=True)
def self_attack(s: np.void, card: int, killer: int) -> None:
    """M-14: the defender puts ``card`` on the table as an attack card and kills it with ``killer``."""
    take_cards(s, s.defender, bit(card) | bit(killer))
    s.attack |= bit(card)
    s.kills |= bit(killer)
    s.gone += 2
    s.self_attacks += 1


@njit(cache=True)
def defend(s: np.void, m: np.void) -> int:
    """M-15 defence step: kills in ascending attack-card order (M-10), then own cards ascending (M-14)."""
    rest = s.unkilled
    while rest != ZERO:
        a = lowest(rest)
        rest &= rest - ONE
        if m.killer[a] >= 0:
            kill(s, a, m.killer[a])
    rest = m.cards
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        self_attack(s, c, m.killer[c])
    return END_DEFENCE


@njit(cache=True)
def end_defence(s: np.void, p: np.void) -> int:
    """After a defence step the round ends when the defender is out (M-15, M-18) or closes (M-14b: all
    killed, ``defender_closes``); otherwise the others may add (an empty-handed defender too while the
    stock lasts: they pick the additions up)."""
    if (s.hands[s.defender] == ZERO and s.drawn == s.stock_size) or (p.closes and s.unkilled == ZERO):
        return END_ROUND
    return BEGIN_ADDITIONS


@njit(cache=True)
def begin_additions(s: np.void, p: np.void) -> int:
    """M-11: an addition step: its room and allowed ranks are fixed now; the adders decide in turn."""
    s.step_room = room(s, p)
    s.step_allowed = allowed(s, p)
    for q in range(p.players):
        s.added[q] = ZERO
    return next_adder(s, p, 0)


@njit(cache=True)
def next_adder(s: np.void, p: np.void, start: int) -> int:
    """The next adder clockwise from the attacker (``start`` seats on): a seat other than the defender,
    in play, holding a card of an allowed rank while there is room; after the last, the over-play."""
    for o in range(start, p.players):
        q = (s.attacker + o) % p.players
        if (q != s.defender and not s.out >> q & 1 and s.step_room >= 1
                and s.hands[q] & s.step_allowed != ZERO):
            s.adder = o
            return await_decision(s, p, ADD, q)
    return END_ADDITIONS


@njit(cache=True)
def add(s: np.void, p: np.void, cards: np.uint64) -> int:
    """M-11: the adder chooses ``cards`` (they stay in hand until every adder has chosen)."""
    s.added[s.seat] = cards
    return next_adder(s, p, s.adder + 1)


@njit(cache=True)
def end_additions(s: np.void, p: np.void) -> int:
    """M-12: cards over the room go back (``excess_return``), by a decision or whole; the rest stay."""
    total = 0
    for q in range(p.players):
        total += popcount(s.added[q])
    excess = total - s.step_room
    if excess > 0:
        s.excess = excess
        if p.excess != BY_LAST:  # the defender or the round's attacker (even when out) chooses
            return await_decision(s, p, GIVE_BACK, s.defender if p.excess == BY_DEFENDER else s.attacker)
        for o in range(p.players - 1, -1, -1):  # the last over-players take theirs back first
            q = (s.attacker + o) % p.players
            mine = s.added[q]
            if popcount(mine) > s.excess:
                return await_decision(s, p, GIVE_BACK, q)  # only part: the adder chooses
            s.known[q] |= mine
            s.added[q] = ZERO
            s.excess -= popcount(mine)
            if s.excess == 0:
                break
        s.overplays += 1  # the whole excess is back
    return PLACE_ADDITIONS


@njit(cache=True)
def give_back(s: np.void, p: np.void, back: np.uint64) -> int:
    """M-12: the chosen cards go back to their owners' hands; the rest are placed."""
    for q in range(p.players):
        s.known[q] |= s.added[q] & back
        s.added[q] &= ~back
    s.overplays += 1  # counted once the excess is back: a game truncated at this decision sent none back
    return PLACE_ADDITIONS


@njit(cache=True)
def place_additions(s: np.void, p: np.void) -> int:
    """The added cards that stay go on the table; M-13: their owners refill clockwise from the attacker;
    then the end check; the defender defends again, or the round ends when no card stayed (M-15)."""
    placed = False
    for o in range(p.players):
        q = (s.attacker + o) % p.players
        if s.added[q] != ZERO:
            take_cards(s, q, s.added[q])
            s.attack |= s.added[q]
            s.unkilled |= s.added[q]
            placed = True
    for o in range(p.players):
        q = (s.attacker + o) % p.players
        if s.added[q] != ZERO:
            s.added[q] = ZERO
            refill(s, p, q)
    if game_over(s, p):
        return WAIT
    return BEGIN_DEFENCE if placed else END_ROUND


@njit(cache=True)
def end_round(s: np.void, p: np.void) -> int:
    """M-16 (all killed: discard, the defender attacks next) or M-17 (pick up, the attack passes on)."""
    d = s.defender
    s.discard |= (s.attack | s.kills) & ~s.unkilled
    picked = s.unkilled
    s.hands[d] |= picked
    s.known[d] |= picked
    s.attack = s.unkilled = s.kills = ZERO
    if picked != ZERO:
        s.pickups += 1
    refill(s, p, d)
    s.attacker = next_active(s, p, d) if picked != ZERO or s.out >> d & 1 else d
    return WAIT if game_over(s, p) else BEGIN_ROUND


@njit(cache=True)
def advance(s: np.void, p: np.void, step: int) -> None:
    """Run the game's automatic steps from ``step`` until a decision is awaited or the game is over."""
    while step != WAIT:
        if step == BEGIN_ROUND:
            step = begin_round(s, p)
        elif step == BEGIN_DEFENCE:
            step = begin_defence(s, p)
        elif step == END_DEFENCE:
            step = end_defence(s, p)
        elif step == BEGIN_ADDITIONS:
            step = begin_additions(s, p)
        elif step == END_ADDITIONS:
            step = end_additions(s, p)
        elif step == PLACE_ADDITIONS:
            step = place_additions(s, p)
        else:
            step = end_round(s, p)


# --- the state API --------------------------------------------------------------------------

@njit(cache=True)
def deal(s: np.void, p: np.void, key: np.uint64, u: np.ndarray, perm: np.ndarray, count: np.ndarray) -> None:
    """M-4, M-5: the deal of the DECISION PROTOCOL from ``permutation(key, DEAL, 52)`` (``u``: 52 uint64,
    ``perm``: 52 int64, ``count``: ``jit.BUCKETS + 1`` int64 of scratch); then the game waits for the
    first opening (M-7)."""
    jit.permutation_into(key, jit.DEAL, 0, DECK_SIZE, u, perm, count)
    players, dealt = p.players, p.players * p.hand_size
    s.key = key
    for q in range(MAX_PLAYERS):
        s.hands[q] = s.known[q] = s.added[q] = s.barred[q] = ZERO
    for j in range(dealt):
        s.hands[(1 + j) % players] |= bit(perm[j])
    s.turned = perm[dealt]
    s.trump = s.turned // RANKS
    s.stock_size = DECK_SIZE - dealt
    for j in range(s.stock_size - 1):
        s.stock[j] = perm[dealt + 1 + j]
    s.stock[s.stock_size - 1] = s.turned
    s.drawn = 0
    s.discard = s.attack = s.unkilled = s.kills = s.step_allowed = ZERO
    s.start_hand = s.gone = s.defender = s.step_room = s.adder = s.excess = 0
    s.attacker = 1 % players
    s.out = s.finish = s.n_out = 0
    s.turns = s.rounds = s.swaps = s.overplays = s.pickups = s.self_attacks = 0
    s.loser = -1
    s.truncated = False
    repetition.forget(s)
    for q in range(players):  # M-6: the seat dealt the trump 2 swaps at once
        if can_swap(s, p, q):
            swap_trump_two(s, q)
    advance(s, p, BEGIN_ROUND)


@njit(cache=True)
def to_act(s: np.void) -> int:
    """The seat whose decision the game waits for; -1 when it is over."""
    return -1 if s.phase == OVER else s.seat


@njit(cache=True)
def stock_left(s: np.void) -> int:
    return s.stock_size - s.drawn


@njit(cache=True)
def choose_defence(s: np.void, p: np.void, code: int, head: np.uint64, m: np.void) -> None:
    """The defender's policy, asked as the protocol says: ``kill`` for each unkilled card ascending
    while the six-card limit allows, then ``self_attack`` for each own card that may be attacked at
    that moment, ascending (M-14)."""
    hand, attack, kills, unkilled, gone = s.hands[s.defender], s.attack, s.kills, s.unkilled, s.gone
    left = stock_left(s)
    rest = unkilled
    while rest != ZERO:
        a = lowest(rest)
        rest &= rest - ONE
        killers = KILL[s.trump, a] & hand
        may_kill = killers != ZERO and gone < p.leave_limit  # M-14: TARAKI's six cards
        k = pol.kill_move(code, head, a, killers, s.trump, left) if may_kill else -1
        m.killer[a] = k
        if k >= 0:
            hand &= ~bit(k)
            unkilled &= ~bit(a)
            kills |= bit(k)
            gone += 1
    m.cards = ZERO
    if not p.self_attack or s.forbid[s.defender] & FORBID_SELF_ATTACK:
        return
    above = ~ZERO  # own cards not yet looked at
    while True:
        cands = hand & allowed_of(p, attack, kills) & above
        if cands == ZERO:
            return
        c = lowest(cands)
        above = ~ZERO << U(c + 1)
        killers = self_attack_killers(p, s.trump, hand, attack, kills, unkilled, s.start_hand, gone, c)
        if killers == ZERO:
            continue
        k = pol.self_attack_move(code, head, c, killers, s.trump)
        if k >= 0:
            hand &= ~(bit(c) | bit(k))
            attack |= bit(c)
            kills |= bit(k)
            gone += 2
            m.cards |= bit(c)
            m.killer[c] = k


@njit(cache=True)
def offered(s: np.void) -> np.uint64:
    """M-11: the cards the adder to act may add: its cards of the step's allowed ranks (``forbid=continuation``:
    of the round's attack ranks too)."""
    cards = s.hands[s.seat] & s.step_allowed
    if s.forbid[s.seat] & FORBID_CONTINUATION:
        cards &= rank_cards(rank_set(s.attack))
    return cards


@njit(cache=True)
def seat_forbids(s: np.void, policies: np.ndarray) -> None:
    """Each seat's forbid mask from the policy table into ``s.forbid`` (``deal`` keeps it)."""
    for q in range(policies.shape[0]):
        s.forbid[q] = policies[q, pol.FORBID]


@njit(cache=True)
def give_back_pool(s: np.void, p: np.void) -> np.uint64:
    """M-12: the cards the seat to act chooses from: every added card (the defender, the attacker), or its own."""
    if p.excess != BY_LAST:
        pool = ZERO
        for q in range(p.players):
            pool |= s.added[q]
        return pool
    return s.added[s.seat]


@njit(cache=True)
def respond(s: np.void, p: np.void, code: int, m: np.void) -> None:
    """Write into ``m`` the decision of the seat to act by the search-free policy ``code`` (random, greedy),
    from its view."""
    seat = s.seat
    head = fold(fold(s.key, jit.POLICY), s.turns) if code == pol.RANDOM else ZERO  # greedy draws nothing
    if s.phase == OPEN:
        m.cards = pol.open_move(code, head, s.hands[seat], s.trump, room(s, p))
    elif s.phase == DEFEND:
        choose_defence(s, p, code, head, m)
    elif s.phase == ADD:
        m.cards = pol.add_move(code, head, offered(s), s.step_room, s.trump, stock_left(s))
    elif s.phase == GIVE_BACK:
        m.cards = pol.give_back_move(code, head, give_back_pool(s, p), s.excess, s.trump)


@njit(cache=True)
def decide(s: np.void, p: np.void, code: int, row: np.ndarray, m: np.void, w: np.void) -> None:
    """Write into ``m`` the decision of the seat to act by the search-free policy ``code`` (random, greedy,
    or learned with the weights of the policy table row ``row``), from its view."""
    if code == pol.LEARNED:
        learned_move(s, p, row[pol.WEIGHTS:], m, w)
    else:
        respond(s, p, code, m)


@njit(cache=True)
def choose(s: np.void, p: np.void, policies: np.ndarray, m: np.void, w: np.void) -> None:
    """Write into ``m`` the decision of the seat to act by its row of the policy table
    (``compiled_policies.table``), from its view; ``w``: a ``WORK`` record (``mc``'s and ``learned``'s
    scratch)."""
    row = policies[s.seat]
    if row[pol.CODE] == pol.MC:
        search(s, p, row, m, w)
    else:
        decide(s, p, row[pol.CODE], row, m, w)


# --- reads: what a choice says of its seat's hand, read as greedy's (reads.py specifies them) ----

@njit(cache=True)
def below(card: int) -> np.uint64:
    """The cards of code below ``card``."""
    return bit(card) - ONE


@njit(cache=True)
def read_opening(cards: np.uint64, trump: int) -> np.uint64:
    if popcount(cards) != 1:
        return ZERO
    c = lowest(cards)
    trumps = pol.SUIT_MASK[trump]
    plain = FULL_DECK & ~trumps
    if c // RANKS == trump:
        return plain | (trumps & below(c))
    return plain & (rank_cards(bit(c % RANKS) - ONE) | (pol.RANK_MASK[c % RANKS] & below(c)))


@njit(cache=True)
def read_kill(attack: int, killer: int, killers_of: np.uint64, trump: int, left: int) -> np.uint64:
    trumps = pol.SUIT_MASK[trump]
    plain = killers_of & ~trumps
    if killer >= 0:
        if killer // RANKS == trump:
            return plain | (killers_of & trumps & below(killer))
        return plain & below(killer)
    if attack // RANKS != trump and left > 0:
        return plain | (trumps & pol.LOW)
    return killers_of


@njit(cache=True)
def read_addition(cards: np.uint64, allowed_: np.uint64, room_: int, trump: int, left: int) -> np.uint64:
    eligible = allowed_ & ~pol.SUIT_MASK[trump]
    if left > 0:
        eligible &= pol.LOW
    if cards & ~eligible != ZERO:
        return ZERO
    if popcount(cards) < room_:
        return eligible & ~cards
    return eligible & ~cards & below(jit.highest(cards))


@njit(cache=True)
def read(s: np.void, p: np.void, m: np.void) -> np.uint64:
    """The cards the decision ``m`` of the seat to act says it does not hold (``reads.py``), from what the
    whole table sees: openings of one card, each kill or its refusal while the six-card limit allows a kill
    (M-14), additions; self-attacks and give-backs are not read."""
    if s.phase == OPEN:
        return read_opening(m.cards, s.trump)
    if s.phase == ADD:
        return read_addition(m.cards, s.step_allowed, s.step_room, s.trump, stock_left(s))
    bar = ZERO
    if s.phase == DEFEND:
        gone = s.gone
        rest = s.unkilled
        while rest != ZERO and gone < p.leave_limit:
            a = lowest(rest)
            rest &= rest - ONE
            k = m.killer[a]
            bar |= read_kill(a, k, KILL[s.trump, a], s.trump, stock_left(s))
            if k >= 0:
                gone += 1
    return bar


@njit(cache=True)
def apply(s: np.void, p: np.void, m: np.void) -> None:
    """Make the decision ``m`` of the seat to act, then run the game to its next decision (or its end)."""
    if s.phase == OVER:
        return
    if s.reads:
        s.barred[s.seat] |= read(s, p, m)
    s.turns += 1
    if s.phase == OPEN:
        step = open_round(s, p, m.cards)
    elif s.phase == DEFEND:
        step = defend(s, m)
    elif s.phase == ADD:
        step = add(s, p, m.cards)
    else:
        step = give_back(s, p, m.cards)
    advance(s, p, step)


@njit(cache=True)
def is_legal(s: np.void, p: np.void, m: np.void) -> bool:
    """Whether ``m`` is a decision the rules allow the seat to act (M-8 … M-12, M-14)."""
    hand = s.hands[s.seat]
    if s.phase == OPEN:
        return is_legal_opening(m.cards, hand, room(s, p))
    if s.phase == ADD:
        return m.cards & ~(hand & s.step_allowed) == ZERO and popcount(m.cards) <= s.step_room
    if s.phase == GIVE_BACK:
        return m.cards & ~give_back_pool(s, p) == ZERO and popcount(m.cards) == s.excess
    if s.phase != DEFEND:
        return False
    attack, kills, unkilled, gone = s.attack, s.kills, s.unkilled, s.gone
    rest = unkilled
    while rest != ZERO:
        a = lowest(rest)
        rest &= rest - ONE
        k = m.killer[a]
        if k >= 0:
            if KILL[s.trump, a] & hand & bit(k) == ZERO or gone >= p.leave_limit:
                return False
            hand &= ~bit(k)
            unkilled &= ~bit(a)
            kills |= bit(k)
            gone += 1
    rest = m.cards
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        k = m.killer[c]
        killers = self_attack_killers(p, s.trump, hand, attack, kills, unkilled, s.start_hand, gone, c)
        if k < 0 or killers & bit(k) == ZERO:
            return False
        hand &= ~(bit(c) | bit(k))
        attack |= bit(c)
        kills |= bit(k)
        gone += 2
    return True


@njit(cache=True)
def copy_state(dst: np.ndarray, src: np.void) -> None:
    """The state ``src`` into the 1-element ``STATE`` array ``dst`` (play ``dst[0]`` on; ``src`` is untouched)."""
    dst[0] = src


@njit(cache=True)
def play_out(s: np.void, p: np.void, policies: np.ndarray, m: np.void, w: np.void) -> None:
    """Play the game of ``s`` to its end, seat ``q`` deciding by row ``q`` of the policy table (``m``: a
    ``MOVE``, ``w``: a ``WORK`` record of scratch)."""
    while s.phase != OVER:
        choose(s, p, policies, m, w)
        apply(s, p, m)


# --- mc: determinized Monte Carlo (docs/design.md; seating.MonteCarloPolicy specifies it) --

@njit(cache=True)
def same_defence(s: np.void, x: np.void, y: np.void) -> bool:
    """Whether two defences of the state's defender are the same decision (kills and self-attacks)."""
    if x.cards != y.cards:
        return False
    rest = s.unkilled | x.cards
    while rest != ZERO:
        a = lowest(rest)
        rest &= rest - ONE
        if x.killer[a] != y.killer[a]:
            return False
    return True


@njit(cache=True)
def defence_candidates(s: np.void, p: np.void, out: np.ndarray) -> int:
    """The defences after greedy's (``out[0]``): each defence style of ``compiled_policies``
    (M-10, M-14), duplicates dropped. How many candidates in all."""
    m = 1
    for style in (pol.ALL_KILLS, pol.PLAIN_KILLS, pol.GREEDY_KILLS):
        choose_defence(s, p, style, ZERO, out[m])
        new = True
        for i in range(m):
            if same_defence(s, out[i], out[m]):
                new = False
                break
        if new:
            m += 1
    return m


@njit(cache=True)
def decision_candidates(s: np.void, p: np.void, out: np.ndarray) -> int:
    """The candidates of the seat to act's decision kind into ``out`` (``MOVE`` records): greedy's decision
    first, then those of ``seating.MonteCarloPolicy``'s list, duplicates dropped. How many."""
    respond(s, p, pol.GREEDY, out[0])
    if s.phase == OPEN:
        return pol.opening_candidates(out, 1, s.hands[s.seat], s.trump, room(s, p))
    if s.phase == DEFEND:
        return defence_candidates(s, p, out)
    if s.phase == ADD:
        return pol.addition_candidates(out, 1, offered(s), s.step_room, s.trump)
    return pol.give_back_candidates(out, 1, give_back_pool(s, p), s.excess, s.trump)


@njit(cache=True)
def shown(s: np.void, q: int) -> np.uint64:
    """The cards of seat ``q``'s hand that everyone has seen: its known cards and its additions of the step
    under way (M-12: they wait in the hand until the over-play is settled)."""
    return s.known[q] | s.added[q]


@njit(cache=True)
def seen_by(s: np.void, p: np.void, seat: int) -> np.uint64:
    """The cards ``seat`` sees placed: its hand, the discard, the table, the cards shown in the other hands."""
    seen = s.hands[seat] | s.discard | s.attack | s.kills
    for q in range(p.players):
        seen |= shown(s, q)
    return seen


@njit(cache=True)
def trump_two_in_stock(s: np.void, p: np.void, seat: int) -> bool:
    """M-6: while the turned card (not the 2) still lies under the stock with the swap on, nobody has held
    the trump 2 (they would have swapped at once): ``seat`` believes it is in the stock, above the turned card,
    unless it sees it placed (a seat forbidden to swap keeps it: its own, or one it has played; a seat so
    forbidden is not known to hold it before)."""
    two = s.trump * RANKS + TRUMP_TWO_RANK
    return (p.swap != 0 and stock_left(s) > 1 and s.stock[s.stock_size - 1] == s.turned and s.turned != two
            and seen_by(s, p, seat) & bit(two) == ZERO)


@njit(cache=True)
def hidden_cards(s: np.void, p: np.void, seat: int, w: np.void) -> int:
    """``w.hidden``: the cards ``seat`` cannot see, in code order, from its view only: the deck less ``seen_by``,
    the card under the stock and the trump 2 while ``trump_two_in_stock``. How many."""
    seen = seen_by(s, p, seat)
    if stock_left(s) > 0:
        seen |= bit(s.stock[s.stock_size - 1])
    if trump_two_in_stock(s, p, seat):
        seen |= bit(s.trump * RANKS + TRUMP_TWO_RANK)
    n = 0
    rest = ~seen & FULL_DECK
    while rest != ZERO:
        w.hidden[n] = lowest(rest)
        rest &= rest - ONE
        n += 1
    return n


@njit(cache=True)
def determinize(world: np.void, p: np.void, seat: int, key: np.uint64, n: int, w: np.void) -> None:
    """World ``key`` of a copy of the searched state: its ``n`` hidden cards (``hidden_cards``) in keyed order
    (the ``DEAL`` permutation of ``key``) fill the other hands after their shown cards, to their sizes, seat
    by seat, each taking the first cards in that order not yet dealt and not in its ``barred`` (the reads;
    where too few are left, the first cards not yet dealt), then the stock front first with the cards left
    in that order (its last card stays); while ``trump_two_in_stock`` the trump 2 takes the stock place
    ``below(draw(key, EXTRA, 0, 0), places)`` from the front. Its game key, for the play-outs' policy draws,
    is ``key``. With no reads (``barred`` all 0) the hands take the order's cards one after another."""
    jit.permutation_into(key, jit.DEAL, 0, n, w.u, w.perm, w.count)
    two_at = -1
    if trump_two_in_stock(world, p, seat):
        two_at = world.drawn + jit.below(jit.draw(key, jit.EXTRA, 0, 0), world.stock_size - 1 - world.drawn)
    dealt = ZERO
    first = 0  # every card before the order's index ``first`` is dealt
    for q in range(p.players):
        if q != seat:
            hand = shown(world, q)
            need = popcount(world.hands[q]) - popcount(hand)
            for bar in (world.barred[q], ZERO):  # the reads first, then as far as the cards go
                i = first
                while need > 0 and i < n:
                    c = bit(w.hidden[w.perm[i]])
                    i += 1
                    if (dealt | bar) & c == ZERO:
                        hand |= c
                        dealt |= c
                        need -= 1
                while first < n and dealt & bit(w.hidden[w.perm[first]]) != ZERO:
                    first += 1
            world.hands[q] = hand
    k = first
    for i in range(world.drawn, world.stock_size - 1):
        if i == two_at:
            world.stock[i] = world.trump * RANKS + TRUMP_TWO_RANK
        else:
            while dealt & bit(w.hidden[w.perm[k]]) != ZERO:
                k += 1
            world.stock[i] = w.hidden[w.perm[k]]
            k += 1
    world.key = key


@njit(cache=True)
def roll_out(s: np.void, p: np.void, row: np.ndarray, m: np.void, w: np.void) -> None:
    """An ``mc`` play-out: the base policy of the policy table row ``row`` in every seat until the game ends."""
    while s.phase != OVER:
        decide(s, p, row[pol.BASE], row, m, w)
        apply(s, p, m)


@njit(cache=True)
def play_worlds(s: np.void, p: np.void, row: np.ndarray, n_worlds: int, n: int, w: np.void,
                scores: np.ndarray) -> None:
    """Add to ``scores[:n]`` the play-outs of the candidates ``w.candidates[:n]`` that the seat to act does not
    lose, in the same ``n_worlds`` worlds (world ``j`` keyed ``jit.world_key(key, turns, j)``), with the base
    policy of ``row`` in every seat. ``row[WORLDS]``: ``UNIFORM`` worlds ignore the reads, ``READS`` worlds meet
    them (``determinize``), ``TRUE_STATE`` (``oracle``) worlds are the state itself under the world's key."""
    seat = s.seat
    mode = row[pol.WORLDS]
    n_hidden = hidden_cards(s, p, seat, w) if mode != pol.TRUE_STATE else 0
    world, trial = w.worlds[0], w.worlds[1]
    for j in range(n_worlds):
        w.worlds[0] = s
        world.reads = False  # the play-outs need no reads
        repetition.forget(world)  # M-23 holds in a play-out from its world on: the game's positions are not the world's
        for q in range(p.players):
            if q != seat:
                world.forbid[q] = 0  # the seat's own restriction holds in its play-outs, not the others'
        if mode == pol.UNIFORM:
            world.barred[:] = ZERO
        if mode == pol.TRUE_STATE:
            world.key = jit.world_key(s.key, s.turns, j)
        else:
            determinize(world, p, seat, jit.world_key(s.key, s.turns, j), n_hidden, w)
        for i in range(n):
            w.worlds[1] = world
            apply(trial, p, w.candidates[i])
            roll_out(trial, p, row, w.move[0], w)
            if trial.loser != seat:
                scores[i] += 1


@njit(cache=True)
def search(s: np.void, p: np.void, row: np.ndarray, m: np.void, w: np.void) -> None:
    """``mc``'s decision for the seat to act (``row``: its policy table row) into ``m``. Before its search
    window, while the stock holds more than ``row[SEARCH_STOCK]`` cards, the decision of its base when the base
    is ``learned``, else greedy's, without a play-out. From then on every candidate (``decision_candidates``)
    played out in the same ``row[DETERMINIZATIONS]`` worlds (``play_worlds``) with the base policy in every
    seat; a play-out scores 1 when the seat does not lose; the highest total wins, ties to the first candidate
    (greedy's). One candidate is taken without a play-out. ``oracle`` (``TRUE_STATE``) with ``greedy`` or
    ``learned`` play-outs (which draw nothing): its worlds are all alike and one is played."""
    if stock_left(s) > row[pol.SEARCH_STOCK]:
        decide(s, p, pol.LEARNED if row[pol.BASE] == pol.LEARNED else pol.GREEDY, row, m, w)
        return
    n_candidates = decision_candidates(s, p, w.candidates)
    best = 0
    if n_candidates > 1:
        w.score[:n_candidates] = 0
        n_worlds = row[pol.DETERMINIZATIONS]
        if row[pol.WORLDS] == pol.TRUE_STATE and row[pol.BASE] != pol.RANDOM:
            n_worlds = 1
        play_worlds(s, p, row, n_worlds, n_candidates, w, w.score)
        best = jit.argmax_first(w.score, n_candidates)
    m.cards = w.candidates[best].cards
    m.killer[:] = w.candidates[best].killer


# --- learned: a scorer over the candidates (seating.LearnedPolicy specifies it) ---------------

@njit(cache=True, inline="always")
def candidate_masks(s: np.void, p: np.void, m: np.void) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The masks ``learned_features.describe`` reads of candidate ``m`` of the seat to act (``spent``, ``left``,
    ``picked``), from its view: its hand, the table, the addition step."""
    hand = s.hands[s.seat]
    if s.phase == DEFEND:
        spent, picked = ZERO, s.unkilled
        rest = s.unkilled
        while rest != ZERO:
            a = lowest(rest)
            rest &= rest - ONE
            if m.killer[a] >= 0:
                spent |= bit(m.killer[a])
                picked &= ~bit(a)
        rest = m.cards
        while rest != ZERO:
            c = lowest(rest)
            rest &= rest - ONE
            spent |= bit(c) | bit(m.killer[c])
        return spent, (hand & ~spent) | picked, picked
    if s.phase == GIVE_BACK:  # M-12: own cards sent back stay in the hand; the defender faces the rest
        facing = give_back_pool(s, p) & ~m.cards if s.seat == s.defender else ZERO
        return m.cards, hand & ~(s.added[s.seat] & ~m.cards), facing
    return m.cards, hand & ~m.cards, ZERO


@njit(cache=True)
def decision_masks(s: np.void, p: np.void) -> tuple[np.uint64, np.uint64]:
    """What every candidate of the seat to act's decision shares (``learned_features.describe``): ``others``, the
    cards not in its hand, the discard or on the table, and ``safe``, the cards a candidate can spend or leave
    (its hand, the unkilled cards, a give-back's pool) with no killer among ``others``."""
    hand = s.hands[s.seat]
    others = FULL_DECK & ~(hand | s.discard | s.attack | s.kills)
    cards = hand | s.unkilled
    if s.phase == GIVE_BACK:
        cards |= give_back_pool(s, p)
    return others, feat.unkillable(cards, others, s.trump)


@njit(cache=True, inline="always")
def candidate_features(s: np.void, p: np.void, m: np.void, greedy: bool, others: np.uint64, safe: np.uint64,
                       out: np.ndarray) -> None:
    """``learned_features.describe`` of candidate ``m`` of the seat to act into ``out`` (``others``, ``safe``:
    ``decision_masks``)."""
    spent, left, picked = candidate_masks(s, p, m)
    defender_hand = popcount(s.hands[s.defender]) if s.phase == OPEN or s.phase == ADD else DECK_SIZE
    feat.describe(out, greedy, spent, left, picked, others, s.trump, KILL, defender_hand, safe)


@njit(cache=True)
def block_of(s: np.void, p: np.void) -> int:
    """The weight block of the seat to act's decision: its kind and the stage of the game."""
    return s.phase * feat.STAGES + learned.stock_stage(stock_left(s), p.players - s.n_out)


@njit(cache=True)
def learned_move(s: np.void, p: np.void, weights: np.ndarray, m: np.void, w: np.void) -> None:
    """``learned``'s decision for the seat to act into ``m`` (``weights``: ``learned_features.TABLE_WEIGHTS``):
    the candidate of ``decision_candidates`` with the highest score, ties to the first (greedy's). An opening is
    scored by its folded block (``learned_features.fold``: the hand's sums once, then each candidate's ``FOLDED``
    features), the same integers."""
    n = decision_candidates(s, p, w.play)
    best = 0
    if n > 1:
        block = block_of(s, p)
        others, safe = decision_masks(s, p)
        top = 0
        if s.phase == OPEN:
            hand = s.hands[s.seat]
            start = feat.LANE_WEIGHTS + (block - OPEN * feat.STAGES) * feat.FOLD_WIDTH  # the stage's folded block
            feat.kept_sums(w.kept, hand, s.trump, safe)
            t, a0, a1, a2, a3 = learned.lane_dots(weights, start + feat.KEPT_ROWS, w.kept, feat.N_KEPT)
            defender_hand = popcount(s.hands[s.defender])
            for i in range(n):
                spent = w.play[i].cards
                feat.describe_folded(w.features, i == 0, spent, hand & ~spent, others, s.trump, KILL, defender_hand,
                                     safe)
                value = learned.lane_score(weights, start, w.features, feat.N_FOLDED, t, a0, a1, a2, a3)
                if i == 0 or value > top:
                    best, top = i, value
        else:
            for i in range(n):
                candidate_features(s, p, w.play[i], i == 0, others, safe, w.features)
                value = learned.score_lanes(weights, block, w.features, feat.N)
                if i == 0 or value > top:
                    best, top = i, value
    m.cards = w.play[best].cards
    m.killer[:] = w.play[best].killer


@njit(cache=True)
def teacher_scores(s: np.void, p: np.void, row: np.ndarray, worlds: int, w: np.void, scores: np.ndarray) -> int:
    """Training labels: ``mc``'s totals for every candidate of ``decision_candidates`` (into ``w.candidates``),
    searched at any stage of the game: ``worlds`` worlds as ``search`` deals them (``play_worlds``, the
    beliefs of ``row``), each candidate played out with the base policy of ``row`` in every seat, 1 per
    play-out the seat does not lose, into ``scores``. How many candidates."""
    n = decision_candidates(s, p, w.candidates)
    scores[:n] = 0
    play_worlds(s, p, row, worlds, n, w, scores)
    return n


# --- records --------------------------------------------------------------------------------

RECORD_FIELDS = ("turns", "truncated", "loser", "rounds", "trump_suit", "swaps", "overplays", "pickups",
                 "self_attacks", "finish")
AT = jit.positions(RECORD_FIELDS)
"""Where ``write_record`` writes each column."""


@njit(cache=True)
def write_record(s: np.void, out: np.ndarray) -> None:
    """The record of a finished game into ``out`` (int64, the columns of ``RECORD_FIELDS``)."""
    out[AT.turns], out[AT.truncated], out[AT.loser], out[AT.rounds] = s.turns, s.truncated, s.loser, s.rounds
    out[AT.trump_suit], out[AT.swaps], out[AT.overplays], out[AT.pickups] = s.trump, s.swaps, s.overplays, s.pickups
    out[AT.self_attacks], out[AT.finish] = s.self_attacks, s.finish


@njit(cache=True)
def run_games(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, out: np.ndarray,
              w: np.void) -> None:
    """Play ``games`` (game indices) of a study with ``seed``, one at a time: row ``i`` of ``out`` is the
    record of ``games[i]`` (``policies``: the policy table; ``w``: a ``WORK`` record)."""
    state = np.zeros(1, STATE)
    move = np.zeros(1, MOVE)
    s, m = state[0], move[0]
    reads_ = pol.reads_of(policies)
    seat_forbids(s, policies)
    for i in range(len(games)):
        deal(s, p, jit.game_key(seed, games[i]), w.u, w.perm, w.count)
        s.reads = reads_
        play_out(s, p, policies, m, w)
        write_record(s, out[i])


@njit(cache=True)
def play_plain(s: np.void, p: np.void, policies: np.ndarray, m: np.void) -> None:
    """``play_out`` for a policy table of ``random`` and ``greedy`` alone: the same decisions (``choose`` without
    its search and ``learned``'s scorer)."""
    while s.phase != OVER:
        respond(s, p, policies[s.seat, pol.CODE], m)
        apply(s, p, m)


@njit(cache=True)
def run_plain(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, out: np.ndarray,
              w: np.void) -> None:
    """``run_games`` for a policy table without ``mc`` or ``learned`` (``play_plain``): a call that plays neither
    compiles no search, about half the engine's compile time."""
    state = np.zeros(1, STATE)
    move = np.zeros(1, MOVE)
    s, m = state[0], move[0]
    seat_forbids(s, policies)
    for i in range(len(games)):
        deal(s, p, jit.game_key(seed, games[i]), w.u, w.perm, w.count)
        play_plain(s, p, policies, m)
        write_record(s, out[i])


def simulate(rules: MoskaRules, players: int, seed: int, games: np.void,
             policies: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The records of ``games`` (an int64 array of game indices), one array per column of ``GAME.columns``."""
    games = np.asarray(games, dtype=np.int64)
    table = pol.table(policies)
    warn_other_rules(policies, rules, players)
    searching = bool((table[:, pol.CODE] >= pol.MC).any())  # mc's or learned's code is in run_games alone
    out = shedding.play("moska", run_games, run_plain, searching, make_params(rules, players)[0], table, seed, games,
                        RECORD_FIELDS, new_work()[0])
    return shedding.record(out, RECORD_FIELDS, games, players)


# --- the reference engine's positions -------------------------------------------------------

KINDS = {"open": OPEN, "defend": DEFEND, "add": ADD, "give_back": GIVE_BACK}
"""The decision kinds of the reference engine's policy calls (``policies.py``) → phases."""


def state_from(game: reference.State, kind: str, seat: int) -> np.ndarray:
    """The compiled state (a 1-element array) of a reference game at a decision of ``seat`` of ``kind``
    (``KINDS``) whose turn the reference has counted already (as when it asks a policy). For the reference
    engine's ``mc`` and for tests."""
    players = game.players
    state = np.zeros(1, STATE)
    repetition.forget(state[0])  # no position remembered (M-23, MM-18)
    s, t = state[0], game.table
    s["key"], s["trump"], s["turned"] = game.key, game.trump, game.turned
    for q in range(players):
        s["hands"][q], s["known"][q], s["added"][q] = game.hands[q], game.known[q], t.added.get(q, 0)
    s["stock"][:len(game.stock)], s["stock_size"], s["drawn"] = game.stock, len(game.stock), 0
    s["discard"], s["attack"], s["unkilled"], s["kills"] = game.discard, t.attack, t.unkilled, t.kills
    s["start_hand"], s["gone"], s["attacker"], s["defender"] = t.start_hand, t.gone, game.attacker, game.defender
    s["phase"], s["seat"] = KINDS[kind], seat
    if kind in ("add", "give_back"):
        s["step_room"], s["step_allowed"] = reference.room(game), reference.allowed(game)
        s["adder"] = (seat - game.attacker) % players
    if kind == "give_back":
        s["excess"] = sum(bin(m).count("1") for m in t.added.values()) - s["step_room"]
    s["out"] = sum(1 << q for q in game.finish_order)
    s["finish"] = sum((q + 1) << 4 * j for j, q in enumerate(game.finish_order))
    s["n_out"], s["turns"], s["rounds"] = len(game.finish_order), game.turns - 1, game.rounds
    s["swaps"], s["overplays"], s["pickups"], s["self_attacks"] = (game.swaps, game.overplays, game.pickups,
                                                                   game.self_attacks)
    s["loser"] = -1
    s["barred"][:players], s["reads"], s["forbid"][:players] = game.barred, game.reads, game.forbid
    return state


def decide_from(game: reference.State, kind: str, seat: int, search_: MonteCarlo) -> np.void:
    """The ``MOVE`` of ``seat``'s ``mc`` decision (``search_``: its parameters) in a reference game, made on
    ``state_from``: the reference engine's ``mc`` (seating.MonteCarloPolicy)."""
    row = np.zeros(pol.WEIGHTS + feat.TABLE_WEIGHTS, dtype=np.int64)
    pol.search_row(row, search_)
    return decide_with(game, kind, seat, row)


def decide_with(game: reference.State, kind: str, seat: int, row: np.ndarray) -> np.void:
    """The ``MOVE`` of ``seat``'s decision by the policy table row ``row`` in a reference game, made on
    ``state_from``: the reference engine's ``mc`` and ``learned``."""
    state, move = state_from(game, kind, seat), np.zeros(1, MOVE)
    policies = np.zeros((game.players, len(row)), dtype=np.int64)
    policies[seat] = row
    jit.first_call(choose, "moska", state[0], make_params(game.rules, game.players)[0], policies, move[0],
                   new_work()[0])
    return move[0]
