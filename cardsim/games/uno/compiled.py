"""Uno compiled engine: one game at a time in numba, on an explicit state that can be copied
and played out. It translates the DECISION PROTOCOL of ``reference.py`` (normative, read it
first) function by function and returns the same records; rule IDs are those of
``docs/rules/uno.md``.

The state (``STATE``, one record ``np.zeros(1, STATE)``) holds one game: hands as counts
per card kind, the draw pile ``pile[ptr:end]`` (``pile[ptr]`` drawn first), the discard
pile as its ``top`` plus counts of the cards under it, the current colour, direction,
pending penalties, the match scores (``target_score``), the counters of the record, and
what each seat has been shown of another's hand (``shown``); the rules go in as a ``PARAMS``
record (``params_of``), read by field name. A state always waits at a *choice* of the player
``current``; ``phase`` says which:

- ``START_COLOUR`` name the colour of a wild starting card (protocol step 1; 0..3);
- ``STACK`` stack a held Draw Two (its kind) or ``TAKE`` the total (step 2, U-11);
- ``CHALLENGE`` challenge a Wild Draw Four (1) or not (0) (step 3, U-14);
- ``CARD`` play a held kind (a Wild Draw Four held with the current colour is a bluff,
  U-13) or ``DRAW`` (step 4, U-6, U-7); a playable drawn card is played, no choice;
- ``TARGET`` the seat to swap hands with (a custom wild, U-16);
- ``COLOUR`` the colour a played wild names, after its effect (U-12, U-15, U-16);
- ``OVER`` the game is over and its record fields are set.

A protocol *decision* (the unit of ``turns``) is one or more choices of one player: the
turn counters advance in ``next_decision`` when the turn passes, so the policy draws of
every choice in it use ``tkey = draw key of (Stream.POLICY, turns - 1)`` and their slots.
``legal_decisions`` lists a choice's options, ``choose`` is a seat's policy (it reads the
deciding seat's ``view`` only: its own hand and public facts), ``apply`` makes the choice
and runs the game on to the next choice; ``play_out`` is ``choose`` and ``apply`` until
``OVER``; ``play_games`` is the engine's batch loop. Per-choice functions allocate
nothing: scratch lives in a ``WORK`` record.

Policies: ``choose`` is ``random`` and ``greedy`` (``policies.py``); ``search`` is ``mc``
(determinized Monte Carlo, docs/design.md): it deals worlds of the hidden cards (``determinize``) and
plays each legal option out in each with the base policy (``roll_out``); ``decide`` is the
seat's policy, whichever it is.

What a seat knows, for determinizing the hidden cards (``mc`` policies): its own hand,
every hand's size, the top and the cards under it (``discard``), the draw pile's size
``end - ptr``, and ``shown[holder, viewer, kind]``: copies of ``kind`` that ``viewer``
knows to be in ``holder``'s hand. A hand is shown to the challenger of a Wild Draw Four
(U-14); after a swap (U-16) each of the two knows the hand they gave away; a played
card leaves the count (a lower bound: drawn cards are unknown); Shuffle Hands (U-15)
and a new deal forget everything. With an ``mc`` seat at the table (``reads``) it also keeps
what the table reads from each seat's choices (``barred``; ``reference.State.barred``).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from cardsim.core import jit, learned, rng
from cardsim.core.jit import DEAL, EXTRA, ONE, POLICY, RESHUFFLE, U, ZERO, below, fold, njit
from cardsim.games.uno import learned_features as feat
from cardsim.games.uno import reference
from cardsim.games.uno.cards import (CUSTOM, DECK_SIZES, DRAW_TWO, GREEDY_WILDS, K, KIND_COLOUR, LEGAL, POINTS,
                                     REVERSE, SHUFFLE, SKIP, WD4, WILD, copies, deck_cards)
from cardsim.games.uno.learned import load_model, warn_other_rules
from cardsim.games.uno.policies import (BASES, BLUFF_BIT, CHALLENGE_BIT, DEFAULTS, GREEDY_PASSES_OVER, LEGAL_BITS,
                                        NAMES, STACK_BIT, Policy, parse_policy)
from cardsim.games.uno.policies import LEARNED as LEARNED_NAME
from cardsim.games.uno.reference import (ANSWER_SLOT, BLUFF_SLOT, CARD, CARD_SLOT, CHALLENGE, COLOUR, COLOUR_SLOT,
                                         DRAW, OVER, SHUFFLE_HANDS_TAG, STACK, START_COLOUR, START_COLOUR_SLOT,
                                         READ_LAYERS, STARTER_TAG, TAKE, TARGET, TARGET_SLOT)
from cardsim.games.uno.rules import UnoRules

MAX_PLAYERS, MAX_CARDS = 10, 112
GREEDY, LEARNED, MC = NAMES.index("greedy"), NAMES.index(LEARNED_NAME), NAMES.index("mc")
POLICY_COLUMNS = CODE, BLUFF_CUT, CHALLENGE_CUT, DETERMINIZATIONS, BASE, SEES, FORBID = range(7)
"""Columns of a seat's row of the ``policy`` array: policy code, ``bluff`` and ``challenge`` as 53-bit cut-offs,
for ``mc`` its worlds per decision, its base policy's code and whether it sees all (``oracle``), and the
``forbid=`` options as bits (``policies.FORBID``); from ``WEIGHTS`` on, the fixed-point weights of the row's
``learned`` policy or of its search's ``learned`` base (``learned_features.WEIGHTS`` of them)."""
WEIGHTS = len(POLICY_COLUMNS)
ROW = WEIGHTS + feat.WEIGHTS
"""The width of a policy table row."""
DEFAULT_CUTS = np.array([[int(DEFAULTS[b][k] * 2**53) for k in ("bluff", "challenge")] for b in BASES],
                        dtype=np.int64)
"""``bluff`` and ``challenge`` cut-offs of each base policy at its defaults (``mc``'s play-outs, its first candidate)."""
PARAMS = np.dtype([(name, np.int64) for name in (
    "n_cards", "hand_size", "until_playable", "stack_draw_two", "wd4_challenge", "custom_wild", "target_score",
    "max_turns")])
"""The rules as the compiled functions read them (``params_of``): ``n_cards`` the deck's size, ``until_playable``
``draw_rule="until_playable"``, ``custom_wild`` an index of ``CUSTOM_RULES``, ``target_score`` 0 = one hand."""
WON = 1 << 20
"""An ``mc`` play-out's score when the seat wins the hand: above the cards it can hold in all its worlds
together (``MAX_DETERMINIZATIONS * MAX_CARDS``), which a lost play-out scores less."""
CUSTOM_RULES = ("wild", "swap_hands", "everyone_draws_one")
"""Codes of the ``custom_wild`` knob (U-16) in ``params``: their index."""
SWAP_HANDS, EVERYONE_DRAWS_ONE = CUSTOM_RULES.index("swap_hands"), CUSTOM_RULES.index("everyone_draws_one")

STATE = np.dtype([
    ("key", np.uint64),                                 # the game key (rng.game_key)
    ("pkey", np.uint64),                                # its policy stream
    ("tkey", np.uint64),                                # the current decision's policy key
    ("players", np.int64),
    ("phase", np.int64),                                # the protocol's phase; OVER once the game ends
    ("current", np.int64),                              # the seat to act
    ("direction", np.int64),                            # +1 or -1 (Reverse, U-10)
    ("hands", np.int8, (MAX_PLAYERS, K)),               # each seat's cards, as counts per kind
    ("size", np.int64, (MAX_PLAYERS,)),                 # cards per hand
    ("colours", np.int64, (MAX_PLAYERS, 4)),            # its cards of each colour (kept with hands: count_colours)
    ("shown", np.int8, (MAX_PLAYERS, MAX_PLAYERS, K)),  # what each seat was shown of each hand
    ("shown_total", np.int64, (MAX_PLAYERS,)),          # ... and how many cards of it
    ("barred", np.uint64, (MAX_PLAYERS, READ_LAYERS)),  # barred[q, j], j < layers[q]: the kinds (bits) and
    ("barred_cards", np.int64, (MAX_PLAYERS, READ_LAYERS)),  # cards the table has read from q's choices
    ("layers", np.int64, (MAX_PLAYERS,)),               # (reference.State.barred)
    ("reads", np.bool_),                                # barred is kept only while an mc seat plays
    ("pile", np.int8, (MAX_CARDS,)),                    # the draw pile
    ("ptr", np.int64),                                  # its next card
    ("end", np.int64),                                  # its end
    ("discard", np.int8, (K,)),                         # the discard pile, as counts per kind
    ("under", np.int64),                                # cards under top
    ("top", np.int64),                                  # the top card of the discard pile
    ("colour", np.int64),                               # the colour to follow (-1: a wild starter waits for it)
    ("pending", np.int64),                              # a stacked Draw Two total for current
    ("challenge_open", np.bool_),                       # a Wild Draw Four that current may challenge (U-13)
    ("wd4_bluffed", np.bool_),                          # ... played illegally
    ("wd4_player", np.int64),                           # ... by this seat
    ("wd4_colour", np.int64),                           # ... on this colour
    ("hand_only", np.bool_),                            # the game ends with this hand (an mc world)
    ("hand_winner", np.int64),                          # the seat that went out of the hand
    ("hand_no", np.int64),                              # the hand being played (0 = the first)
    ("hand_turns", np.int64),                           # its decisions
    ("turns", np.int64),                                # the game's decisions
    ("reshuffles", np.int64),
    ("cards_drawn", np.int64),
    ("challenges", np.int64),
    ("successes", np.int64),                            # successful challenges
    ("scores", np.int64, (MAX_PLAYERS,)),               # match points (U-20)
    ("winner", np.int64),                               # the record's once phase == OVER
    ("points", np.int64),                               # ...
    ("truncated", np.bool_),                            # ...
], align=True)
"""One game of the DECISION PROTOCOL (a field per line, as ``reference.State`` names it where it has it)."""

MIRRORED = tuple(name for name in STATE.names if STATE[name].shape == ()
                 and name in {f.name for f in dataclasses.fields(reference.State)})
"""The scalar fields ``state_from`` copies from ``reference.State``'s fields of the same name (derived)."""
RENAMED = {"pending": "pending_draw", "successes": "successful_challenges"}
"""The scalar fields ``reference.State`` names otherwise."""

WORK = np.dtype([
    ("u", np.uint64, (MAX_CARDS,)), ("order", np.int64, (MAX_CARDS,)), ("cards", np.int8, (MAX_CARDS,)),
    ("count", np.int64, (jit.BUCKETS + 1,)), ("deck", np.int8, (MAX_CARDS,)), ("copies", np.int64, (K,)),
    ("hidden", np.int64, (K,)), ("legal", np.int64, (K + 1,)), ("options", np.int64, (K + 1,)),
    ("score", np.int64, (K + 1,)), ("used", np.int8, (MAX_CARDS,)),
    ("need", np.int64, (MAX_PLAYERS,)), ("table", np.int64, (MAX_PLAYERS, ROW)),
    ("gtable", np.int64, (MAX_PLAYERS, ROW)), ("seats", np.int64, (MAX_PLAYERS, ROW)),
    ("loptions", np.int64, (K + 1,)), ("features", np.int64, (feat.N,)),
    ("unseen", np.int64, (4,)), ("worlds", STATE, (2,)),
], align=True)
"""Scratch of one game loop: keyed draws, orders and their bucket counts, a card list, the canonical deck
and its copies per kind (filled by ``new_work``); for ``search``: the hidden cards per
kind, the legal options, the candidates and their scores, the hidden cards dealt (``used``) and the cards
each hand still needs in a world, the play-outs' policy table, a world and a play-out state; for the
candidates, greedy's table (``gtable``); the seats' own table (``seats``, ``seat_table``); for ``learned``, its
candidates, one's features and the unseen cards per colour. The three tables have one shape, so numba types them
alike and compiles ``choose`` and the other table readers once in the search loop, not once per shape."""

RECORD = ("turns", "truncated", "winner", "points", "hands", "cards_drawn", "reshuffles", "challenges",
          "successful_challenges")
"""The record columns (beside ``game``) that ``record_into`` writes."""
AT = jit.positions(RECORD)
"""Where ``record_into`` writes each column."""


def in_plain_loop(call, caller, callee) -> bool:
    """numba's inlining cost model (``inline=``) of the functions a ``random`` or ``greedy`` game runs through:
    copied into ``play_plain``, whose loop then compiles as one function (no calls, argument packing or refcounts
    between them: a fifth of its time), called from everywhere else (the search loops compile as before)."""
    return caller.func_id.func is play_plain.py_func


# ---------------------------------------------------------------- small facts

@njit(cache=True, inline=in_plain_loop)
def seat(s, steps: int) -> int:
    """The player ``steps`` places (``0 < steps <= players``) from the current one in the direction of play."""
    x, n = s.current + steps * s.direction, s.players
    return x + n if x < 0 else x - n if x >= n else x  # past an end at most once: no division, no branch


@njit(cache=True, inline=in_plain_loop)
def u(s, slot: int) -> np.uint64:
    """Policy draw ``slot`` of the decision being made."""
    return fold(s.tkey, slot)


@njit(cache=True, inline=in_plain_loop)
def chance(x: np.uint64, cut: int) -> bool:
    """``(u >> 11) < cut``: an event of probability ``cut / 2**53`` (``policies.chance``)."""
    return (x >> U(11)) < U(cut)


@njit(cache=True, inline=in_plain_loop)
def colour_held(s, p: int, colour: int) -> int:
    """Cards of ``colour`` in ``p``'s hand."""
    return s.colours[p, colour]


@njit(cache=True)
def count_colours(s, p: int) -> None:
    """``colours[p]`` counted from ``hands[p]``, after a hand was dealt or set as a whole."""
    for c in range(4):
        n = 0
        for k in range(c * 13, c * 13 + 13):
            n += s.hands[p, k]
        s.colours[p, c] = n


@njit(cache=True, inline=in_plain_loop)
def wd4_is_legal(s, p: int) -> bool:
    """U-13: a Wild Draw Four is legal only without a card of the current colour."""
    return colour_held(s, p, s.colour) == 0


@njit(cache=True, inline=in_plain_loop)
def playable(s, p: int, kind: int) -> bool:
    """U-6, U-12, U-13: may ``p`` legally play ``kind`` now (held or not)?"""
    return LEGAL[s.colour, s.top, kind] & ((kind != WD4) | wd4_is_legal(s, p))  # bitwise: no branch but the caller's


@njit(cache=True)
def hand_points(s, winner: int) -> int:
    """U-19: the points of the cards left in the other hands."""
    total = 0
    for p in range(s.players):
        if p != winner:
            for k in range(K):
                total += POINTS[k] * s.hands[p, k]
    return total


# ---------------------------------------------------------------- cards moving

@njit(cache=True)
def order_cards(key: np.uint64, word: int, counter: int, cards, start: int, m: int, w) -> None:
    """``cards[start:start + m]`` put in keyed order, words ``(word, counter)`` after ``key``."""
    jit.permutation_into(key, word, counter, m, w.u, w.order, w.count)
    for i in range(m):
        w.cards[i] = cards[start + w.order[i]]
    for i in range(m):
        cards[start + i] = w.cards[i]


@njit(cache=True)
def reshuffle(s, w) -> None:
    """U-8: the cards under the top, in canonical order, in keyed order ``(RESHUFFLE, r)``, become the pile."""
    m = 0
    for k in range(K):
        for _ in range(s.discard[k]):
            s.pile[m] = k
            m += 1
        s.discard[k] = 0
    order_cards(s.key, RESHUFFLE, s.reshuffles, s.pile, 0, m, w)
    s.ptr, s.end, s.under = 0, m, 0
    s.reshuffles += 1


@njit(cache=True, inline=in_plain_loop)
def take_card(s, p: int, kind: int) -> None:
    """A card of ``kind`` goes into ``p``'s hand: its count, the hand's size and its colour's count."""
    s.hands[p, kind] += 1
    s.size[p] += 1
    s.colours[p, KIND_COLOUR[kind]] += 1 if kind < WILD else 0  # no branch on the card


@njit(cache=True, inline=in_plain_loop)
def draw_card(s, p: int, w) -> int:
    """``p`` draws one card, reshuffling when the pile is empty (U-8): the card, or -1 when none is left."""
    if s.ptr == s.end:
        if s.under == 0:
            return -1
        reshuffle(s, w)
    card = np.int64(s.pile[s.ptr])
    s.ptr += 1
    take_card(s, p, card)
    s.cards_drawn += 1
    return card


@njit(cache=True, inline=in_plain_loop)
def draw_cards(s, p: int, n: int, w) -> None:
    """``p`` draws ``n`` cards, fewer if the cards run out (U-8)."""
    for _ in range(n):
        if draw_card(s, p, w) < 0:
            return


@njit(cache=True, inline=in_plain_loop)
def remove_card(s, p: int, kind: int) -> None:
    """A card leaves ``p``'s hand face up: whoever knew of a copy there knows one copy less; a read layer
    whose kinds do not include it may have lost a card (``reference.leaves_hand``)."""
    s.hands[p, kind] -= 1
    s.size[p] -= 1
    s.colours[p, KIND_COLOUR[kind]] -= 1 if kind < WILD else 0
    for j in range(s.layers[p]):
        if s.barred_cards[p, j] > 0 and (s.barred[p, j] >> U(kind)) & ONE == ZERO:
            s.barred_cards[p, j] -= 1
    if s.shown_total[p] > 0:
        for viewer in range(s.players):
            if s.shown[p, viewer, kind] > 0:
                s.shown[p, viewer, kind] -= 1
                s.shown_total[p] -= 1


@njit(cache=True)
def read(s, q: int, mask: np.uint64, cards: int) -> None:
    """The table reads that ``cards`` of ``q``'s cards are none of the kinds of ``mask`` (bits;
    ``reference.read``): every older layer, whose cards ``q`` still holds, bars them too, and they become the
    newest layer (the oldest of ``READ_LAYERS`` is dropped). An empty mask tells nothing. Called only while
    ``reads`` (an ``mc`` seat is at the table): nobody else looks."""
    if mask == ZERO:
        return
    n = min(s.layers[q], READ_LAYERS - 1)
    for j in range(n, 0, -1):
        s.barred[q, j] = s.barred[q, j - 1] | mask
        s.barred_cards[q, j] = s.barred_cards[q, j - 1]
    s.barred[q, 0] = mask
    s.barred_cards[q, 0] = cards
    s.layers[q] = n + 1


@njit(cache=True)
def show_hand(s, holder: int, viewer: int) -> None:
    """``viewer`` sees ``holder``'s whole hand."""
    seen = 0  # cards not shown to ``viewer`` before
    for k in range(K):
        seen += s.hands[holder, k] - s.shown[holder, viewer, k]
        s.shown[holder, viewer, k] = s.hands[holder, k]
    s.shown_total[holder] += seen


@njit(cache=True)
def forget_hands(s) -> None:
    """Nobody knows anything of another's hand (a new deal, U-15)."""
    for p in range(s.players):
        s.layers[p] = 0  # and nothing read of it
        if s.shown_total[p] > 0:
            s.shown[p, :, :] = 0
            s.shown_total[p] = 0


# ---------------------------------------------------------------- turn order

@njit(cache=True)
def game_over(s, winner: int, points: int, truncated: bool) -> None:
    s.winner, s.points, s.truncated, s.phase = winner, points, truncated, OVER


@njit(cache=True, inline=in_plain_loop)
def turn_phase(s) -> int:
    """The first choice of a decision after the starting colour: steps 2, 3 or 4 of the protocol."""
    if s.pending > 0:
        return STACK
    if s.challenge_open:
        return CHALLENGE
    return CARD


@njit(cache=True, inline=in_plain_loop)
def next_decision(s, params) -> None:
    """The turn has passed to ``current``: their decision begins, unless the hand is truncated (U-21)."""
    if s.hand_turns >= params.max_turns:
        game_over(s, -1, 0, True)
        return
    s.turns += 1
    s.hand_turns += 1
    s.tkey = jit.fold_count(s.pkey, s.turns - 1)
    s.phase = START_COLOUR if s.colour < 0 else turn_phase(s)


# ---------------------------------------------------------------- deal and start (U-4, U-5)

@njit(cache=True)
def deal(s, params, w) -> None:
    """U-4, U-5: hand ``hand_no``, dealt by ``hand_no mod P``; the starting card turned and applied."""
    players, hand_size, n = s.players, params.hand_size, params.n_cards
    dealer = s.hand_no % players
    jit.permutation_into(s.key, DEAL, s.hand_no, n, w.u, w.order, w.count)
    s.hands[:, :] = 0
    s.size[:] = 0
    forget_hands(s)
    dealt = hand_size * players
    s.colours[:, :] = 0
    p = dealer
    for j in range(dealt):
        p = p + 1 if p + 1 < players else 0  # one card at a time from the dealer's left
        take_card(s, p, np.int64(w.deck[w.order[j]]))  # one specialisation
    for j in range(dealt, n):
        s.pile[j - dealt] = w.deck[w.order[j]]
    s.ptr, s.end = 0, n - dealt
    s.discard[:] = 0
    s.under, s.hand_turns, s.hand_winner, s.direction, s.pending = 0, 0, -1, 1, 0
    s.challenge_open = False
    s.top = s.pile[s.ptr]
    s.ptr += 1
    attempt = 0
    while s.top == WD4:  # U-5: the forbidden starter goes back on top, the pile in keyed order
        s.ptr -= 1
        order_cards(fold(fold(s.key, EXTRA), STARTER_TAG), s.hand_no, attempt, s.pile, s.ptr, s.end - s.ptr, w)
        s.top = s.pile[s.ptr]
        s.ptr += 1
        attempt += 1
    start_with_card(s, dealer, params, w)


@njit(cache=True)
def start_with_card(s, dealer: int, params, w) -> None:
    """U-5: the starting card counts as if the dealer had played it."""
    top = s.top
    s.colour = top // 13 if top < WILD else -1  # a wild: seat 1 names it in its first decision
    s.current = dealer
    if top < WILD and top % 13 == SKIP:
        s.current = seat(s, 2)
    elif top < WILD and top % 13 == REVERSE:
        s.direction = -1  # the dealer plays first, then to the dealer's right
    elif top < WILD and top % 13 == DRAW_TWO:
        play_draw_two(s, params, w)
    else:
        s.current = seat(s, 1)
    next_decision(s, params)


@njit(cache=True)
def new_game(s, params, players: int, key: np.uint64, w) -> None:
    """Game ``key`` from its start: counters at zero, the first hand dealt, seat 1's choice waiting."""
    s.key, s.pkey, s.players = key, fold(key, POLICY), players
    s.turns = s.hand_no = s.reshuffles = s.cards_drawn = s.challenges = s.successes = 0
    s.wd4_bluffed, s.wd4_player, s.wd4_colour, s.hand_only = False, -1, -1, False
    s.scores[:] = 0
    s.winner, s.points, s.truncated = -1, 0, False
    deal(s, params, w)


# ---------------------------------------------------------------- effects of a play

@njit(cache=True, inline=in_plain_loop)
def play_card(s, kind: int, params, w) -> None:
    """The current player plays ``kind`` (U-6..U-18): discard, effects, then a choice or the next player."""
    p = s.current
    if kind == WD4:  # U-13: whether it is a bluff is known to its player; a challenge will tell
        s.wd4_bluffed, s.wd4_colour = not wd4_is_legal(s, p), s.colour
    remove_card(s, p, kind)
    s.discard[s.top] += 1
    s.under += 1
    s.top = kind
    s.colour = KIND_COLOUR[kind] if kind < WILD else s.colour  # a wild's is named next (U-12)
    if s.size[p] == 0:
        finish_with_last_card(s, kind, params, w)
        return
    symbol = kind % 13 if kind < WILD else kind
    if symbol < SKIP:
        s.current = seat(s, 1)  # a number: the turn passes (the most frequent play, tested first)
    elif symbol == SKIP:
        s.current = seat(s, 2)  # U-9: with two players this is the player again
    elif symbol == REVERSE:
        s.direction = -s.direction  # U-10
        s.current = seat(s, 1 if s.players > 2 else 2)
    elif symbol == DRAW_TWO:
        play_draw_two(s, params, w)  # U-11
    elif kind == WD4:
        s.phase = COLOUR  # U-13: the colour is named, then the next player is hit
        return
    elif kind == SHUFFLE:
        shuffle_hands(s, w)  # U-15, then the colour
        s.phase = COLOUR
        return
    elif kind == CUSTOM:
        play_custom_wild(s, params, w)  # U-16
        return
    else:
        s.phase = COLOUR  # a Wild (U-12)
        return
    next_decision(s, params)


@njit(cache=True, inline=in_plain_loop)
def after_wild(s, params, w) -> None:
    """The wild's colour is named (U-12): a Wild Draw Four now hits the next player, other wilds pass the turn."""
    if s.top == WD4:
        play_wild_draw_four(s, params, w)
    else:
        s.current = seat(s, 1)
    next_decision(s, params)


@njit(cache=True, inline=in_plain_loop)
def play_draw_two(s, params, w) -> None:
    """U-11: the next player draws two and loses the turn; stacking hands them the total."""
    if params.stack_draw_two:
        s.pending += 2
        s.current = seat(s, 1)
    else:
        draw_cards(s, seat(s, 1), 2, w)
        s.current = seat(s, 2)


@njit(cache=True, inline=in_plain_loop)
def play_wild_draw_four(s, params, w) -> None:
    """U-13: the next player draws four and loses the turn, unless they may challenge (U-14)."""
    if params.wd4_challenge:
        s.challenge_open, s.wd4_player = True, s.current
        s.current = seat(s, 1)
    else:
        draw_cards(s, seat(s, 1), 4, w)
        s.current = seat(s, 2)


@njit(cache=True)
def shuffle_hands(s, w) -> None:
    """U-15: all hands merged in canonical order, keyed order ``(EXTRA, 0, t)``, dealt one at a time
    from the next player in the direction of play; nobody knows where a card went."""
    m = 0
    for k in range(K):
        for p in range(s.players):
            for _ in range(s.hands[p, k]):
                w.cards[m] = k
                m += 1
            s.hands[p, k] = 0
    s.size[:] = 0
    forget_hands(s)
    jit.permutation_into(fold(s.key, EXTRA), SHUFFLE_HANDS_TAG, s.turns - 1, m, w.u, w.order, w.count)
    s.colours[:, :] = 0
    for j in range(m):
        take_card(s, seat(s, 1 + j % s.players), np.int64(w.cards[w.order[j]]))


@njit(cache=True)
def play_custom_wild(s, params, w) -> None:
    """U-16: the table's rule on the blank wilds; a swap asks for its target, then the colour is named."""
    rule = params.custom_wild
    if rule == SWAP_HANDS:
        s.phase = TARGET
        return
    if rule == EVERYONE_DRAWS_ONE:
        everyone_draws_one(s, w)
    s.phase = COLOUR


@njit(cache=True)
def everyone_draws_one(s, w) -> None:
    """U-16: every other player draws one card, in the direction of play."""
    for i in range(1, s.players):
        draw_cards(s, seat(s, i), 1, w)


@njit(cache=True)
def swap_hands(s, other: int) -> None:
    """U-16: the current player swaps hands with ``other``; each of the two knows the hand they gave."""
    p = s.current
    for k in range(K):
        s.hands[p, k], s.hands[other, k] = s.hands[other, k], s.hands[p, k]
    s.size[p], s.size[other] = s.size[other], s.size[p]
    for c in range(4):
        s.colours[p, c], s.colours[other, c] = s.colours[other, c], s.colours[p, c]
    for viewer in range(s.players):  # what anyone knew of a hand follows the hand
        for k in range(K):
            s.shown[p, viewer, k], s.shown[other, viewer, k] = s.shown[other, viewer, k], s.shown[p, viewer, k]
    s.shown_total[p], s.shown_total[other] = s.shown_total[other], s.shown_total[p]
    for j in range(READ_LAYERS):  # and what was read of it
        s.barred_cards[p, j], s.barred_cards[other, j] = s.barred_cards[other, j], s.barred_cards[p, j]
        s.barred[p, j], s.barred[other, j] = s.barred[other, j], s.barred[p, j]
    s.layers[p], s.layers[other] = s.layers[other], s.layers[p]
    for holder in (p, other):
        for k in range(K):  # one's own hand is not "shown"
            s.shown_total[holder] -= s.shown[holder, holder, k]
            s.shown[holder, holder, k] = 0
    show_hand(s, other, p)
    show_hand(s, p, other)


@njit(cache=True)
def finish_with_last_card(s, kind: int, params, w) -> None:
    """U-18: the player is out and wins the hand; a draw card still makes the others draw."""
    if kind < WILD and kind % 13 == DRAW_TWO:
        draw_cards(s, seat(s, 1), s.pending + 2, w)
    elif kind == WD4:
        draw_cards(s, seat(s, 1), 4, w)
    elif kind == CUSTOM and params.custom_wild == EVERYONE_DRAWS_ONE:
        everyone_draws_one(s, w)
    s.pending = 0
    s.hand_winner = s.current
    end_hand(s, params, w)


@njit(cache=True)
def end_hand(s, params, w) -> None:
    """U-19, U-20: the winner scores the cards left; the game ends, or the next hand is dealt."""
    winner = s.hand_winner
    gained = hand_points(s, winner)
    s.scores[winner] += gained
    target = params.target_score
    if target == 0 or s.hand_only:
        game_over(s, winner, gained, False)
    elif s.scores[winner] >= target:
        game_over(s, winner, s.scores[winner], False)
    else:
        s.hand_no += 1
        deal(s, params, w)


# ---------------------------------------------------------------- answering penalties, drawing

@njit(cache=True)
def answer_draw_two(s, kind: int, params, w) -> None:
    """U-11 stacking: stack the Draw Two ``kind``, or ``TAKE`` the total and lose the turn."""
    if kind >= 0:
        play_card(s, kind, params, w)
        return
    draw_cards(s, s.current, s.pending, w)
    s.pending = 0
    s.current = seat(s, 1)
    next_decision(s, params)


@njit(cache=True, inline=in_plain_loop)
def answer_wild_draw_four(s, challenge: int, params, w) -> None:
    """U-14: draw 4 and lose the turn; or challenge: the hand is shown to the challenger, and a bluffer
    draws 4 (the challenger then plays a normal turn), else the challenger draws 6 and loses the turn."""
    s.challenge_open = False
    p = s.current
    if challenge == 0:
        draw_cards(s, p, 4, w)
    else:
        s.challenges += 1
        show_hand(s, s.wd4_player, p)
        if s.wd4_bluffed:
            s.successes += 1
            draw_cards(s, s.wd4_player, 4, w)
            s.phase = CARD
            return
        draw_cards(s, p, 6, w)
    s.current = seat(s, 1)
    next_decision(s, params)


@njit(cache=True, inline=in_plain_loop)
def draw_for_turn(s, params, w) -> None:
    """U-7: draw one card (or until a playable one comes); a playable drawn card is played, else the turn passes.
    The table reads that the cards kept could not be played (``reference.normal_turn``)."""
    p = s.current
    while True:
        card = draw_card(s, p, w)
        if card < 0:
            break
        if playable(s, p, card):
            if s.reads:
                read(s, p, LEGAL_BITS[s.colour, s.top], s.size[p] - 1)
            play_card(s, card, params, w)
            return
        if not params.until_playable:
            break
    if s.reads:
        read(s, p, LEGAL_BITS[s.colour, s.top], s.size[p])
    s.current = seat(s, 1)
    next_decision(s, params)


# ---------------------------------------------------------------- choices: list, choose, apply

@njit(cache=True)
def legal_decisions(s, out) -> int:
    """The options of the waiting choice written to ``out`` (room for ``K + 1``); how many."""
    p, phase, n = s.current, s.phase, 0
    if phase == CARD:
        for k in range(K):
            if s.hands[p, k] > 0 and LEGAL[s.colour, s.top, k]:  # a Wild Draw Four even as a bluff (U-13)
                out[n] = k
                n += 1
        out[n] = DRAW
        n += 1
    elif phase == STACK:
        for c in range(4):
            if s.hands[p, c * 13 + DRAW_TWO] > 0:
                out[n] = c * 13 + DRAW_TWO
                n += 1
        out[n] = TAKE
        n += 1
    elif phase == CHALLENGE:
        out[0], out[1] = 0, 1
        n = 2
    elif phase == COLOUR or phase == START_COLOUR:
        for c in range(4):
            out[c] = c
        n = 4
    elif phase == TARGET:
        for i in range(1, s.players):
            out[n] = (p + i) % s.players
            n += 1
    return n


@njit(cache=True, inline=in_plain_loop)
def apply(s, choice: int, params, w) -> None:
    """Make the waiting choice and run the game on to the next choice (or to its end)."""
    phase = s.phase
    if phase == CARD:
        if choice == DRAW:
            draw_for_turn(s, params, w)
        else:
            if s.reads:  # the card played leaves this layer
                read(s, s.current, GREEDY_PASSES_OVER[s.colour, s.top, choice], s.size[s.current])
            play_card(s, choice, params, w)
    elif phase == COLOUR:
        s.colour = choice
        after_wild(s, params, w)
    elif phase == STACK:
        answer_draw_two(s, choice, params, w)
    elif phase == CHALLENGE:
        answer_wild_draw_four(s, choice, params, w)
    elif phase == TARGET:
        swap_hands(s, choice)
        s.phase = COLOUR
    elif phase == START_COLOUR:
        s.colour = choice  # U-5: a wild starter's colour, then the turn goes on
        s.phase = turn_phase(s)


@njit(cache=True, inline=in_plain_loop)
def greedy_colour(s, p: int) -> int:
    """The colour ``p`` holds most cards of, ties to the first of R, Y, G, B."""
    best, most = 0, -1
    for c in range(4):
        n = colour_held(s, p, c)
        if n > most:
            best, most = c, n
    return best


@njit(cache=True, inline=in_plain_loop)
def random_card(s, p: int, x: np.uint64) -> int:
    """The ``x mod n``-th of the ``n`` legal cards held, copies counted, in kind order (-1 if none).

    The kinds that can be legal (U-6, U-12): the current colour's 13, the top's number or symbol in
    the other colours, the wilds; a Wild Draw Four only without a card of the current colour (U-13).
    """
    hand, colour = s.hands[p], s.colour
    symbol = s.top % 13 if s.top < WILD else -1
    of_colour = s.colours[p, colour]
    n = of_colour + hand[WILD] + hand[SHUFFLE] + hand[CUSTOM] + (hand[WD4] if of_colour == 0 else 0)
    if symbol >= 0:
        for c in range(4):
            if c != colour:
                n += hand[c * 13 + symbol]
    if n == 0:
        return -1
    r = below(x, n)
    for c in range(4):
        if c == colour:
            if r >= of_colour:  # not one of this colour: pass them all
                r -= of_colour
                continue
            before, held = 0, 0  # the colour's kinds whose cards all come before card r: no branch on it
            for k in range(c * 13, c * 13 + 12):
                held += hand[k]
                before += held <= r
            return c * 13 + before
        elif symbol >= 0:
            r -= hand[c * 13 + symbol]
            if r < 0:
                return c * 13 + symbol
    for k in range(WILD, K):
        if k != WD4 or of_colour == 0:
            r -= hand[k]
            if r < 0:
                return k
    return -1


@njit(cache=True, inline=in_plain_loop)
def greedy_card(s, p: int) -> int:
    """The legal held kind of highest score (``policies.greedy_card``; ties to the lowest kind), -1 if none:
    the current colour's highest symbol (3000 + symbol); else the top's number or symbol in the colour
    held most (2000 + cards of that colour); else W+4 (legal: no card of the colour), W, CW, SH."""
    hand, colour = s.hands[p], s.colour
    for k in range(colour * 13 + 12, colour * 13 - 1, -1):
        if hand[k] > 0:
            return k
    best, most = -1, -1
    if s.top < WILD:
        symbol = s.top % 13
        for c in range(4):
            if c != colour and hand[c * 13 + symbol] > 0:
                n = colour_held(s, p, c)
                if n > most:
                    best, most = c * 13 + symbol, n
    if best >= 0:
        return best
    for k in GREEDY_WILDS:
        if hand[k] > 0:
            return k
    return -1


@njit(cache=True)
def random_stack(s, p: int, x: np.uint64) -> int:
    """With ``n`` Draw Twos held, ``r = x mod (n + 1)``: the ``r``-th in kind order, or ``TAKE`` for ``r = n``."""
    n = 0
    for c in range(4):
        n += s.hands[p, c * 13 + DRAW_TWO]
    r = below(x, n + 1)
    for c in range(4):
        r -= s.hands[p, c * 13 + DRAW_TWO]
        if r < 0:
            return c * 13 + DRAW_TWO
    return TAKE


@njit(cache=True)
def greedy_stack(s, p: int) -> int:
    """The held Draw Two of the colour held most, ties to the first colour; ``TAKE`` without one."""
    best, most = TAKE, -1
    for c in range(4):
        if s.hands[p, c * 13 + DRAW_TWO] > 0:
            n = colour_held(s, p, c)
            if n > most:
                best, most = c * 13 + DRAW_TWO, n
    return best


@njit(cache=True)
def greedy_target(s, p: int) -> int:
    """The other player holding fewest cards, ties to the first clockwise."""
    best, fewest = -1, 1 << 30
    for i in range(1, s.players):
        q = (p + i) % s.players
        if s.size[q] < fewest:
            best, fewest = q, s.size[q]
    return best


@njit(cache=True, inline=in_plain_loop)
def choose(s, policy) -> int:
    """The choice of seat ``current``'s policy, ``random`` or ``greedy`` (``policies.py``), from that seat's view
    only: its own hand, the hand sizes, the top, the colour and the decision's policy draws; never a ``forbid``
    option (``policies.FORBID``) while another choice is legal."""
    p, phase = s.current, s.phase
    greedy = policy[p, CODE] == GREEDY
    forbid = policy[p, FORBID]
    if phase == CARD:
        if policy[p, BLUFF_CUT] > 0 and s.hands[p, WD4] > 0 and not wd4_is_legal(s, p) \
                and not forbid & BLUFF_BIT and chance(u(s, BLUFF_SLOT), policy[p, BLUFF_CUT]):
            return WD4
        return greedy_card(s, p) if greedy else random_card(s, p, u(s, CARD_SLOT))
    if phase == COLOUR:
        return greedy_colour(s, p) if greedy else below(u(s, COLOUR_SLOT), 4)
    if phase == STACK:
        if forbid & STACK_BIT:
            return TAKE
        return greedy_stack(s, p) if greedy else random_stack(s, p, u(s, ANSWER_SLOT))
    if phase == CHALLENGE:
        return 1 if not forbid & CHALLENGE_BIT and chance(u(s, ANSWER_SLOT), policy[p, CHALLENGE_CUT]) else 0
    if phase == TARGET:
        return greedy_target(s, p) if greedy else (p + 1 + below(u(s, TARGET_SLOT), s.players - 1)) % s.players
    if phase == START_COLOUR:
        return greedy_colour(s, p) if greedy else below(u(s, START_COLOUR_SLOT), 4)
    return -1


# ---------------------------------------------------------------- mc: determinized Monte Carlo (docs/design.md)

@njit(cache=True)
def fill_table(table, players: int, code: int) -> None:
    """Every seat of ``table`` plays the base policy ``code`` with its default bluff and challenge, forbidden
    nothing."""
    for q in range(players):
        table[q, CODE] = code
        table[q, BLUFF_CUT], table[q, CHALLENGE_CUT] = DEFAULT_CUTS[code, 0], DEFAULT_CUTS[code, 1]
        table[q, FORBID] = 0


@njit(cache=True)
def fill_playouts(table, players: int, p: int, row) -> None:
    """The play-outs' table of the search of row ``row`` by seat ``p``: its base in every seat (with the
    row's ``learned`` weights), ``p`` forbidden what the row forbids (its own play-out decisions)."""
    fill_table(table, players, row[BASE])
    if row[BASE] == LEARNED:
        for q in range(players):
            table[q, WEIGHTS:] = row[WEIGHTS:]
    table[p, FORBID] = row[FORBID]


@njit(cache=True)
def forbidden(s, p: int, option: int, forbid: int) -> bool:
    """Whether ``option`` of the waiting choice is one of the ``forbid`` options (``policies.FORBID``)."""
    phase = s.phase
    if phase == STACK:
        return forbid & STACK_BIT != 0 and option != TAKE
    if phase == CHALLENGE:
        return forbid & CHALLENGE_BIT != 0 and option == 1
    if phase == CARD:
        return forbid & BLUFF_BIT != 0 and option == WD4 and not wd4_is_legal(s, p)
    return False


@njit(cache=True)
def higher_number_playable(s, p: int, kind: int) -> bool:
    """``kind`` is a number card and ``p`` may play a higher number of its colour."""
    if kind >= WILD or kind % 13 > 9:
        return False
    for k in range(kind + 1, kind - kind % 13 + 10):
        if s.hands[p, k] > 0 and LEGAL[s.colour, s.top, k]:
            return True
    return False


@njit(cache=True)
def worth_searching(s, p: int, option: int, first: int) -> bool:
    """Whether a legal option other than greedy's choice ``first`` is an ``mc`` candidate (``policies.py``):
    no drawing while a card can be played (U-7), no wild unless greedy's choice is one, no number card below
    a playable higher number of its colour, no colour of which ``p`` holds no card."""
    phase = s.phase
    if phase == CARD:
        if option == DRAW or (option >= WILD and first < WILD):
            return False
        return not higher_number_playable(s, p, option)
    if phase == COLOUR or phase == START_COLOUR:
        return colour_held(s, p, option) > 0
    return True


@njit(cache=True)
def candidates(s, forbid: int, w, out) -> int:
    """``out``: greedy's choice (at its default bluff and challenge, forbidden ``forbid``), then the other
    legal options worth searching and not forbidden, in the order of ``legal_decisions``; how many. A card
    to play under a named colour is ``card_candidates``' (the same list, fewer kinds looked at)."""
    p = s.current
    fill_table(w.gtable, s.players, GREEDY)
    w.gtable[p, FORBID] = forbid
    first = choose(s, w.gtable)
    out[0] = first
    if s.phase == CARD and s.colour >= 0:
        return card_candidates(s, p, first, forbid, out)
    m = 1
    for i in range(legal_decisions(s, w.legal)):
        option = w.legal[i]
        if option != first and worth_searching(s, p, option, first) and not forbidden(s, p, option, forbid):
            out[m] = option
            m += 1
    return m


@njit(cache=True)
def card_candidates(s, p: int, first: int, forbid: int, out) -> int:
    """``candidates`` of a card to play while a colour is named (``out[0]``: greedy's ``first``), in kind order as
    ``legal_decisions`` lists them, looking only at the kinds that can be legal (U-6, U-12): the named colour's,
    the top's symbol in the other colours, the wilds. Of the named colour's numbers only the highest held
    is worth searching (``higher_number_playable``: a higher number of the named colour is always legal);
    a number of another colour goes on the top by its symbol, so none of its colour's higher numbers can;
    drawing never is a candidate, a wild only when ``first`` is one (``worth_searching``). How many."""
    hand, colour, m = s.hands[p], s.colour, 1
    symbol = s.top % 13 if s.top < WILD else -1
    base = colour * 13
    highest = -1
    for k in range(base + 9, base - 1, -1):
        if hand[k] > 0:
            highest = k
            break
    for c in range(4):
        if c == colour:
            if highest >= 0 and highest != first:
                out[m] = highest
                m += 1
            for k in range(base + 10, base + 13):
                if hand[k] > 0 and k != first:
                    out[m] = k
                    m += 1
        elif symbol >= 0:
            k = c * 13 + symbol
            if hand[k] > 0 and k != first:
                out[m] = k
                m += 1
    if first >= WILD:
        for k in range(WILD, K):
            if hand[k] > 0 and k != first and not forbidden(s, p, k, forbid):
                out[m] = k
                m += 1
    return m


@njit(cache=True)
def hidden_cards(s, w) -> None:
    """``w.hidden``: the copies of each kind that the current player cannot see, from its view only: the deck
    less its own hand, the discard pile and its top, and what it was shown of each other hand."""
    p = s.current
    for k in range(K):
        n = w.copies[k] - s.hands[p, k] - s.discard[k]
        for q in range(s.players):
            if q != p:
                n -= s.shown[q, p, k]
        w.hidden[k] = n
    w.hidden[s.top] -= 1


@njit(cache=True)
def deal_world(world, m: int, w) -> None:
    """The other hands and the pile of a world from its hidden cards ``world.pile[:m]`` (in keyed order). Each
    other hand gets what the player was shown of it; then, its oldest read layer first, the first cards in
    order that are none of the layer's kinds until the layer's cards are in the hand (its shown cards count
    first; as far as the cards go); then, seat by seat, the first cards left, to its size. The rest, in
    order, is the draw pile."""
    p = world.current
    w.used[:m] = 0
    for q in range(world.players):
        if q == p:
            continue
        known = 0
        for k in range(K):
            world.hands[q, k] = world.shown[q, p, k]
            known += world.shown[q, p, k]
        w.need[q] = world.size[q] - known
        for j in range(world.layers[q] - 1, -1, -1):
            barred = min(world.barred_cards[q, j], world.size[q]) - known
            i = 0
            while world.size[q] - w.need[q] - known < barred and i < m:
                if not w.used[i] and (world.barred[q, j] >> U(world.pile[i])) & ONE == ZERO:
                    w.used[i] = 1
                    world.hands[q, world.pile[i]] += 1
                    w.need[q] -= 1
                i += 1
    i = 0
    for q in range(world.players):
        while q != p and w.need[q] > 0:
            if not w.used[i]:
                w.used[i] = 1
                world.hands[q, world.pile[i]] += 1
                w.need[q] -= 1
            i += 1
    n = 0
    for i in range(m):
        if not w.used[i]:
            world.pile[n] = world.pile[i]
            n += 1
    world.ptr, world.end = 0, n
    for q in range(world.players):
        count_colours(world, q)


@njit(cache=True)
def determinize(world, key: np.uint64, w) -> None:
    """World ``key`` of a copy of the searched state: the hidden cards (``w.hidden``) in keyed order
    ``(DEAL, 0)`` after ``key`` are dealt to the other hands and the pile (``deal_world``). A Wild Draw Four
    waiting for its challenge is a bluff when its player's world hand holds the colour it was played on
    (U-13). The world forgets what anyone was shown or read, its game key is ``key`` (its play-outs' draws)
    and it ends with the hand."""
    m = 0
    for k in range(K):
        for _ in range(w.hidden[k]):
            world.pile[m] = k
            m += 1
    order_cards(key, DEAL, 0, world.pile, 0, m, w)
    deal_world(world, m, w)
    if world.challenge_open:
        world.wd4_bluffed = colour_held(world, world.wd4_player, world.wd4_colour) > 0
    as_world(world, key)


@njit(cache=True)
def as_world(world, key: np.uint64) -> None:
    """A copy of the searched state made world ``key`` once its hands are dealt (``determinize``; as it is for
    ``oracle``, which sees them): it forgets what anyone was shown or read, its game key is ``key`` (its
    play-outs' draws) and it ends with the hand."""
    world.reads = False
    forget_hands(world)
    world.key, world.pkey = key, fold(key, POLICY)
    world.tkey = fold(world.pkey, world.turns - 1)
    world.hand_only = True


@njit(cache=True, inline="always")
def learned_choice(s, policy, w) -> int:
    """The ``learned`` choice of seat ``current`` (``policies.py``): of ``mc``'s candidates (``candidates``, the
    row's ``forbid`` honoured), the one of highest score (``learned_features``: the row's fixed-point weights
    of the choice's block times the candidate's features, from the seat's view), ties to the first (greedy's
    choice). One candidate is taken without a score. Inlined into its one caller: called, it left ``learned``
    self-play about 4% slower (2026-12-06)."""
    p = s.current
    m = candidates(s, policy[p, FORBID], w, w.loptions)
    if m == 1:
        return w.loptions[0]
    feat.unseen_colours(s, w.copies, w.unseen)
    block = feat.block_of(s)
    weights = policy[p, WEIGHTS:]
    best, best_score = 0, 0
    for i in range(m):
        feat.describe(s, w.loptions[i], i == 0, w.unseen, w.features)
        x = learned.score(weights, block, w.features, feat.N)
        if i == 0 or x > best_score:
            best, best_score = i, x
    return w.loptions[best]


@njit(cache=True)
def base_choice(s, table, w) -> int:
    """The choice of a search-free policy (``random``, ``greedy``, ``learned``): ``choose`` or ``learned_choice``."""
    if table[s.current, CODE] == LEARNED:
        return learned_choice(s, table, w)
    return choose(s, table)


@njit(cache=True)
def roll_out(s, params, table, w) -> None:
    """An ``mc`` play-out: the base policies of ``table`` (``base_choice``) until the game, here the hand, ends."""
    while s.phase != OVER:
        apply(s, base_choice(s, table, w), params, w)


@njit(cache=True)
def play_worlds(s, params, row, m: int, w) -> None:
    """``w.score[:m]``: the totals of the candidates ``w.options[:m]`` of seat ``current`` over the
    ``row[DETERMINIZATIONS]`` worlds of the search of row ``row`` (world ``j`` keyed ``jit.world_key(key,
    turns - 1, j)``), each played out with the row's base policy in every seat: ``WON`` per hand won, less the
    cards left in its hand per hand lost. ``row[SEES]`` (``oracle``): the worlds are the state itself
    (``as_world``). ``s`` is left as it is."""
    p = s.current
    hidden_cards(s, w)
    fill_playouts(w.table, s.players, p, row)
    w.score[:m] = 0
    for j in range(row[DETERMINIZATIONS]):
        w.worlds[0] = s
        if row[SEES]:
            as_world(w.worlds[0], jit.world_key(s.key, s.turns - 1, j))
        else:
            determinize(w.worlds[0], jit.world_key(s.key, s.turns - 1, j), w)
        for i in range(m):
            w.worlds[1] = w.worlds[0]
            trial = w.worlds[1]
            apply(trial, w.options[i], params, w)
            roll_out(trial, params, w.table, w)
            w.score[i] += WON if trial.winner == p else -trial.size[p]


@njit(cache=True)
def search(s, params, policy, w) -> int:
    """The ``mc`` choice of seat ``current`` (``policies.py``): every candidate (the row's ``forbid`` honoured)
    played out in the same worlds (``play_worlds``); the most hands won, then the fewest cards left in its
    hand at the play-outs' ends, then the first candidate (greedy's choice). One candidate is taken without a
    play-out. ``s`` is left as it is."""
    p = s.current
    m = candidates(s, policy[p, FORBID], w, w.options)
    if m == 1:
        return w.options[0]
    play_worlds(s, params, policy[p], m, w)
    return w.options[jit.argmax_first(w.score, m)]


@njit(cache=True)
def teacher_scores(s, params, row, w) -> int:
    """Training labels (``training.py``): the candidates of seat ``current`` (none forbidden) into ``w.options``
    and their totals under the search of row ``row`` into ``w.score`` (``play_worlds``), even for one
    candidate; how many."""
    m = candidates(s, 0, w, w.options)
    play_worlds(s, params, row, m, w)
    return m


@njit(cache=True)
def decide(s, params, policy, w) -> int:
    """The choice of seat ``current``'s policy: ``mc`` searches, ``learned`` scores, ``random`` and ``greedy``
    choose."""
    if policy[s.current, CODE] == MC:
        return search(s, params, policy, w)
    return base_choice(s, policy, w)


@njit(cache=True)
def seat_table(policy, w) -> None:
    """``w.seats``: the rows of the policy table ``policy``, so that the search loop reads the seats' policies
    from a table of the same type as its play-outs' (``WORK``)."""
    for q in range(policy.shape[0]):
        w.seats[q, :] = policy[q, :]


@njit(cache=True)
def decide_for(s, params, policy, w) -> int:
    """``decide`` asked from Python (the reference engine's ``mc`` and ``learned``, the step API): the policy
    table copied into ``w.seats`` first, so that it runs the search the loops compile (``seat_table``)."""
    seat_table(policy, w)
    return decide(s, params, w.seats, w)


@njit(cache=True)
def play_out(s, params, policy, w) -> None:
    """Play the game on from its waiting choice to its end with the seats' policies."""
    while s.phase != OVER:
        apply(s, decide(s, params, policy, w), params, w)


@njit(cache=True)
def copy_state(dst, src) -> None:
    """``dst[0] = src[0]``: an independent copy of a game."""
    dst[0] = src[0]


@njit(cache=True)
def record_into(s, out, i: int) -> None:
    """Row ``i`` of ``out`` (columns of ``RECORD``) from a finished game."""
    row = out[i]
    row[AT.turns], row[AT.truncated], row[AT.winner], row[AT.points] = s.turns, s.truncated, s.winner, s.points
    row[AT.hands], row[AT.cards_drawn], row[AT.reshuffles] = s.hand_no + 1, s.cards_drawn, s.reshuffles
    row[AT.challenges], row[AT.successful_challenges] = s.challenges, s.successes


@njit(cache=True)
def play_games(params, policy, players: int, seed: np.uint64, games, w, out) -> None:
    """The engine's loop: game ``games[i]`` dealt, played out and recorded in row ``i`` of ``out``."""
    state = np.zeros(1, STATE)
    s = state[0]
    reads = False
    for q in range(players):
        reads |= policy[q, CODE] == MC
    seat_table(policy, w)
    for i in range(len(games)):
        new_game(s, params, players, jit.game_key(seed, games[i]), w)
        s.reads = reads  # only mc looks at what the table reads
        play_out(s, params, w.seats, w)
        record_into(s, out, i)


@njit(cache=True)
def play_plain(params, policy, players: int, seed: np.uint64, games, w, out) -> None:
    """``play_games`` for a policy table without ``mc`` or ``learned``: the same hands, each played by
    ``choose`` (from the table's copy in ``w.seats``, as there), so a call that plays neither compiles no search
    and no scorer; the functions a hand runs through are inlined (``in_plain_loop``)."""
    state = np.zeros(1, STATE)
    s = state[0]
    seat_table(policy, w)
    for i in range(len(games)):
        new_game(s, params, players, jit.game_key(seed, games[i]), w)
        s.reads = False  # only mc looks at what the table reads
        while s.phase != OVER:
            apply(s, choose(s, w.seats), params, w)  # random, greedy
        record_into(s, out, i)


# ---------------------------------------------------------------- from Python

def params_of(rules: UnoRules) -> np.ndarray:
    """The rules as the ``PARAMS`` record the compiled functions read."""
    params = np.zeros(1, dtype=PARAMS)[0]
    params["n_cards"], params["hand_size"] = DECK_SIZES[rules.deck], rules.hand_size
    params["until_playable"] = rules.draw_rule == "until_playable"
    params["stack_draw_two"], params["wd4_challenge"] = rules.stack_draw_two, rules.wd4_challenge
    params["custom_wild"] = CUSTOM_RULES.index(rules.custom_wild)
    params["target_score"] = rules.target_score or 0
    params["max_turns"] = rules.max_turns
    return params


def policy_of(policies: tuple[str | Policy, ...]) -> np.ndarray:
    """One row per seat (int64, ``ROW`` wide): policy code, bluff and challenge cut-offs, ``mc``'s worlds, base
    and ``oracle`` flag, the ``forbid`` bits, and the weights of ``learned`` (or of ``mc``'s learned base)."""
    rows = np.zeros((len(policies), ROW), dtype=np.int64)
    for row, p in zip(rows, policies):
        row[:] = _row(parse_policy(p) if isinstance(p, str) else p)
    return rows


def _row(p: Policy) -> np.ndarray:
    """``policy_of``'s row of one parsed policy (the reference engine asks it at every ``mc``/``learned`` choice)."""
    row = np.zeros(ROW, dtype=np.int64)
    row[BLUFF_CUT], row[CHALLENGE_CUT], row[FORBID] = p.bluff_cut, p.challenge_cut, p.forbid
    model = p.model
    if p.mc:
        base = parse_policy(p.search.base)
        row[CODE], row[DETERMINIZATIONS], row[BASE], row[SEES] = MC, p.search.determinizations, \
            NAMES.index(base.name), p.search.sees_all
        model = base.model
    else:
        row[CODE] = NAMES.index(p.name)
    if model:
        row[WEIGHTS:] = load_model(model).fixed_point(feat.SCALE)
    return row


def new_work(rules: UnoRules) -> np.ndarray:
    """A ``WORK`` record with the rules' deck in canonical order (kinds ascending: what a deal permutes)
    and its copies per kind."""
    work = np.zeros(1, WORK)
    deck = deck_cards(rules.deck)
    work[0]["deck"][:len(deck)] = deck
    work[0]["copies"][:] = copies(rules.deck)
    return work


def state_from(position: reference.State, choice: int | None = None) -> np.ndarray:
    """The compiled state of a reference engine position: at the start of ``position.current``'s next
    decision (what ``reference.decide`` does first), or, given a ``choice`` (``START_COLOUR`` .. ``COLOUR``),
    waiting at that choice of the decision it is making. What each seat was shown comes along; the match
    scores (``target_score``) do not. For scenario tests and for the reference engine's ``mc``."""
    r = position
    state = np.zeros(1, STATE)
    s = state[0]
    pkey = rng.mix(r.key, rng.Stream.POLICY)
    for name in MIRRORED:
        s[name] = getattr(r, name)
    for name, theirs in RENAMED.items():
        s[name] = getattr(r, theirs)
    s["pkey"], s["ptr"], s["end"], s["under"], s["winner"] = pkey, 0, len(r.pile), sum(r.discard), -1
    s["hands"][:r.players] = r.hands
    s["size"][:r.players] = [sum(h) for h in r.hands]
    s["colours"][:r.players] = [[sum(h[c * 13:c * 13 + 13]) for c in range(4)] for h in r.hands]
    s["shown"][:r.players, :r.players] = r.shown
    s["shown_total"][:r.players] = np.sum(r.shown, axis=(1, 2))
    s["reads"] = True
    for q, layers in enumerate(r.barred):
        s["layers"][q] = len(layers)
        for j, (mask, cards) in enumerate(layers):
            s["barred"][q, j], s["barred_cards"][q, j] = mask, cards
    s["pile"][:len(r.pile)] = r.pile
    s["discard"][:] = r.discard
    if choice is None:
        next_decision(s, params_of(r.rules))
    else:
        s["tkey"], s["phase"] = np.uint64(rng.mix(pkey, r.turns - 1)), choice
    return state


def simulate(rules: UnoRules, players: int, seed: int, games: np.ndarray,
             policies: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Play ``games`` (int64 game indices) one after another; one array per record column."""
    games = np.asarray(games, dtype=np.int64)
    out = np.zeros((len(games), len(RECORD)), dtype=np.int64)
    warn_other_rules(policies, rules, players)
    table = policy_of(policies)
    searching = bool(np.isin(table[:, CODE], (MC, LEARNED)).any())  # their code is in play_games alone
    jit.first_call(play_games if searching else play_plain, "uno (mc, learned)" if searching else "uno",
                   params_of(rules), table, players, np.uint64(seed), games, new_work(rules)[0], out)
    cols = {"game": games.copy()}
    for j, name in enumerate(RECORD):
        cols[name] = out[:, j].astype(bool) if name == "truncated" else out[:, j].copy()
    return cols
