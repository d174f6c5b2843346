"""Uno vector engine: many games in numpy lockstep, one decision per game per step.

It follows the DECISION PROTOCOL of ``reference.py`` to the letter and returns the same
records; it is not meant to be read as the rules (read ``reference.py`` for that).

Representation, chosen for speed:
- hands are counts, ``hands[game, player, kind]`` (int8, 56 kinds), because Uno has
  duplicate cards: legality is one table lookup ``LEGAL[colour, top]`` and'ed with
  ``hands > 0``, a random card is a cumulative sum over 56 kinds, a hand's points a dot
  product;
- the draw pile is the deal's permutation itself, ``pile[game, i]`` (int8 kinds) with a
  read pointer ``ptr`` and an end ``end``: drawing is a gather and a pointer bump,
  never a copy. Only a reshuffle (rare) rewrites a row, from the discard counts;
- the discard pile is ``top`` plus counts per kind of the cards under it: a reshuffle
  needs only which cards they are, not their order.
Every phase of a decision works on index arrays of the games it concerns (no per-game
Python loop); finished games are compacted out of the batch after each step.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from cardsim.core import rng
from cardsim.games.uno import policies as pol
from cardsim.games.uno.cards import (CANDIDATE_REAL, CANDIDATES, CUSTOM, DRAW_TWO, IS_WILD, K, KIND_COLOUR, LEGAL, POINTS, REVERSE,
                                     SHUFFLE, SKIP, WD4, WD4_COLUMN, WILD, deck_cards, symbol_of)
from cardsim.games.uno.reference import (ANSWER_SLOT, BLUFF_SLOT, CARD_SLOT, COLOUR_SLOT, SHUFFLE_HANDS_TAG,
                                         START_COLOUR_SLOT, STARTER_TAG, TARGET_SLOT)
from cardsim.games.uno.rules import UnoRules

_MAX_U64 = np.uint64(2**64 - 1)


def _make_kind_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``SYMBOL[kind]`` (symbol, or the wild kind itself), ``COLOUR[kind]`` (-1 for wilds),
    ``BUCKET[kind]`` (colour, 4 for wilds: the colour-count column a kind adds to)."""
    symbol = np.array([symbol_of(k) for k in range(K)], dtype=np.int64)
    colour = np.where(IS_WILD, -1, KIND_COLOUR)
    bucket = np.where(IS_WILD, 4, KIND_COLOUR)
    return symbol, colour, bucket


SYMBOL, COLOUR, BUCKET = _make_kind_tables()


def _transposed(table: np.ndarray, dtype: type) -> np.ndarray:
    """A (4, K, C) candidate table laid out (C, 4 * K): ``[:, colour * K + top]`` is one game's column."""
    return np.ascontiguousarray(table.reshape(4 * K, -1).T, dtype=dtype)


_CANDIDATES_T, _CANDIDATE_REAL_T = _transposed(CANDIDATES, np.int16), _transposed(CANDIDATE_REAL, bool)
"""Candidate kinds laid out (C, 4 * K), as the policies' numpy twins want them: ``[:, colour * K + top]``."""


@dataclass
class Batch:
    """The games still running, one row each. Fields as in ``reference.State``, plus: ``slot`` (row
    of the output), ``pkey`` (``mix(key, Stream.POLICY)``, folded once), ``counts`` (per player:
    coloured cards per colour and wilds, kept in step with ``hands``), ``pile``/``ptr``/``end``
    (the draw pile is ``pile[ptr:end]``), ``scores`` (match points per player), ``successes``
    (successful challenges)."""

    slot: np.ndarray
    key: np.ndarray
    pkey: np.ndarray
    hands: np.ndarray
    counts: np.ndarray
    pile: np.ndarray
    ptr: np.ndarray
    end: np.ndarray
    discard: np.ndarray
    top: np.ndarray
    colour: np.ndarray
    direction: np.ndarray
    current: np.ndarray
    pending: np.ndarray
    challenge_open: np.ndarray
    wd4_bluffed: np.ndarray
    wd4_player: np.ndarray
    hand_winner: np.ndarray
    hand_no: np.ndarray
    hand_turns: np.ndarray
    turns: np.ndarray
    reshuffles: np.ndarray
    cards_drawn: np.ndarray
    challenges: np.ndarray
    successes: np.ndarray
    scores: np.ndarray

    def drop(self, done: np.ndarray) -> Batch:
        """The batch without the rows marked ``done``: the last running rows move into their
        holes and every array is cut to a prefix view, so only the moved rows are copied."""
        keep = len(done) - int(done.sum())
        holes = np.flatnonzero(done[:keep])
        movers = keep + np.flatnonzero(~done[keep:])
        fields = {}
        for f in dataclasses.fields(self):
            arr = getattr(self, f.name)
            arr[holes] = arr[movers]
            fields[f.name] = arr[:keep]
        return Batch(**fields)


@dataclass(frozen=True)
class Table:
    """What is the same for every game of a call: rules, players, seat policies, the deck."""

    rules: UnoRules
    players: int
    greedy: np.ndarray
    bluff_cut: np.ndarray
    challenge_cut: np.ndarray
    deck: np.ndarray
    advance: np.ndarray
    """``advance[kind]``: places the turn moves after ``kind`` is played (2 passes over a player)."""


def _new_batch(t: Table, seed: int, games: np.ndarray) -> Batch:
    n, p = len(games), t.players
    key = rng.game_key(np.uint64(seed), games.astype(np.uint64))
    arrays = {f.name: np.zeros(n, dtype=np.int64) for f in dataclasses.fields(Batch)}
    arrays.update(slot=np.arange(n), key=key, pkey=rng.mix(key, rng.Stream.POLICY),
                  hands=np.zeros((n, p, K), dtype=np.int8), counts=np.zeros((n, p, 5), dtype=np.int16),
                  pile=np.zeros((n, len(t.deck)), dtype=np.int8), discard=np.zeros((n, K), dtype=np.int16),
                  challenge_open=np.zeros(n, dtype=bool), wd4_bluffed=np.zeros(n, dtype=bool),
                  scores=np.zeros((n, p), dtype=np.int64))
    return Batch(**arrays)


# ---------------------------------------------------------------- keyed orders and card moves

def _keyed_order(key: np.ndarray, words: tuple, cards: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Rows of ``cards`` (first ``m`` entries valid) sorted by ``(draw(key, *words, i), i)``."""
    j = np.arange(cards.shape[1], dtype=np.uint64)[None, :]
    u = rng.draw(key[:, None], *words, j)
    u = np.where(j < m[:, None].astype(np.uint64), u, _MAX_U64)
    return np.take_along_axis(cards, np.argsort(u, axis=1, kind="stable"), axis=1)


def _expand(counts: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts per kind -> the cards in canonical order (kinds ascending), padded to ``width``."""
    cum = np.cumsum(counts, axis=1, dtype=np.int64)
    j = np.arange(width)
    cards = (j[None, :, None] >= cum[:, None, :]).sum(axis=2)
    return np.minimum(cards, K - 1).astype(np.int8), cum[:, -1]


def _reshuffle(b: Batch, idx: np.ndarray) -> None:
    """U-8: the cards under the top of the discard pile, in keyed order, become the draw pile."""
    cards, m = _expand(b.discard[idx], b.pile.shape[1])
    b.pile[idx] = _keyed_order(b.key[idx], (rng.Stream.RESHUFFLE, b.reshuffles[idx][:, None]), cards, m)
    b.ptr[idx], b.end[idx] = 0, m
    b.discard[idx] = 0
    b.reshuffles[idx] += 1


def _take(b: Batch, idx: np.ndarray, player: np.ndarray, n: np.ndarray) -> None:
    """Move the next ``n`` cards of each pile into ``player``'s hand (``n`` <= cards left)."""
    rows = idx * b.hands.shape[1] + player
    hands, counts, pile = b.hands.reshape(-1), b.counts.reshape(-1), b.pile.reshape(-1)
    for j in range(int(n.max(initial=0))):
        sel = n > j
        g, r = idx[sel], rows[sel]
        card = pile[g * b.pile.shape[1] + b.ptr[g]]
        hands[r * K + card] += 1
        counts[r * 5 + BUCKET[card]] += 1
        b.ptr[g] += 1
    b.cards_drawn[idx] += n


def _draw(b: Batch, idx: np.ndarray, player: np.ndarray, n) -> None:
    """``player`` draws ``n`` cards in each game of ``idx``, reshuffling once if needed (U-8)."""
    if not len(idx):
        return
    n = np.broadcast_to(np.asarray(n, dtype=np.int64), idx.shape)
    first = np.minimum(n, b.end[idx] - b.ptr[idx])
    _take(b, idx, player, first)
    short = n - first
    again = np.flatnonzero(short > 0)
    if len(again):
        again = again[b.discard[idx[again]].any(axis=1)]
        g = idx[again]
        _reshuffle(b, g)
        _take(b, g, player[again], np.minimum(short[again], b.end[g]))


def _hands_of(players: int, seat: np.ndarray, cards: np.ndarray, valid: np.ndarray | None = None):
    """Hands (m, P, K) and colour counts (m, P, 5) from (m, w) cards given to (m, w) seats.

    Column by column: within a column every game is a different row, so ``+=`` is exact.
    """
    m, width = cards.shape
    hands, counts = np.zeros(m * players * K, dtype=np.int8), np.zeros(m * players * 5, dtype=np.int16)
    row = np.arange(m)[:, None] * players + seat
    to_hand, to_count = row * K + cards, row * 5 + BUCKET[cards]
    for j in range(width):
        sel = slice(None) if valid is None else valid[:, j]
        hands[to_hand[sel, j]] += 1
        counts[to_count[sel, j]] += 1
    return hands.reshape(m, players, K), counts.reshape(m, players, 5)


def _permutation(key: np.ndarray, n: int, counter: np.ndarray) -> np.ndarray:
    """``rng.permutation(key, Stream.DEAL, n, counter)`` row by row (the same numbers: the key and
    the leading words are folded once per game, then each position costs one word)."""
    folded = rng.mix(key, rng.Stream.DEAL, counter)
    return argsort_rows(rng.mix(folded[:, None], np.arange(n, dtype=np.uint64)[None, :]))


def argsort_rows(u: np.ndarray) -> np.ndarray:
    """``np.argsort(u, axis=1, kind="stable")``, faster: an unstable sort, then the rows holding
    equal draws (about 1e-16 of 108-card deals) are sorted again stably (ties by index)."""
    order = np.argsort(u, axis=1)
    ranked = np.take_along_axis(u, order, axis=1)
    tied = np.flatnonzero((ranked[:, 1:] == ranked[:, :-1]).any(axis=1))
    order[tied] = np.argsort(u[tied], axis=1, kind="stable")
    return order


# ---------------------------------------------------------------- deal and starting card (U-4, U-5)

def _deal(b: Batch, t: Table, idx: np.ndarray) -> None:
    players, hs = t.players, t.rules.hand_size
    m = len(idx)
    order = t.deck[_permutation(b.key[idx], len(t.deck), b.hand_no[idx])]
    dealer = b.hand_no[idx] % players
    j = np.arange(hs * players)
    seat = (dealer[:, None] + 1 + j[None, :]) % players
    b.hands[idx], b.counts[idx] = _hands_of(players, seat, order[:, :hs * players])
    b.pile[idx] = order
    b.ptr[idx], b.end[idx] = hs * players + 1, len(t.deck)
    b.top[idx] = order[:, hs * players]
    b.discard[idx] = 0
    b.hand_turns[idx], b.hand_winner[idx], b.direction[idx], b.pending[idx] = 0, -1, 1, 0
    b.challenge_open[idx] = False
    attempt = 0
    bad = idx[b.top[idx] == WD4]
    while len(bad):  # the forbidden starter goes back on top and the pile is put in keyed order
        start = b.ptr[bad] - 1
        width = int((b.end[bad] - start).max())
        pos = np.minimum(start[:, None] + np.arange(width)[None, :], b.pile.shape[1] - 1)
        cards = b.pile[bad[:, None], pos]
        m_left = b.end[bad] - start
        words = (rng.Stream.EXTRA, STARTER_TAG, b.hand_no[bad][:, None], attempt)
        new = _keyed_order(b.key[bad], words, cards, m_left)
        valid = np.arange(width)[None, :] < m_left[:, None]
        b.pile[np.broadcast_to(bad[:, None], pos.shape)[valid], pos[valid]] = new[valid]
        b.top[bad] = b.pile[bad, start]
        attempt += 1
        bad = bad[b.top[bad] == WD4]
    _start_with_card(b, t, idx, dealer)


def _start_with_card(b: Batch, t: Table, idx: np.ndarray, dealer: np.ndarray) -> None:
    top = b.top[idx]
    symbol = SYMBOL[top]
    b.colour[idx] = COLOUR[top]
    b.current[idx] = (dealer + np.where(symbol == SKIP, 2, np.where(symbol == REVERSE, 0, 1))) % t.players
    b.direction[idx] = np.where(symbol == REVERSE, -1, 1)
    two = idx[symbol == DRAW_TWO]
    if len(two):
        b.current[two] = dealer[symbol == DRAW_TWO]
        _play_draw_two(b, t, two)


# ---------------------------------------------------------------- effects of a play

def _seat(b: Batch, idx: np.ndarray, steps, players: int) -> np.ndarray:
    return (b.current[idx] + steps * b.direction[idx]) % players


def _play_draw_two(b: Batch, t: Table, idx: np.ndarray) -> None:
    if t.rules.stack_draw_two:
        b.pending[idx] += 2
        b.current[idx] = _seat(b, idx, 1, t.players)
    else:
        _draw(b, idx, _seat(b, idx, 1, t.players), 2)
        b.current[idx] = _seat(b, idx, 2, t.players)


def _name_colour(b: Batch, t: Table, idx: np.ndarray, tk: np.ndarray) -> None:
    if not len(idx):
        return
    greedy = t.greedy[b.current[idx]]
    colour = np.empty(len(idx), dtype=np.int64)
    if greedy.any():
        g = idx[greedy]
        colour[greedy] = pol.np_greedy_colour(b.counts[g, b.current[g], :4])
    if not greedy.all():
        colour[~greedy] = pol.np_random_colour(rng.mix(tk[idx[~greedy]], COLOUR_SLOT))
    b.colour[idx] = colour


def _shuffle_hands(b: Batch, t: Table, idx: np.ndarray) -> None:
    """U-15: all hands merged in canonical order, keyed order, dealt from the next player on."""
    players = t.players
    merged = b.hands[idx].sum(axis=1, dtype=np.int64)
    width = int(merged.sum(axis=1).max())
    cards, m = _expand(merged, width)
    words = (rng.Stream.EXTRA, SHUFFLE_HANDS_TAG, (b.turns[idx] - 1)[:, None])
    cards = _keyed_order(b.key[idx], words, cards, m)
    j = np.arange(width)
    seat = (b.current[idx][:, None] + b.direction[idx][:, None] * (j[None, :] + 1)) % players
    b.hands[idx], b.counts[idx] = _hands_of(players, seat, cards, j[None, :] < m[:, None])


def _custom_wild(b: Batch, t: Table, idx: np.ndarray, tk: np.ndarray) -> None:
    """U-16: swap hands with a chosen player, or everyone else draws one."""
    if t.rules.custom_wild == "swap_hands":
        cur = b.current[idx]
        greedy = t.greedy[cur]
        other = np.empty(len(idx), dtype=np.int64)
        if greedy.any():
            sizes = b.counts[idx[greedy]].sum(axis=2)
            other[greedy] = pol.np_greedy_target(cur[greedy], sizes)
        if not greedy.all():
            other[~greedy] = pol.np_random_target(cur[~greedy], t.players, rng.mix(tk[idx[~greedy]], TARGET_SLOT))
        for arr in (b.hands, b.counts):
            mine = arr[idx, cur].copy()
            arr[idx, cur] = arr[idx, other]
            arr[idx, other] = mine
    elif t.rules.custom_wild == "everyone_draws_one":
        for i in range(1, t.players):
            _draw(b, idx, _seat(b, idx, i, t.players), 1)


def _play(b: Batch, t: Table, idx: np.ndarray, kind: np.ndarray, tk: np.ndarray) -> None:
    """The current players of ``idx`` play ``kind``: discard, effects, colour, next player."""
    players = t.players
    cur = b.current[idx]
    colour_now = b.colour[idx]
    rows = idx * players + cur
    held = b.counts.reshape(-1, 5)[rows]
    bluff = (kind == WD4) & (held[np.arange(len(idx)), colour_now] > 0)
    b.hands.reshape(-1)[rows * K + kind] -= 1
    b.counts.reshape(-1)[rows * 5 + BUCKET[kind]] -= 1
    b.discard.reshape(-1)[idx * K + b.top[idx]] += 1
    b.top[idx] = kind
    b.colour[idx] = np.where(kind < WILD, COLOUR[kind], colour_now)
    out = held.sum(axis=1) == 1  # U-18: that was the last card
    if out.any():
        _finish_with_last_card(b, t, idx[out], kind[out])
        idx, kind, cur, bluff = idx[~out], kind[~out], cur[~out], bluff[~out]
    symbol = SYMBOL[kind]
    reverse = idx[symbol == REVERSE]  # U-10
    b.direction[reverse] *= -1
    direction = b.direction[idx]
    after = (cur + direction) % players
    two = symbol == DRAW_TWO  # U-11
    if t.rules.stack_draw_two:
        b.pending[idx[two]] += 2
    else:
        _draw(b, idx[two], after[two], 2)
    four = kind == WD4
    g = idx[four]
    if t.rules.wd4_challenge:  # U-13, U-14
        b.challenge_open[g], b.wd4_bluffed[g], b.wd4_player[g] = True, bluff[four], cur[four]
    else:
        _draw(b, g, after[four], 4)
    wild = kind >= WILD
    if wild.any():
        _custom_wild(b, t, idx[kind == CUSTOM], tk)  # U-16
        g = idx[kind == SHUFFLE]  # U-15
        if len(g):
            _shuffle_hands(b, t, g)
        _name_colour(b, t, idx[wild], tk)  # U-12: after the effect
    b.current[idx] = (cur + t.advance[kind] * direction) % players  # U-9 .. U-13


def _finish_with_last_card(b: Batch, t: Table, idx: np.ndarray, kind: np.ndarray) -> None:
    """U-18: out; a Draw Two (with any stacked total) or W+4 still makes the next draw."""
    players = t.players
    two = SYMBOL[kind] == DRAW_TWO
    _draw(b, idx[two], _seat(b, idx[two], 1, players), b.pending[idx[two]] + 2)
    four = kind == WD4
    _draw(b, idx[four], _seat(b, idx[four], 1, players), 4)
    if t.rules.custom_wild == "everyone_draws_one":
        g = idx[kind == CUSTOM]
        for i in range(1, players):
            _draw(b, g, _seat(b, g, i, players), 1)
    b.pending[idx] = 0
    b.hand_winner[idx] = b.current[idx]


# ---------------------------------------------------------------- one decision per game

def _split(t: Table, cur: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of the deciding players use greedy, which random (mixed seats take both paths)."""
    greedy = t.greedy[cur]
    return greedy, ~greedy


def _all_or(mask: np.ndarray) -> np.ndarray | slice:
    """``mask`` as an index, or the whole slice when it selects everything (self-play: no copies)."""
    return slice(None) if mask.all() else mask


def _answer_draw_two(b: Batch, t: Table, idx: np.ndarray, tk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """U-11 stacking: returns the games that stack and their Draw Two; the others take the total."""
    cur = b.current[idx]
    hands = b.hands[idx, cur]
    kind = np.empty(len(idx), dtype=np.int64)
    greedy, rand = _split(t, cur)
    if greedy.any():
        kind[greedy] = pol.np_greedy_stack(hands[greedy], b.counts[idx[greedy], cur[greedy], :4])
    if rand.any():
        kind[rand] = pol.np_random_stack(hands[rand], rng.mix(tk[idx[rand]], ANSWER_SLOT))
    take = kind < 0
    g = idx[take]
    _draw(b, g, b.current[g], b.pending[g])
    b.pending[g] = 0
    b.current[g] = _seat(b, g, 1, t.players)
    return idx[~take], kind[~take]


def _answer_wild_draw_four(b: Batch, t: Table, idx: np.ndarray, tk: np.ndarray) -> np.ndarray:
    """U-14: returns the games whose player caught a bluff and now takes a normal turn."""
    b.challenge_open[idx] = False
    cur = b.current[idx]
    challenge = pol.chance(rng.mix(tk[idx], ANSWER_SLOT), t.challenge_cut[cur])
    b.challenges[idx[challenge]] += 1
    caught = challenge & b.wd4_bluffed[idx]
    g = idx[caught]
    b.successes[g] += 1
    _draw(b, g, b.wd4_player[g], 4)
    lose = ~caught
    g = idx[lose]
    _draw(b, g, cur[lose], np.where(challenge[lose], 6, 4))
    b.current[g] = _seat(b, g, 1, t.players)
    return idx[caught]


def _choose_cards(b: Batch, t: Table, idx: np.ndarray, tk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step 4: the card each player of ``idx`` plays (-1 to draw) and whether they hold the colour."""
    cur = b.current[idx]
    colour, top = b.colour[idx], b.top[idx]
    state = colour * K + top
    cand = np.take(_CANDIDATES_T, state, axis=1)
    rows = idx * t.players + cur
    held = np.take(b.hands.reshape(-1), cand + (rows * K)[None, :])
    has_colour = np.take(b.counts.reshape(-1), rows * 5 + colour) > 0
    legal = (held > 0) & np.take(_CANDIDATE_REAL_T, state, axis=1)
    legal[WD4_COLUMN] &= ~has_colour
    column = np.empty(len(idx), dtype=np.int64)
    greedy, rand = _split(t, cur)
    if greedy.any():
        g = _all_or(greedy)
        counts = b.counts.reshape(-1, 5)[rows[g], :4]
        column[g] = pol.np_greedy_card(counts, legal[:, g], colour[g], top[g])
    if rand.any():
        r = _all_or(rand)
        column[r] = pol.np_random_card(held[:, r], legal[:, r], rng.mix(tk[idx[r]], CARD_SLOT))
    kind = np.where(column >= 0, np.take(cand, np.maximum(column, 0) * len(idx) + np.arange(len(idx))), -1)
    may_bluff = (held[WD4_COLUMN] > 0) & has_colour
    if may_bluff.any():
        g = np.flatnonzero(may_bluff)
        bluff = pol.chance(rng.mix(tk[idx[g]], BLUFF_SLOT), t.bluff_cut[cur[g]])
        kind[g[bluff]] = WD4
    return kind, has_colour


def _draw_for_turn(b: Batch, t: Table, idx: np.ndarray, has_colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """U-7: draw one (or until playable); returns the games that play the drawn card and the card."""
    play_idx, play_kind = [], []
    while len(idx):
        cur = b.current[idx]
        before = b.cards_drawn[idx].copy()
        _draw(b, idx, cur, 1)
        drew = b.cards_drawn[idx] > before
        card = b.pile[idx, np.maximum(b.ptr[idx] - 1, 0)].astype(np.int64)
        ok = drew & LEGAL[b.colour[idx], b.top[idx], card] & ((card != WD4) | ~has_colour)
        play_idx.append(idx[ok])
        play_kind.append(card[ok])
        more = drew & ~ok & (t.rules.draw_rule == "until_playable")
        idx, has_colour = idx[more], has_colour[more]
    return np.concatenate(play_idx), np.concatenate(play_kind)


def _step(b: Batch, t: Table) -> None:
    """One decision in every game of the batch (protocol steps 1-5)."""
    n = len(b.slot)
    tk = rng.mix(b.pkey, b.turns)
    b.turns += 1
    b.hand_turns += 1
    g = np.flatnonzero(b.colour < 0)
    if len(g):  # U-5: a wild starter, the first player names the colour
        cur = b.current[g]
        greedy = t.greedy[cur]
        colour = pol.np_random_colour(rng.mix(tk[g], START_COLOUR_SLOT))
        colour[greedy] = pol.np_greedy_colour(b.counts[g[greedy], cur[greedy], :4])
        b.colour[g] = colour
    stacking = b.pending > 0
    answering = b.challenge_open.copy()
    play_idx, play_kind = [], []
    if stacking.any():
        i, k = _answer_draw_two(b, t, np.flatnonzero(stacking), tk)
        play_idx.append(i)
        play_kind.append(k)
    normal = ~(stacking | answering)
    if answering.any():
        normal[_answer_wild_draw_four(b, t, np.flatnonzero(answering), tk)] = True
    idx = np.flatnonzero(normal) if not normal.all() else np.arange(n)
    kind, has_colour = _choose_cards(b, t, idx, tk)
    play_idx.append(idx[kind >= 0])
    play_kind.append(kind[kind >= 0])
    none = kind < 0
    if none.any():
        i, k = _draw_for_turn(b, t, idx[none], has_colour[none])
        play_idx.append(i)
        play_kind.append(k)
        passing = np.zeros(n, dtype=bool)
        passing[idx[none]] = True
        passing[i] = False
        passing = np.flatnonzero(passing)
        b.current[passing] = _seat(b, passing, 1, t.players)
    idx, kind = np.concatenate(play_idx), np.concatenate(play_kind)
    _play(b, t, idx, kind, tk)


# ---------------------------------------------------------------- hands, games, records

def _end_hands(b: Batch, t: Table, out: dict[str, np.ndarray]) -> np.ndarray:
    """Score finished hands (U-19, U-20), deal the next hand of unfinished matches,
    write finished games to ``out``; returns which rows are done."""
    done = np.zeros(len(b.slot), dtype=bool)
    won = np.flatnonzero(b.hand_winner >= 0)
    if len(won):
        w = b.hand_winner[won]
        left = b.hands[won].astype(np.int64) @ POINTS
        gained = left.sum(axis=1) - left[np.arange(len(won)), w]
        b.scores[won, w] += gained
        target = t.rules.target_score
        over = np.ones(len(won), dtype=bool) if target is None else b.scores[won, w] >= target
        b.hand_no[won] += 1
        g = won[over]
        _record(b, out, g, winner=w[over],
                points=gained[over] if target is None else b.scores[g, w[over]], truncated=False)
        done[g] = True
        if not over.all():
            _deal(b, t, won[~over])
    cut = np.flatnonzero((b.hand_winner < 0) & (b.hand_turns >= t.rules.max_turns))
    if len(cut):  # U-21
        b.hand_no[cut] += 1
        _record(b, out, cut, winner=-1, points=0, truncated=True)
        done[cut] = True
    return done


def _record(b: Batch, out: dict[str, np.ndarray], idx: np.ndarray, *, winner, points, truncated: bool) -> None:
    s = b.slot[idx]
    out["winner"][s], out["points"][s], out["truncated"][s] = winner, points, truncated
    for col, field in (("turns", "turns"), ("hands", "hand_no"), ("cards_drawn", "cards_drawn"),
                       ("reshuffles", "reshuffles"), ("challenges", "challenges"),
                       ("successful_challenges", "successes")):
        out[col][s] = getattr(b, field)[idx]


def _table(rules: UnoRules, players: int, policies: tuple[str, ...]) -> Table:
    parsed = [pol.parse_policy(p) for p in policies]
    return Table(rules, players, greedy=np.array([p.greedy for p in parsed]),
                 bluff_cut=np.array([p.bluff_cut for p in parsed], dtype=np.uint64),
                 challenge_cut=np.array([p.challenge_cut for p in parsed], dtype=np.uint64),
                 deck=np.array(deck_cards(rules.deck), dtype=np.int8), advance=_advance(rules, players))


def _advance(rules: UnoRules, players: int) -> np.ndarray:
    """Places the turn moves after each kind: Skip 2 (U-9), Reverse 1 or with two players 2
    (U-10), Draw Two 2 or stacking 1 (U-11), W+4 2 or with challenges 1 (U-13, U-14), else 1."""
    advance = np.ones(K, dtype=np.int64)
    advance[SYMBOL == SKIP] = 2
    advance[SYMBOL == REVERSE] = 1 if players > 2 else 2
    advance[SYMBOL == DRAW_TWO] = 1 if rules.stack_draw_two else 2
    advance[WD4] = 1 if rules.wd4_challenge else 2
    return advance


def vector(rules: UnoRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Play ``games`` (int64 game indices) in lockstep; one array per record column."""
    games = np.asarray(games, dtype=np.int64)
    t = _table(rules, players, policies)
    n = len(games)
    out = {"game": games.copy(), "truncated": np.zeros(n, dtype=bool)}
    for col in ("turns", "winner", "points", "hands", "cards_drawn", "reshuffles", "challenges",
                "successful_challenges"):
        out[col] = np.zeros(n, dtype=np.int64)
    b = _new_batch(t, seed, games)
    _deal(b, t, np.arange(n))
    while len(b.slot):
        _step(b, t)
        done = _end_hands(b, t, out)
        if done.any():
            b = b.drop(done)
    return out
