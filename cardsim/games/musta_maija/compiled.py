"""Musta-Maija compiled engine: one game at a time in numba, record for record equal to ``reference.py``.

It is a translation of the decision protocol in ``reference.py``'s docstring (read it
there, next to docs/rules/musta_maija.md); rule IDs are cited where they are applied. It
does not trace moves (``cardsim.replay`` does, with the reference engine).

A game is an explicit state: ``STATE``, one numpy record in a 1-element array
(``state = np.zeros(1, STATE)``); every function takes the record ``s = state[0]``.
Hands are two uint64 words per seat (``hands[p, 0]`` copy 0, ``hands[p, 1]`` copy 1;
cards.py), the stock is ``deck[top:n_cards]`` (card codes, drawn from the front; the
turned trump card of MM-7 is the last). A state waits for one decision of
``seat`` (``phase`` ATTACK or DEFENCE) or is over (``phase == OVER``); everything
automatic (refills, going out, the next attacker, the end, truncation, repetition) has been applied.

- ``deal(s, p, key, u, order, tmp, count)``: game ``key``'s deal, waiting for seat 1's attack;
- ``to_act(s)``: the seat whose decision it is, -1 when the game is over;
- ``choose(s, p, policies, m, w)``: the decision of the seat to act, from its **view** only
  (own hand, the table, trump, the hand sizes, the stock size, what is known; never another
  hand): ``respond`` for ``random`` and ``greedy``, ``search`` for ``mc``;
- ``apply(s, p, m)``: make the decision, then run the game on to the next one;
- ``is_legal(s, p, m)``: whether a decision is one the rules allow (MM-5, MM-9, MM-10, MM-13);
- ``copy_state(dst, src)`` (into a 1-element array), ``play_out(s, p, policies, m, w)`` (to the end).

A decision is a ``MOVE`` record: ``declare`` (a suit declared trump at its start, MM-5,
or -1), ``cards`` (the attack cards, or the defender's beaters) and ``beaten`` (the
attack cards beaten). The legal decisions are too many to list (any subset of one
suit; any assignment of beaters): the ``random`` policy samples them, ``is_legal``
checks one. The duty to beat (MM-10) is found as the policies find it: ``beat_with``
with the whole hand is a largest assignment (policies.py says why), so "can beat every
card" is "``beat_with`` beats every card". The engine's loop (``run_games``) is
``deal``, then ``choose``/``apply`` until the game is over; nothing else.

Rules and players reach numba as a ``PARAMS`` record ``p`` (``make_params(...)[0]``), seat
policies as an int64 table, one row per seat (``compiled_policies.table``: code, and ``mc``'s
worlds and base policy). Per-decision functions allocate nothing (scratch is a ``WORK``
record passed in), so they could be compiled for a GPU with numba's CUDA target (one thread
per game, ``STATE`` records in device memory).

``mc`` (determinized Monte Carlo, docs/design.md; policies.py specifies it): ``search`` takes the
``candidates``, deals worlds of the hidden cards (``hidden_cards``, ``determinize``) and plays
each candidate out in each world with the base policy (``roll_out``). A world keeps what the
seat can see: ``known[p]``, the cards publicly known to be in seat ``p``'s hand (picked up
from the table, the king and queen shown by a marriage, the turned trump card drawn last),
the ``discard``, the ``table``, the hand sizes, the stock size (``n_cards - top``) and the
``turned`` card under the stock; with ``beliefs=reads`` its other hands also avoid what their seats'
choices with the stock empty say they do not hold (``barred``, ``reads.py``). Not kept: what a pick-up
under the duty to beat (MM-10) reveals (that hand could not beat every card). With ``repetition`` (MM-18)
a play-out applies the rule from its world's start on: a world remembers none of the game's positions
(``repetition.forget``: its hands are not the game's), only those its own attacks begin in; a play-out
the rule stops is one the seat did not lose. The reference engine's ``mc`` runs ``choose`` on ``state_from``
of its table (``decide_from``).
"""
from __future__ import annotations

import numpy as np

from cardsim.core import jit, learned, repetition, shedding
from cardsim.core.jit import ONE, U, ZERO, njit, popcount
from cardsim.games.musta_maija import compiled_policies as pol
from cardsim.games.musta_maija import learned_features as feat
from cardsim.games.musta_maija.cards import (
    DIAMONDS, KING, M13, M52, MARIA, QUEEN, RANKS, SPADES, SUITS, card_list, card_words, code_at, count,
    from_ranks, suit_mask, suit_of_code, suit_of_hand, to_ranks,
)
from cardsim.games.musta_maija.learned import warn_other_rules
from cardsim.games.musta_maija.policies import DECLARE
from cardsim.games.musta_maija.reference import ALL_IF_POSSIBLE, PACKET, PLAYED, Table, defender
from cardsim.games.musta_maija.rules import MustaMaijaRules

MAX_PLAYERS = 8
MAX_CARDS = 104
"""Card codes 0..103 (code 101, a second ♠Q, never exists: MM-1)."""

ATTACK, DEFENCE, OVER = 0, 1, 2
"""Phases: the kind of decision a state waits for, or the game is over."""
MARRIAGE, FIXED_DIAMONDS, TURNED = 0, 1, 2
TRUMP_CODES = {"marriage": MARRIAGE, "diamonds": FIXED_DIAMONDS, "turned": TURNED}

STATE = np.dtype([
    ("key", np.uint64),
    ("players", np.int64),
    ("n_cards", np.int64),
    ("deck", np.int8, (MAX_CARDS,)),
    ("top", np.int64),
    ("hands", np.uint64, (MAX_PLAYERS, 2)),
    ("known", np.uint64, (MAX_PLAYERS, 2)),
    ("barred", np.uint64, (MAX_PLAYERS, 2)),
    ("reads", np.bool_),
    ("table", np.uint64, (2,)),
    ("discard", np.uint64, (2,)),
    ("turned", np.int64),
    ("trump", np.int64),
    ("declared_turn", np.int64),
    ("phase", np.int64),
    ("seat", np.int64),
    ("attacker", np.int64),
    ("defender", np.int64),
    ("out", np.int64),
    ("finish", np.int64),
    ("n_out", np.int64),
    ("turns", np.int64),
    ("rounds", np.int64),
    ("loser", np.int64),
    ("truncated", np.bool_),
    ("seen", np.uint64, (repetition.WINDOW,)),
    ("n_seen", np.int64),
    ("epoch", np.int64),
    ("position", np.uint64, (2 + 2 * MAX_PLAYERS,)),
    ("first", np.uint64, (2 + 2 * MAX_PLAYERS,)),
])
"""One game. ``deck[top:n_cards]`` is the stock, front first; ``known[p]`` the cards seat ``p`` is
publicly known to hold; ``barred[p]`` the cards seat ``p``'s choices with the stock empty say it does not
hold, read as greedy's (``reads.py``), kept only while ``reads`` (a seat's ``mc`` deals its worlds from them);
``table`` the attack on the table; ``turned`` the turned trump card (MM-7),
-1 if none; ``seat`` the seat to act (``attacker`` or ``defender``, by ``phase``); ``out`` a bitmask
of seats out (MM-14), ``finish`` their order packed (the ``j``-th seat out, plus one, in bits
``4j .. 4j+3``); ``seen``, ``n_seen``, ``epoch``, ``position``, ``first``: the positions the last attacks
were to begin in with the stock empty (MM-18, ``repetition.FIELDS``; a position's words: the attacker, the
trump plus one (-1 while none is declared), then every hand's words in seat order, the second only with two
decks); the rest are the record's fields."""

MOVE = np.dtype([("declare", np.int64), ("cards", np.uint64, (2,)), ("beaten", np.uint64, (2,))])
"""One decision (see the module docstring)."""

PARAMS = np.dtype([(name, np.int64) for name in (
    "players", "n_cards", "trump", "maria_trump", "hand_size", "refill_played", "must_beat", "max_turns",
    "repetition")])
"""The rules and the player count (``make_params``): ``trump`` a ``TRUMP_CODES`` value, ``maria_trump``
``black_maria="highest_trump"``, ``refill_played`` ``refill="played"``, ``must_beat``
``must_beat="all_if_possible"``, ``repetition`` MM-18."""


MAX_CANDIDATES = 1 + 4 * SUITS * (3 + RANKS)
"""A bound on ``mc``'s candidates: greedy's decision, then for each declaration choice (none or one of
three suits, MM-5) at most three sets and one card of each rank per suit
(``compiled_policies.attack_candidates``; a defence has at most five)."""

WORK = np.dtype([
    ("u", np.uint64, (MAX_CARDS,)), ("order", np.int64, (MAX_CARDS,)), ("tmp", np.int64, (MAX_CARDS,)),
    ("count", np.int64, (jit.BUCKETS + 1,)), ("hidden", np.int64, (MAX_CARDS,)),
    ("candidates", MOVE, (MAX_CANDIDATES,)), ("score", np.int64, (MAX_CANDIDATES,)), ("move", MOVE, (1,)),
    ("worlds", STATE, (2,)), ("play", MOVE, (MAX_CANDIDATES,)),
    ("beats", np.int64, (MAX_CARDS,)), ("heads", np.int64, (feat.HEADS, MAX_CARDS)),
    ("kept", np.int64, (feat.HEADS,)), ("dots", np.int64, (feat.HEADS,)),
], align=True)
"""Scratch of one game loop (``new_work``): the deal's draws and orders (``u``, ``order``, ``tmp``); for
``mc`` (``search``) the hidden cards and their bucket counts, the candidates and their scores, a play-out's
move, a world and a play-out state; for ``learned`` (``learned_move``, also inside ``mc``'s play-outs) its
candidates and each card's gain by head (``card_gains``: ``heads``, with each head's score of the kept hand and
of a candidate, ``kept`` and ``dots``); for a candidate's features (``candidate_features``) the beaters of each
card (``learned_features.prepare``)."""


def new_work() -> np.ndarray:
    """A ``WORK`` record (a 1-element array)."""
    return np.zeros(1, WORK)


def make_params(rules: MustaMaijaRules, players: int) -> np.ndarray:
    """The 1-element ``PARAMS`` array of a rules object and a player count."""
    rules.check_players(players)
    p = np.zeros(1, dtype=PARAMS)
    p["players"], p["n_cards"] = players, len(card_list(players))
    p["trump"] = TRUMP_CODES[rules.trump]
    p["maria_trump"] = rules.black_maria == "highest_trump"
    p["hand_size"] = rules.hand_size
    p["refill_played"] = rules.refill == PLAYED
    p["must_beat"] = rules.must_beat == ALL_IF_POSSIBLE
    p["max_turns"] = rules.max_turns
    p["repetition"] = rules.repetition
    return p


# --- the deal (MM-1, MM-4, MM-6, MM-7) ------------------------------------------------------

@njit(cache=True)
def take_card(s: np.void, seat: int, code: int) -> None:
    lo, hi = card_words(code)
    s.hands[seat, 0] |= lo
    s.hands[seat, 1] |= hi


@njit(cache=True)
def deal(s: np.void, p: np.void, key: np.uint64, u: np.ndarray, order: np.ndarray, tmp: np.ndarray,
         count: np.ndarray) -> None:
    """A fresh game from ``key``: shuffle, deal packets of three from seat 1 (MM-4), fix the trump.

    ``u`` (uint64), ``order`` and ``tmp`` (int64): ``MAX_CARDS`` entries of scratch each; ``count``:
    ``jit.BUCKETS + 1`` int64 (the permutation's buckets).
    """
    s.key, s.players, s.n_cards = key, p.players, p.n_cards
    jit.permutation_into(key, jit.DEAL, 0, p.n_cards, u, order, count)
    for i in range(p.n_cards):
        s.deck[i] = code_at(order[i])
    s.hands[:, :] = ZERO
    s.known[:, :] = ZERO
    s.barred[:, :] = ZERO
    s.table[:] = ZERO
    s.discard[:] = ZERO
    full, rest = p.hand_size // PACKET, p.hand_size % PACKET
    top = 0
    for packet in range(full + (1 if rest else 0)):
        size = PACKET if packet < full else rest
        for k in range(1, p.players + 1):
            for _ in range(size):
                take_card(s, k % p.players, np.int64(s.deck[top]))
                top += 1
    s.top, s.turned, s.trump, s.declared_turn = top, -1, -1, -1
    if p.trump == FIXED_DIAMONDS:
        s.trump = DIAMONDS  # MM-6
    elif p.trump == TURNED:
        turn_trump(s, u, order, tmp, count)
    s.out, s.finish, s.n_out, s.turns, s.rounds, s.loser, s.truncated = 0, 0, 0, 0, 0, -1, False
    repetition.forget(s)
    s.attacker = 1 % p.players  # MM-9
    s.defender = next_in(s, s.attacker)
    s.phase, s.seat = ATTACK, s.attacker
    if repeats(s, p):  # MM-18 (a deal that leaves no stock: the first attack's position is remembered)
        stop_repeated(s)


@njit(cache=True)
def turn_trump(s: np.void, u: np.ndarray, order: np.ndarray, tmp: np.ndarray, count: np.ndarray) -> None:
    """MM-7: reshuffle the stock while its top is a spade; turn the top and put it at the bottom."""
    n = s.n_cards - s.top
    attempt = 0
    while suit_of_code(np.int64(s.deck[s.top])) == SPADES:
        jit.permutation_into(s.key, jit.RESHUFFLE, attempt, n, u, order, count)
        for i in range(n):
            tmp[i] = s.deck[s.top + order[i]]
        for i in range(n):
            s.deck[s.top + i] = tmp[i]
        attempt += 1
    first = np.int64(s.deck[s.top])
    for i in range(s.top, s.n_cards - 1):
        s.deck[i] = s.deck[i + 1]
    s.deck[s.n_cards - 1] = first
    s.turned, s.trump = first, suit_of_code(first)


# --- seats ------------------------------------------------------------------------------------

@njit(cache=True)
def is_out(s: np.void, seat: int) -> bool:
    return (s.out >> seat) & 1 == 1


@njit(cache=True)
def next_in(s: np.void, seat: int) -> int:
    """The next player to the left of ``seat`` who is still in (MM-9, MM-14); ``seat`` if none."""
    for step in range(1, s.players):
        other = (seat + step) % s.players
        if not is_out(s, other):
            return other
    return seat


@njit(cache=True)
def hand_size(s: np.void, seat: int) -> int:
    return count(s.hands[seat, 0], s.hands[seat, 1])


@njit(cache=True)
def stock_size(s: np.void) -> int:
    return s.n_cards - s.top


@njit(cache=True)
def to_act(s: np.void) -> int:
    """The seat whose decision the state waits for; -1 when the game is over."""
    return -1 if s.phase == OVER else s.seat


# --- what happens (MM-5, MM-9 … MM-14) ------------------------------------------------------

@njit(cache=True)
def draw(s: np.void, seat: int, wanted: int) -> None:
    """Draw ``wanted`` cards from the front of the stock, fewer if it runs out (the turned card last); a draw
    drops the seat's reads (unseen cards come in)."""
    n = min(max(wanted, 0), stock_size(s))
    if n:
        s.barred[seat, 0], s.barred[seat, 1] = ZERO, ZERO
    for _ in range(n):
        code = np.int64(s.deck[s.top])
        take_card(s, seat, code)
        if code == s.turned:  # drawn last: everyone knows who holds it
            lo, hi = card_words(code)
            s.known[seat, 0] |= lo
            s.known[seat, 1] |= hi
        s.top += 1


@njit(cache=True)
def draw_up(s: np.void, p: np.void, seat: int) -> None:
    """MM-11, MM-12 (and MM-9 with ``refill="to_hand_size"``): up to ``hand_size``, nothing if holding more."""
    draw(s, seat, p.hand_size - hand_size(s, seat))


@njit(cache=True)
def go_out_if_empty(s: np.void, seat: int) -> None:
    """MM-14: a player with no cards once the stock is empty is out; ``finish`` records the order."""
    if hand_size(s, seat) == 0 and stock_size(s) == 0 and not is_out(s, seat):
        s.out |= 1 << seat
        s.finish |= (seat + 1) << (4 * s.n_out)
        s.n_out += 1


@njit(cache=True)
def play_cards(s: np.void, seat: int, lo: np.uint64, hi: np.uint64) -> None:
    """Cards leave ``seat``'s hand (and what others knew of it)."""
    s.hands[seat, 0] &= ~lo
    s.hands[seat, 1] &= ~hi
    s.known[seat, 0] &= ~lo
    s.known[seat, 1] &= ~hi


@njit(cache=True)
def declare(s: np.void, seat: int, suit: int) -> None:
    """MM-5: the suit is trump for the rest of the game; the king and queen shown become known."""
    s.trump, s.declared_turn = suit, s.turns
    for r in (KING, QUEEN):
        b = ONE << U(suit * RANKS + r)
        if s.hands[seat, 0] & b:
            s.known[seat, 0] |= b
        else:
            s.known[seat, 1] |= b


@njit(cache=True)
def attack(s: np.void, p: np.void, lo: np.uint64, hi: np.uint64) -> None:
    """MM-9: the attack goes on the table; the attacker refills (``refill``) and may go out (MM-14)."""
    seat = s.attacker
    play_cards(s, seat, lo, hi)
    s.table[0], s.table[1] = lo, hi
    if p.refill_played:
        draw(s, seat, count(lo, hi))
    else:
        draw_up(s, p, seat)
    s.turns += 1
    s.rounds += 1
    go_out_if_empty(s, seat)
    s.phase, s.seat = DEFENCE, s.defender


@njit(cache=True)
def defend(s: np.void, p: np.void, b_lo: np.uint64, b_hi: np.uint64, x_lo: np.uint64, x_hi: np.uint64) -> None:
    """MM-10..MM-12: beaten pairs are discarded, the rest picked up (and known); draw up; the next attacker."""
    seat = s.defender
    up_lo, up_hi = s.table[0] & ~x_lo, s.table[1] & ~x_hi
    play_cards(s, seat, b_lo, b_hi)
    s.hands[seat, 0] |= up_lo
    s.hands[seat, 1] |= up_hi
    s.known[seat, 0] |= up_lo
    s.known[seat, 1] |= up_hi
    s.barred[seat, 0] &= ~up_lo  # picked up: held, and known
    s.barred[seat, 1] &= ~up_hi
    s.discard[0] |= b_lo | x_lo
    s.discard[1] |= b_hi | x_hi
    s.table[0], s.table[1] = ZERO, ZERO
    draw_up(s, p, seat)
    s.turns += 1
    go_out_if_empty(s, seat)
    if up_lo | up_hi or is_out(s, seat):
        s.attacker = next_in(s, seat)  # MM-12 (and MM-11 when the defender went out)
    else:
        s.attacker = seat  # MM-11
    s.defender = next_in(s, s.attacker)
    s.phase, s.seat = ATTACK, s.attacker


@njit(cache=True)
def players_in(s: np.void) -> int:
    return s.players - s.n_out


@njit(cache=True)
def settle(s: np.void, p: np.void) -> None:
    """After a decision: the end (MM-14: at most one player in, checked before each attack), the
    truncation (MM-16: ``max_turns`` decisions made, checked before every decision) or, before an attack,
    the repetition (MM-18, ``repeats``)."""
    over = s.phase == ATTACK and players_in(s) <= 1
    if over or s.turns >= p.max_turns:
        s.truncated = players_in(s) > 1
        if players_in(s) == 1:
            for seat in range(s.players):
                if not is_out(s, seat):
                    s.loser = seat
        s.phase, s.seat = OVER, -1
    elif s.phase == ATTACK and repeats(s, p):
        stop_repeated(s)


@njit(cache=True)
def repeats(s: np.void, p: np.void) -> bool:
    """MM-18: with the knob on, the stock empty and fewer than ``max_turns`` decisions made (MM-16 first), the
    attack about to begin would begin in a position (the attacker, the trump, every hand) one of the last 64
    did (``repetition.repeats``)."""
    if not p.repetition or stock_size(s) != 0 or s.turns >= p.max_turns:
        return False
    s.position[0], s.position[1] = s.attacker, s.trump + 1
    words = 2 if s.n_cards > 64 else 1  # one deck: every hand's second word is empty
    for q in range(s.players):
        for k in range(words):
            s.position[2 + words * q + k] = s.hands[q, k]
    discarded = popcount(s.discard[0]) + popcount(s.discard[1])
    return repetition.repeats(s, 2 + words * s.players, discarded)


@njit(cache=True)
def stop_repeated(s: np.void) -> None:
    """MM-18: the game stops before the attack: truncated, no loser."""
    s.truncated = True
    s.loser = -1
    s.phase, s.seat = OVER, -1


# --- decisions ----------------------------------------------------------------------------------

@njit(cache=True)
def attack_cap(s: np.void) -> int:
    """MM-13: once the stock is empty, no more attack cards than the defender holds."""
    return pol.NO_CAP if stock_size(s) else hand_size(s, s.defender)


@njit(cache=True)
def may_declare(s: np.void, p: np.void, seat: int) -> int:
    """MM-5: bitmask of the suits ``seat`` may declare trump now."""
    if p.trump != MARRIAGE or s.trump >= 0:
        return 0
    return pol.marriage_options(s.hands[seat, 0], s.hands[seat, 1])


@njit(cache=True)
def duty_to_beat(s: np.void, p: np.void, trump: int) -> bool:
    """MM-10: ``must_beat="all_if_possible"`` and the defender can beat every card (``trump`` after any
    declaration at this decision)."""
    if not p.must_beat:
        return False
    lo, hi = s.hands[s.defender, 0], s.hands[s.defender, 1]
    beaten = pol.beat_with(s.table[0], s.table[1], lo, hi, trump, p.maria_trump)
    return beaten[2] == s.table[0] and beaten[3] == s.table[1]


@njit(cache=True)
def may_declare_now(s: np.void, p: np.void, seat: int, forbid: int) -> int:
    """``may_declare`` less what ``forbid`` rules out (``forbid=declare``: nothing, MM-5)."""
    return 0 if forbid & DECLARE else may_declare(s, p, seat)


@njit(cache=True)
def respond(s: np.void, p: np.void, policy: int, forbid: int, m: np.void) -> None:
    """The decision of the seat to act by the search-free ``policy`` (a code: random, greedy) with the
    ``forbid`` bits, from its view: into ``m``."""
    seat = s.seat
    lo, hi = s.hands[seat, 0], s.hands[seat, 1]
    m.declare = pol.declaration(policy, lo, hi, may_declare_now(s, p, seat, forbid), s.key, s.turns)
    trump = m.declare if m.declare >= 0 else s.trump
    if s.phase == ATTACK:
        m.cards[0], m.cards[1] = pol.attack(policy, lo, hi, trump, attack_cap(s), s.key, s.turns)
        m.beaten[0], m.beaten[1] = ZERO, ZERO
    else:
        must = policy == pol.RANDOM and duty_to_beat(s, p, trump)  # greedy's defence does not ask
        move = pol.defence(policy, lo, hi, s.table[0], s.table[1], trump, p.maria_trump, stock_size(s) == 0, must,
                           s.key, s.turns)
        m.cards[0], m.cards[1], m.beaten[0], m.beaten[1] = move


@njit(cache=True)
def choose(s: np.void, p: np.void, policies: np.ndarray, m: np.void, w: np.void) -> None:
    """The decision of the seat to act by its row of the policy table (``compiled_policies.table``), from
    its view: into ``m``; ``w`` a ``WORK`` record (``mc``'s scratch)."""
    row = policies[s.seat]
    if row[pol.CODE] == pol.MC:
        search(s, p, row, m, w)
    elif row[pol.CODE] == pol.LEARNED:
        learned_move(s, p, row[pol.WEIGHTS:], row[pol.FORBID], m, w)
    else:
        respond(s, p, row[pol.CODE], row[pol.FORBID], m)


# --- reads: what an endgame choice says of its seat's hand, read as greedy's (reads.py specifies them) ------

@njit(cache=True)
def ranks_below(r: int) -> np.uint64:
    """Ranks ``0 .. r-1`` in rank space."""
    return (ONE << U(r)) - ONE


@njit(cache=True)
def read(s: np.void, p: np.void, m: np.void) -> tuple[np.uint64, np.uint64]:
    """The cards the decision ``m`` of the seat to act, made with the stock empty, says it does not hold
    (``reads.attack``, ``reads.defence``), from what the whole table sees."""
    if s.phase == ATTACK:
        a_lo, a_hi = m.cards[0], m.cards[1]
        if a_lo & MARIA:  # the Black Maria and the cap - 1 lowest other spades
            suit, room, bar = SPADES, hand_size(s, s.defender) - 1, ZERO
        else:  # the cap lowest of one suit
            suit, room, bar = suit_of_hand(a_lo, a_hi), hand_size(s, s.defender), MARIA
        x0, x1 = to_ranks(a_lo & ~MARIA, a_hi, suit)
        ranks = ZERO
        if popcount(x0) + popcount(x1) < room:
            ranks = M13
        elif x0 | x1:
            ranks = ranks_below(jit.highest(x0 | x1))
        r_lo, r_hi = from_ranks(ranks, ranks, suit)
        return (bar | r_lo) & ~a_lo, r_hi & ~a_hi
    t_lo, t_hi = s.table[0], s.table[1]
    l_lo, l_hi = t_lo & ~m.beaten[0] & ~MARIA, t_hi & ~m.beaten[1]
    if l_lo | l_hi == ZERO:
        return ZERO, ZERO
    suit = suit_of_hand(t_lo, t_hi)
    y0, y1 = to_ranks(l_lo, l_hi, suit)
    above = M13 & ~ranks_below(jit.lowest(y0 | y1) + 1)
    bar_lo, bar_hi = from_ranks(above, above, suit)
    bar_lo &= ~MARIA
    if p.maria_trump:
        bar_lo |= MARIA
    trump = m.declare if m.declare >= 0 else s.trump
    if 0 <= trump != suit:
        bar_lo |= suit_mask(trump)
        bar_hi |= suit_mask(trump)
    return bar_lo & ~m.cards[0], bar_hi & ~m.cards[1]


@njit(cache=True)
def apply(s: np.void, p: np.void, m: np.void) -> None:
    """Make the decision ``m`` of the seat to act, then run the game on to the next decision."""
    if s.reads and stock_size(s) == 0:
        b_lo, b_hi = read(s, p, m)
        s.barred[s.seat, 0] |= b_lo
        s.barred[s.seat, 1] |= b_hi
    if m.declare >= 0:
        declare(s, s.seat, m.declare)
    if s.phase == ATTACK:
        attack(s, p, m.cards[0], m.cards[1])
    else:
        defend(s, p, m.cards[0], m.cards[1], m.beaten[0], m.beaten[1])
    settle(s, p)


@njit(cache=True)
def is_legal(s: np.void, p: np.void, m: np.void) -> bool:
    """Whether ``m`` is a decision the rules allow the seat to act (MM-5, MM-9, MM-10, MM-13)."""
    if s.phase == OVER:
        return False
    seat, lo, hi = s.seat, m.cards[0], m.cards[1]
    trump = s.trump
    if m.declare >= 0:
        if not may_declare(s, p, seat) >> m.declare & 1:
            return False
        trump = m.declare
    if (lo & ~s.hands[seat, 0]) | (hi & ~s.hands[seat, 1]):
        return False
    if s.phase == ATTACK:
        n = count(lo, hi)
        if n == 0 or m.beaten[0] | m.beaten[1] or (stock_size(s) == 0 and n > hand_size(s, s.defender)):
            return False
        suit = suit_of_hand(lo, hi)
        return count(lo & suit_mask(suit), hi & suit_mask(suit)) == n
    x_lo, x_hi = m.beaten[0], m.beaten[1]
    if (x_lo & ~s.table[0]) | (x_hi & ~s.table[1]) or count(lo, hi) != count(x_lo, x_hi):
        return False
    if duty_to_beat(s, p, trump) and (x_lo != s.table[0] or x_hi != s.table[1]):
        return False
    if x_lo | x_hi == ZERO:
        return True
    # as many beaters as beaten cards, and a largest assignment of the one to the other beats them all
    assigned = pol.beat_with(x_lo, x_hi, lo, hi, trump, p.maria_trump)
    return assigned[2] == x_lo and assigned[3] == x_hi


# --- whole games ---------------------------------------------------------------------------------

@njit(cache=True)
def copy_state(dst: np.ndarray, src: np.void) -> None:
    """``dst[0]`` becomes a copy of the state ``src``."""
    dst[0] = src


@njit(cache=True)
def play_out(s: np.void, p: np.void, policies: np.ndarray, m: np.void, w: np.void) -> None:
    """Play the state to the end with the seats' ``policies`` (a policy table; ``w`` a ``WORK`` record)."""
    while s.phase != OVER:
        choose(s, p, policies, m, w)
        apply(s, p, m)


# --- mc: determinized Monte Carlo (docs/design.md; policies.py specifies it) ----------------------

@njit(cache=True)
def candidates(s: np.void, p: np.void, w: np.void, forbid: int = 0) -> int:
    """``mc``'s candidates for the seat to act (``decision_candidates``), into ``w.candidates``. How many."""
    return decision_candidates(s, p, w.candidates, forbid)


GROUPS = SUITS + 2
"""Groups of candidates by declaration (``group_declaration``)."""


@njit(cache=True)
def group_declaration(k: int, first: int, options: int) -> tuple[bool, int]:
    """Whether the ``k``-th group of candidates exists, and its declaration: greedy's (``first``), then none
    and each other suit of ``options`` (MM-5) in suit order."""
    d = first if k == 0 else k - 2
    return not (k and (d == first or (d >= 0 and not options >> d & 1))), d


@njit(cache=True)
def decision_candidates(s: np.void, p: np.void, out: np.ndarray, forbid: int) -> int:
    """The candidates of ``mc`` and ``learned`` for the seat to act, into ``out`` (``MOVE`` records): greedy's
    decision first (under ``forbid``), then for greedy's declaration, no declaration and each other suit it
    may declare (MM-5; none with ``forbid=declare``) the attacks or defences of ``compiled_policies`` under
    the trump it leaves; duplicates dropped. How many."""
    seat = s.seat
    lo, hi = s.hands[seat, 0], s.hands[seat, 1]
    respond(s, p, pol.GREEDY, forbid, out[0])
    first, options, m = out[0].declare, may_declare_now(s, p, seat, forbid), 1
    for k in range(GROUPS):
        there, d = group_declaration(k, first, options)
        if not there:
            continue
        trump = d if d >= 0 else s.trump
        if s.phase == ATTACK:
            m = pol.attack_candidates(out, m, d, lo, hi, trump, attack_cap(s))
        else:
            greedy = pol.greedy_hand(s.table[0], s.table[1], out[0], stock_size(s) == 0) if k == 0 else -1
            m = pol.defence_candidates(out, m, d, lo, hi, s.table[0], s.table[1], trump, p.maria_trump,
                                       p.must_beat != 0, greedy)
    return m


@njit(cache=True)
def hidden_cards(s: np.void, seat: int, w: np.void) -> int:
    """``w.hidden``: the cards ``seat`` cannot see, in code order, from its view only: the deck less its
    hand, the discard, the table, what is known of the other hands and the turned card while it lies
    under the stock (MM-7). How many."""
    lo, hi = s.hands[seat, 0] | s.discard[0] | s.table[0], s.hands[seat, 1] | s.discard[1] | s.table[1]
    for q in range(s.players):
        if q != seat:
            lo, hi = lo | s.known[q, 0], hi | s.known[q, 1]
    if s.turned >= 0 and stock_size(s):
        t_lo, t_hi = card_words(s.turned)
        lo, hi = lo | t_lo, hi | t_hi
    n = 0
    for i in range(s.n_cards):
        code = code_at(i)
        c_lo, c_hi = card_words(code)
        if not (lo & c_lo or hi & c_hi):
            w.hidden[n] = code
            n += 1
    return n


@njit(cache=True)
def determinize(world: np.void, seat: int, key: np.uint64, n: int, w: np.void) -> None:
    """World ``key`` of a copy of the searched state: its ``n`` hidden cards (``hidden_cards``) in keyed
    order (``DEAL`` stream of ``key``) fill the other hands after their known cards, to their sizes, seat by
    seat, each taking the first cards in that order not yet dealt and not in its ``barred`` (the reads; where
    too few are left, the first cards not yet dealt), then the stock from its top with the cards left in that
    order (the turned card stays at the bottom). Its game key, for the play-outs' policy draws, is ``key``.
    With no reads (``barred`` all 0) the hands take the order's cards one after another."""
    jit.permutation_into(key, jit.DEAL, 0, n, w.u, w.order, w.count)
    d_lo, d_hi = ZERO, ZERO  # the hidden cards dealt so far
    first = 0  # every card before the order's index ``first`` is dealt
    for q in range(world.players):
        if q != seat:
            need = hand_size(world, q) - count(world.known[q, 0], world.known[q, 1])
            world.hands[q, 0], world.hands[q, 1] = world.known[q, 0], world.known[q, 1]
            for reads in (True, False):  # the reads first, then as far as the cards go
                b_lo, b_hi = (world.barred[q, 0], world.barred[q, 1]) if reads else (ZERO, ZERO)
                i = first
                while need > 0 and i < n:
                    code = w.hidden[w.order[i]]
                    i += 1
                    if not is_dealt(code, d_lo | b_lo, d_hi | b_hi):
                        take_card(world, q, code)
                        c_lo, c_hi = card_words(code)
                        d_lo, d_hi = d_lo | c_lo, d_hi | c_hi
                        need -= 1
                while first < n and is_dealt(w.hidden[w.order[first]], d_lo, d_hi):
                    first += 1
    end = world.n_cards - 1 if world.turned >= 0 and stock_size(world) else world.n_cards
    k = first
    for i in range(world.top, end):
        while is_dealt(w.hidden[w.order[k]], d_lo, d_hi):
            k += 1
        world.deck[i] = w.hidden[w.order[k]]
        k += 1
    world.key = key


@njit(cache=True)
def is_dealt(code: int, d_lo: np.uint64, d_hi: np.uint64) -> bool:
    """Whether card ``code`` is in the two-word mask ``d``."""
    c_lo, c_hi = card_words(code)
    return (d_lo & c_lo | d_hi & c_hi) != ZERO


@njit(cache=True)
def roll_out(s: np.void, p: np.void, row: np.ndarray, seat: int, m: np.void, w: np.void) -> None:
    """An ``mc`` play-out: the base policy of ``row`` in every seat until the game ends, ``row``'s ``forbid``
    at ``seat``'s own decisions."""
    while s.phase != OVER:
        forbid = row[pol.FORBID] if s.seat == seat else 0
        if row[pol.BASE] == pol.LEARNED:
            learned_move(s, p, row[pol.WEIGHTS:], forbid, m, w)
        else:
            respond(s, p, row[pol.BASE], forbid, m)
        apply(s, p, m)


@njit(cache=True)
def play_worlds(s: np.void, p: np.void, row: np.ndarray, worlds: int, n: int, w: np.void,
                scores: np.ndarray) -> None:
    """Add to ``scores[:n]`` the play-outs not lost by the seat to act of each of ``w.candidates[:n]`` in worlds
    ``0 .. worlds-1`` (world ``j`` keyed ``jit.world_key(key, turns, j)``; ``row[SEES]``, ``oracle``: the
    state itself under the world's key), with ``row``'s base policy in every seat (``roll_out``)."""
    seat = s.seat
    n_hidden = hidden_cards(s, seat, w)
    world, trial = w.worlds[0], w.worlds[1]
    uniform = row[pol.READS] == 0
    for j in range(worlds):
        w.worlds[0] = s
        world.reads = False  # the play-outs need no reads
        # MM-18 holds in a play-out from its world on: the game's positions are not the world's
        repetition.forget(world)
        if uniform:
            world.barred[:, :] = ZERO
        if row[pol.SEES]:
            world.key = jit.world_key(s.key, s.turns, j)
        else:
            determinize(world, seat, jit.world_key(s.key, s.turns, j), n_hidden, w)
        for i in range(n):
            w.worlds[1] = world
            apply(trial, p, w.candidates[i])
            roll_out(trial, p, row, seat, w.move[0], w)
            if trial.loser != seat:
                scores[i] += 1


@njit(cache=True)
def search(s: np.void, p: np.void, row: np.ndarray, m: np.void, w: np.void) -> None:
    """``mc``'s decision for the seat to act (``row`` its policy table row), into ``m``: every candidate
    (under ``row``'s ``forbid``) played out in the same ``row[DETERMINIZATIONS]`` worlds (``play_worlds``); a
    play-out scores 1 when the seat does not lose; the highest total wins, ties to the first candidate
    (greedy's). One candidate is taken without a play-out."""
    n_candidates = candidates(s, p, w, row[pol.FORBID])
    best = 0
    if n_candidates > 1:
        w.score[:n_candidates] = 0
        play_worlds(s, p, row, row[pol.DETERMINIZATIONS], n_candidates, w, w.score)
        best = jit.argmax_first(w.score, n_candidates)
    copy_move(m, w.candidates[best])


@njit(cache=True)
def copy_move(m: np.void, c: np.void) -> None:
    m.declare, m.cards[0], m.cards[1], m.beaten[0], m.beaten[1] = (c.declare, c.cards[0], c.cards[1], c.beaten[0],
                                                                  c.beaten[1])


# --- learned: a scorer over the candidates, linear or a small network (policies.py specifies it) ---

@njit(cache=True)
def others_of(s: np.void) -> tuple[np.uint64, np.uint64]:
    """The cards the seat to act cannot place (``learned_features``): not in its hand, the discard or on the
    table."""
    second = M52 & ~MARIA if s.n_cards > 52 else ZERO  # MM-1: the second deck's cards, if in play
    lo, hi = s.hands[s.seat, 0], s.hands[s.seat, 1]
    return M52 & ~(lo | s.discard[0] | s.table[0]), second & ~(hi | s.discard[1] | s.table[1])


@njit(cache=True)
def trump_of(s: np.void, c: np.void) -> int:
    """The trump after candidate ``c``'s declaration (MM-5)."""
    return c.declare if c.declare >= 0 else s.trump


@njit(cache=True)
def candidate_features(s: np.void, p: np.void, c: np.void, greedy: bool, w: np.void, out: np.ndarray) -> None:
    """``learned_features.describe`` of candidate ``c`` of the seat to act into ``out``, from its view (its hand,
    the table, ``others_of``), under the trump after its declaration; ``w``: a ``WORK`` record, whose ``beats``
    take ``learned_features.prepare``'s counts. For training and tests: the engine sums the same features' scores
    card by card (``card_gains``)."""
    trump, (o_lo, o_hi) = trump_of(s, c), others_of(s)
    lo, hi = s.hands[s.seat, 0], s.hands[s.seat, 1]
    u_lo, u_hi = feat.prepare(w.beats, lo | s.table[0], hi | s.table[1], o_lo, o_hi, trump, p.maria_trump != 0)
    s_lo, s_hi = c.cards[0], c.cards[1]
    attacking = s.phase == ATTACK
    p_lo, p_hi = (ZERO, ZERO) if attacking else (s.table[0] & ~c.beaten[0], s.table[1] & ~c.beaten[1])
    feat.describe(out, greedy, c.declare >= 0, s_lo, s_hi, p_lo, p_hi, (lo & ~s_lo) | p_lo, (hi & ~s_hi) | p_hi,
                  trump, attacking, w.beats, u_lo, u_hi, feat.tally(lo, hi, trump))


@njit(cache=True)
def block_of(s: np.void, p: np.void) -> int:
    """The weight block of the seat to act's decision: its kind and the stage of the game."""
    return s.phase * feat.STAGES + learned.stock_stage(stock_size(s), players_in(s))


@njit(cache=True, inline="always")
def card_gains(s: np.void, p: np.void, weights: np.ndarray, block: int, heads: int, trump: int, w: np.void,
               lo: np.uint64, hi: np.uint64) -> None:
    """Once per decision and trump: ``learned_features.card_gains`` of the first ``heads`` heads of block ``block``
    for the cards ``(lo, hi)`` of the seat to act's hand and of the table under ``trump`` (into ``w.heads``,
    ``w.kept``)."""
    o_lo, o_hi = others_of(s)
    feat.card_gains(w.heads, w.kept, weights, block, heads, lo, hi, s.table[0], s.table[1], o_lo, o_hi, trump,
                    p.maria_trump != 0, s.phase == ATTACK)


@njit(cache=True, inline="always")
def learned_move(s: np.void, p: np.void, weights: np.ndarray, forbid: int, m: np.void, w: np.void) -> None:
    """``learned``'s decision for the seat to act into ``m`` (``weights``: fixed point, ``learned_features.WEIGHTS``):
    the candidate of ``decision_candidates`` (under ``forbid``) with the highest score, ties to the first
    (greedy's). A linear block's scores are ``candidate_features`` dotted with its weights, summed card by card
    (``card_gains``); an attack's without writing them out (``learned_attack``). A network's block sums each of its
    heads so (``network_candidate``). A defender whose whole hand beats no card
    (``compiled_policies.beats_any``), nor then any part of it, and who may declare no trump has one candidate,
    greedy's: nothing beaten. Inlined into its callers (``choose``, ``roll_out``), as are the scorers under it: a
    call that passes ``weights``, a view of the policy table, on costs its refcounting."""
    block = block_of(s, p)
    if s.phase == DEFENCE and not (pol.beats_any(s.table[0], s.table[1], s.hands[s.seat, 0], s.hands[s.seat, 1],
                                                 s.trump, p.maria_trump) or may_declare_now(s, p, s.seat, forbid)):
        m.declare, m.cards[0], m.cards[1], m.beaten[0], m.beaten[1] = -1, ZERO, ZERO, ZERO, ZERO
    elif learned.has_units(weights, block, feat.N):
        network_candidate(s, p, weights, block, forbid, m, w)
    elif s.phase == ATTACK:
        learned_attack(s, p, weights, block, forbid, m, w)
    else:
        best_candidate(s, p, weights, block, forbid, m, w)


@njit(cache=True)
def network_candidate(s: np.void, p: np.void, weights: np.ndarray, block: int, forbid: int, m: np.void,
                      w: np.void) -> None:
    """``learned_move`` under a network's block ``block``: each candidate of ``decision_candidates`` scored as
    ``core.learned.score`` scores its features, from its dot product with each head of the block (the linear
    weights and each unit's, ``core.learned.head``), every one summed card by card as a linear block's score is:
    ``card_gains`` of the whole hand for all heads in one pass per trump, ``learned_features.head_scores`` per
    candidate. The same integers as describing each candidate and scoring its features, without writing them
    out (1.3 times the games per CPU-second of that, 2026-12-06). Not inlined into ``learned_move``: inlined, the
    network path slowed the linear one by 5–10% (measured under load)."""
    n = decision_candidates(s, p, w.play, forbid)
    best = 0
    if n > 1:
        lo, hi, t_lo, t_hi = s.hands[s.seat, 0], s.hands[s.seat, 1], s.table[0], s.table[1]
        top, under = 0, -2
        for i in range(n):
            c = w.play[i]
            trump = trump_of(s, c)
            if trump != under:
                card_gains(s, p, weights, block, feat.HEADS, trump, w, lo, hi)
                under = trump
            feat.head_scores(w.dots, weights, block, feat.HEADS, w.heads, w.kept, i == 0, c.declare >= 0, c.cards[0],
                             c.cards[1], t_lo & ~c.beaten[0], t_hi & ~c.beaten[1], lo, hi)
            value = learned.from_heads(weights, block, feat.N, w.dots)
            if i == 0 or value > top:
                best, top = i, value
    copy_move(m, w.play[best])


@njit(cache=True, inline="always")
def best_candidate(s: np.void, p: np.void, weights: np.ndarray, block: int, forbid: int, m: np.void, w: np.void
                   ) -> None:
    """``learned_move``'s defence under a linear block ``block``: the candidates of
    ``decision_candidates``, written out and scored one by one. Under one declaration the cards no candidate plays
    add the same to every score: only the played ones are weighed."""
    n = decision_candidates(s, p, w.play, forbid)
    best = 0
    if n > 1:
        lo, hi, t_lo, t_hi = s.hands[s.seat, 0], s.hands[s.seat, 1], s.table[0], s.table[1]
        played_lo, played_hi = lo, hi
        if w.play[n - 1].declare == w.play[0].declare:  # they come grouped by declaration: one group
            played_lo, played_hi = ZERO, ZERO
            for i in range(n):
                played_lo, played_hi = played_lo | w.play[i].cards[0], played_hi | w.play[i].cards[1]
        top, under = 0, -2
        for i in range(n):
            c = w.play[i]
            trump = trump_of(s, c)
            if trump != under:
                card_gains(s, p, weights, block, 1, trump, w, played_lo, played_hi)
                under = trump
            feat.head_scores(w.dots, weights, block, 1, w.heads, w.kept, i == 0, c.declare >= 0, c.cards[0],
                             c.cards[1], t_lo & ~c.beaten[0], t_hi & ~c.beaten[1], lo, hi)
            value = w.dots[0]
            if i == 0 or value > top:
                best, top = i, value
    copy_move(m, w.play[best])


@njit(cache=True, inline="always")
def learned_attack(s: np.void, p: np.void, weights: np.ndarray, block: int, forbid: int, m: np.void, w: np.void
                   ) -> None:
    """``learned_move``'s attack under a linear block ``block``: greedy's decision, then group
    by group the best of the attacks of ``decision_candidates`` (``compiled_policies.best_attack``); the first of
    the highest scores wins. The
    hand's score as kept is the same in every score of a group: it is weighed only where other declarations'
    groups are compared (MM-5)."""
    seat, base = s.seat, block * feat.WIDTH
    lo, hi = s.hands[seat, 0], s.hands[seat, 1]
    respond(s, p, pol.GREEDY, forbid, m)
    first, options = m.declare, may_declare_now(s, p, seat, forbid)
    greedy, (o_lo, o_hi) = (first, m.cards[0], m.cards[1]), others_of(s)
    held, top = weights[base + feat.LEFT_SUITS] * pol.suits_held(lo, hi), 0
    w.kept[0] = 0
    for k in range(GROUPS):
        there, d = group_declaration(k, first, options)
        if not there:
            continue
        trump = d if d >= 0 else s.trump
        if options:  # a group per declaration (MM-5): the kept hand's score differs by trump
            feat.card_gains(w.heads, w.kept, weights, block, 1, lo, hi, ZERO, ZERO, o_lo, o_hi, trump,
                            p.maria_trump != 0, True)
        a_lo, a_hi, value = pol.best_attack(w.heads[0], weights, base, lo, hi, o_lo, o_hi, trump, p.maria_trump != 0,
                                            attack_cap(s), d, greedy)
        if k == 0:  # greedy's decision, first, under its own declaration
            feat.head_scores(w.dots, weights, block, 1, w.heads, w.kept, True, first >= 0, greedy[1], greedy[2], ZERO,
                             ZERO, lo, hi)
            top = w.dots[0]
        value += w.kept[0] + weights[base + feat.DECLARE] * (d >= 0) + held
        if a_lo | a_hi and value > top:
            top, m.declare, m.cards[0], m.cards[1] = value, d, a_lo, a_hi


@njit(cache=True)
def teacher_scores(s: np.void, p: np.void, row: np.ndarray, worlds: int, w: np.void, scores: np.ndarray) -> int:
    """Training labels: ``mc``'s totals for every candidate of ``decision_candidates`` (into ``w.candidates``,
    under ``row``'s ``forbid``): ``worlds`` worlds as ``search`` deals them, each candidate played out with the
    base policy of ``row`` in every seat, 1 per play-out the seat does not lose, into ``scores``. How many
    candidates."""
    n = candidates(s, p, w, row[pol.FORBID])
    scores[:n] = 0
    play_worlds(s, p, row, worlds, n, w, scores)
    return n


RECORD = ("turns", "truncated", "loser", "rounds", "finish", "black_maria_holder", "trump_suit",
          "trump_declared_turn")
"""The int64 fields ``run_games`` writes per game (``finish`` packed as in ``STATE``)."""
AT = jit.positions(RECORD)
"""Where ``record`` writes each column."""


@njit(cache=True)
def record(s: np.void, out: np.ndarray) -> None:
    """The state's record fields, by their ``RECORD`` columns."""
    holder = -1
    for seat in range(s.players):
        if s.hands[seat, 0] & MARIA:
            holder = seat
    out[AT.turns], out[AT.truncated], out[AT.loser], out[AT.rounds] = s.turns, s.truncated, s.loser, s.rounds
    out[AT.finish], out[AT.black_maria_holder], out[AT.trump_suit] = s.finish, holder, s.trump
    out[AT.trump_declared_turn] = s.declared_turn


@njit(cache=True)
def run_games(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, out: np.ndarray,
              w: np.void) -> None:
    """The engine's loop: for each game index, deal, play out, write ``out[i]`` (``RECORD``); ``w`` a
    ``WORK`` record."""
    state = np.zeros(1, STATE)
    move = np.zeros(1, MOVE)
    s, m = state[0], move[0]
    reads = pol.reads_of(policies)
    for i in range(len(games)):
        deal(s, p, jit.game_key(seed, games[i]), w.u, w.order, w.tmp, w.count)
        s.reads = reads
        play_out(s, p, policies, m, w)
        record(s, out[i])


@njit(cache=True)
def play_plain(s: np.void, p: np.void, policies: np.ndarray, m: np.void) -> None:
    """``play_out`` for a policy table without ``mc`` or ``learned``: the same decisions (``choose`` without its
    search and scorer)."""
    while s.phase != OVER:
        respond(s, p, policies[s.seat, pol.CODE], policies[s.seat, pol.FORBID], m)
        apply(s, p, m)


@njit(cache=True)
def run_plain(p: np.void, policies: np.ndarray, seed: np.uint64, games: np.ndarray, out: np.ndarray,
              w: np.void) -> None:
    """``run_games`` for a policy table without ``mc`` or ``learned`` (``play_plain``): a call that plays neither
    compiles no search."""
    state = np.zeros(1, STATE)
    move = np.zeros(1, MOVE)
    s, m = state[0], move[0]
    for i in range(len(games)):
        deal(s, p, jit.game_key(seed, games[i]), w.u, w.order, w.tmp, w.count)
        play_plain(s, p, policies, m)
        record(s, out[i])


def simulate(rules: MustaMaijaRules, players: int, seed: int, games: np.ndarray,
             seats: tuple[str, ...]) -> dict[str, np.ndarray]:
    """``GameSpec.compiled``: one array per record column, game for game the reference engine's."""
    games = np.asarray(games, dtype=np.int64)
    table = pol.table(seats)
    warn_other_rules(seats, rules, players)
    searching = bool((table[:, pol.CODE] >= pol.MC).any())  # mc's or learned's code is in run_games alone
    out = shedding.play("musta_maija", run_games, run_plain, searching, make_params(rules, players)[0], table, seed,
                        games, RECORD, new_work()[0])
    return shedding.record(out, RECORD, games, players)


# --- the reference engine's positions -------------------------------------------------------------

def words(hand: int) -> tuple[int, int]:
    """A reference hand mask as ``(lo, hi)`` (cards.py)."""
    return hand & int(M52), hand >> 52


def joined(lo: np.uint64, hi: np.uint64) -> int:
    """``(lo, hi)`` as a reference hand mask."""
    return int(lo) | int(hi) << 52


def state_from(t: Table) -> np.ndarray:
    """The compiled state (a 1-element array) of a reference table waiting for a decision (a defence when
    the table holds an attack), its reads with it (``barred``, for ``mc``'s worlds); the stock lies at the
    end of the deck, the dealt cards before it are not kept, nor the positions MM-18 remembers (``mc``'s
    worlds forget them anyway). For the reference engine's ``mc`` and for scenario tests."""
    n_cards = len(card_list(t.players))
    state = np.zeros(1, STATE)
    repetition.forget(state[0])  # no position remembered (M-23, MM-18)
    s = state[0]
    s["key"], s["players"], s["n_cards"], s["top"] = t.key, t.players, n_cards, n_cards - len(t.stock)
    s["deck"][s["top"]:n_cards] = t.stock
    for seat in range(t.players):
        s["hands"][seat], s["known"][seat], s["barred"][seat] = words(t.hands[seat]), words(t.known[seat]), \
            words(t.barred[seat])
    s["table"], s["discard"] = words(t.table), words(t.discard)
    s["turned"], s["trump"], s["declared_turn"], s["reads"] = t.turned, t.trump, t.declared_turn, t.reads
    s["attacker"], s["defender"] = t.attacker, defender(t)
    s["out"] = sum(1 << seat for seat in t.out)
    s["finish"] = sum((seat + 1) << 4 * j for j, seat in enumerate(t.out))
    s["n_out"], s["turns"], s["rounds"], s["loser"] = len(t.out), t.turns, t.rounds, -1
    s["phase"] = DEFENCE if t.table else ATTACK
    s["seat"] = s["defender"] if t.table else t.attacker
    return state


def decide_from(t: Table, policy: str) -> tuple[int, int, int]:
    """The decision of the reference table's seat to act by ``policy`` (``mc``, ``learned``: the reference engine's),
    made here on ``state_from(t)``: (suit declared or -1, cards, beaten) as reference hand masks."""
    state, move = state_from(t), np.zeros(1, MOVE)
    jit.first_call(choose, "musta_maija choose", state[0], make_params(t.rules, t.players)[0],
                   pol.table((policy,) * t.players), move[0], new_work()[0])
    m = move[0]
    return int(m["declare"]), joined(*m["cards"]), joined(*m["beaten"])
