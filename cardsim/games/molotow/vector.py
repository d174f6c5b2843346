"""Molotow Jass, vector engine: many games in numpy lockstep, identical records to ``reference.py``.

Every game of Molotow has the same shape: ``hands`` hands of 36 cards, ``36 / n``
tricks of ``n`` cards. So the batch moves in exact lockstep (hand, trick, position in
the trick are shared), no game finishes early and nothing needs compacting; only
the rare three-way-tie draw (MJ-15) runs on the subset of games that need it. The
decision protocol is the one written in ``reference.py``'s docstring; the state of a
batch is a ``Batch`` of arrays and each phase of a hand is one function named after it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.core import rng
from cardsim.core.cards import BIT
from cardsim.games.molotow.cards import (BEATS, BUUR, N_CARDS, N_RANKS, NO_TRUMP, POINT_BYTES, SUIT_MASK,
                                         TRUMP_MASK, np_mask_sum)
from cardsim.games.molotow.policies import check_policy, np_choose
from cardsim.games.molotow.reference import SEATS
from cardsim.games.molotow.rules import MolotowRules

_HAND_KEYS = ("dealer", "trump", "trump_trick", "trump_setter", "points", "sticks", "potatoes")


@dataclass
class Batch:
    """The state of a batch of hands in lockstep; one row per game (``held``/``taken``: one column per seat)."""

    keys: np.ndarray        # (B,) uint64 game keys
    held: np.ndarray        # (B, n) uint64 cards in each seat's hand
    taken: np.ndarray       # (B, n) uint64 cards of the tricks each seat took this hand
    trump: np.ndarray       # (B,) trump state, NO_TRUMP until set (MJ-8)
    trump_trick: np.ndarray
    setter: np.ndarray
    leader: np.ndarray      # seat leading the current trick
    trick: np.ndarray       # (B,) uint64 cards in the current trick
    led: np.ndarray         # suit led
    best: np.ndarray        # best card of the trick so far (MJ-12)
    best_seat: np.ndarray


def deal(keys: np.ndarray, hand_no: int, players: int) -> Batch:
    """MJ-5, MJ-6: a fresh hand, dealt in packets of three from the dealer's right."""
    dealer = hand_no % players
    bits = BIT[rng.permutation(keys, rng.Stream.DEAL, N_CARDS, hand_no)]
    seat_of_position = (dealer + 1 + np.arange(N_CARDS) // 3) % players
    held = np.stack([np.bitwise_or.reduce(bits[:, seat_of_position == s], axis=1) for s in range(players)], axis=1)
    b = len(keys)
    minus = np.full(b, -1, dtype=np.int64)
    return Batch(keys, held, np.zeros_like(held), np.full(b, NO_TRUMP, dtype=np.int64), minus, minus.copy(),
                 np.full(b, (dealer + 1) % players, dtype=np.int64), np.zeros(b, dtype=np.uint64),
                 minus.copy(), minus.copy(), minus.copy())


def legal_moves(hand: np.ndarray, leading: bool, led: np.ndarray, best: np.ndarray, t: np.ndarray,
                undertrump: str) -> np.ndarray:
    """Twin of ``reference.legal_moves`` (MJ-6, MJ-7, MJ-9, MJ-10, MJ-11) on a batch."""
    if leading:
        return hand
    kept = BUUR[t] & hand                                            # MJ-11: the Buur is never forced
    rest = hand & ~kept
    follow = rest & SUIT_MASK[led]
    trumps = rest & TRUMP_MASK[t]
    can_follow = follow != 0
    follow_or_any = np.where(can_follow, follow, rest)               # MJ-7
    free = np.where(can_follow, follow | trumps, rest)               # MJ-9
    higher = trumps & BEATS[best, t]
    lower = trumps & ~higher
    if undertrump == "seed":                                         # MJ-10 "seed"
        above = follow | higher
        after_trump = np.where(above != 0, above, np.where(lower != 0, lower, rest))
    elif undertrump == "forbidden":                                  # MJ-10 "forbidden"
        after_trump = np.where(rest != trumps, free & ~lower, free)
    else:                                                            # MJ-10 "allowed"
        after_trump = free
    trump_in_trick = best // N_RANKS == t
    legal = np.where((t == NO_TRUMP) | (led == t), follow_or_any, np.where(trump_in_trick, after_trump, free))
    return np.where(rest == 0, hand, legal | kept)


def play_card(b: Batch, rows: np.ndarray, seat: np.ndarray, card: np.ndarray, trick_no: int, leading: bool) -> None:
    """Put ``card`` on the trick: trump set by the first off-suit card (MJ-8), best card (MJ-12)."""
    bit = BIT[card]
    b.held[rows, seat] &= ~bit
    b.trick |= bit
    s = card // N_RANKS
    if leading:
        b.led, b.best, b.best_seat = s, card, seat.copy()
        return
    setting = (b.trump == NO_TRUMP) & (s != b.led)
    b.trump = np.where(setting, s, b.trump)
    b.trump_trick = np.where(setting, trick_no, b.trump_trick)
    b.setter = np.where(setting, seat, b.setter)
    takes = (BEATS[b.best, b.trump] & bit) != 0
    b.best = np.where(takes, card, b.best)
    b.best_seat = np.where(takes, seat, b.best_seat)


def take_trick(b: Batch, rows: np.ndarray) -> None:
    """The trick goes to its best card's seat, who leads next (MJ-6, MJ-12)."""
    b.taken[rows, b.best_seat] |= b.trick
    b.leader = b.best_seat
    b.trick = np.zeros_like(b.trick)


def hand_points(b: Batch, bonus: int) -> np.ndarray:
    """MJ-4: (B, n) card points under the final trump state, plus the last trick's bonus."""
    pts = np.stack([np_mask_sum(b.taken[:, s], POINT_BYTES, b.trump) for s in range(b.taken.shape[1])], axis=1)
    pts[np.arange(len(pts)), b.leader] += bonus
    return pts


def score_hands(pts: np.ndarray, rules: MolotowRules, keys: np.ndarray, hand_no: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sticks, potatoes (B, n) and the three-way-tie flag of each hand (MJ-13…MJ-18)."""
    n = pts.shape[1]
    others = 3 if rules.big_hand == "seed" else 1
    full = pts == rules.total_points
    big = (pts >= 100) & ~full
    top = pts == pts.max(axis=1, keepdims=True)
    bottom = pts == pts.min(axis=1, keepdims=True)
    n_top, n_bottom = top.sum(axis=1, keepdims=True), bottom.sum(axis=1, keepdims=True)
    sticks = ((top & (n_top == 1)) | (bottom & (n_bottom == 1))).astype(np.int64)   # MJ-13, MJ-14, MJ-18
    potatoes = (~top & ~bottom).astype(np.int64)
    tie3 = ((n_top == 3) | (n_bottom == 3))[:, 0] & (n == 4)                          # MJ-15
    tied = np.where(n_top == 3, top, bottom)
    sticks = np.where(tie3[:, None], ~tied, sticks)
    potatoes = np.where(tie3[:, None], 0, potatoes)
    has_big, has_full = big.any(axis=1, keepdims=True), full.any(axis=1, keepdims=True)
    sticks = np.where(has_big, others * ~big, sticks)                                 # MJ-16
    potatoes = np.where(has_big, 3 * big, potatoes)
    sticks = np.where(has_full, 3 * full, sticks)                                     # MJ-17
    potatoes = np.where(has_full, others * ~full, potatoes)
    tie3 &= ~(has_big | has_full)[:, 0]
    rows = np.flatnonzero(tie3)
    potatoes[rows, tie_draw(keys[rows], hand_no, tied[rows])] = 1
    return sticks, potatoes, tie3


def tie_draw(keys: np.ndarray, hand_no: int, tied: np.ndarray) -> np.ndarray:
    """MJ-15: the seat of each game that draws the single highest plain rank (redraw until one does)."""
    seats = np.argsort(~tied, axis=1, kind="stable")[:, :3]          # the three tied seats, ascending
    potato = np.full(len(keys), -1, dtype=np.int64)
    pending = np.arange(len(keys))
    attempt = 0
    while pending.size:
        u = rng.draw(keys[pending, None], rng.Stream.EXTRA, hand_no, attempt, np.arange(N_CARDS, dtype=np.uint64))
        ranks = np.argsort(u, axis=1, kind="stable")[:, :3] % N_RANKS
        single = (ranks == ranks.max(axis=1, keepdims=True)).sum(axis=1) == 1
        done = pending[single]
        potato[done] = seats[done, ranks[single].argmax(axis=1)]
        pending = pending[~single]
        attempt += 1
    return potato


def run(rules: MolotowRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...],
        per_hand: bool = False) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The per-game columns and (if ``per_hand``) the per-hand columns of ``games``."""
    names = [check_policy(p) for p in policies]
    kinds = sorted(set(names))
    kind_of_seat = np.array([kinds.index(p) for p in names])
    games = np.asarray(games, dtype=np.int64)
    keys = rng.game_key(np.uint64(seed), games.astype(np.uint64))
    sticks = np.zeros((len(games), players), dtype=np.int64)
    potatoes = np.zeros_like(sticks)
    counts = {k: np.zeros(len(games), dtype=np.int64)
              for k in ("hands_trumpless", "hands_100", "hands_157", "hands_tie3")}
    hand_log: dict[str, list[np.ndarray]] = {k: [] for k in _HAND_KEYS}
    total = rules.hands * N_CARDS
    stop = total if rules.max_turns is None else min(rules.max_turns, total)
    for h in range(-(-stop // N_CARDS)):
        b = deal(keys, h, players)
        cards = min(N_CARDS, stop - h * N_CARDS)
        play_hand(b, rules, players, cards, h * N_CARDS, kinds, kind_of_seat)
        if cards < N_CARDS:
            break  # max_turns: the unfinished hand is not scored
        pts = hand_points(b, rules.last_trick_bonus)
        got, lost, tie3 = score_hands(pts, rules, keys, h)
        sticks += got
        potatoes += lost
        counts["hands_trumpless"] += b.trump == NO_TRUMP
        counts["hands_157"] += (pts == rules.total_points).any(axis=1)
        counts["hands_100"] += ((pts >= 100) & (pts < rules.total_points)).any(axis=1)
        counts["hands_tie3"] += tie3
        if per_hand:
            for k, v in zip(_HAND_KEYS, (np.full(len(games), h % players), np.where(b.trump == NO_TRUMP, -1, b.trump),
                                         b.trump_trick, b.setter, pts, got, lost)):
                hand_log[k].append(v)
    truncated = np.full(len(games), stop < total)
    return _record(games, stop, truncated, sticks, potatoes, counts), _hand_table(games, hand_log)


def play_hand(b: Batch, rules: MolotowRules, players: int, cards: int, first_turn: int, kinds: list[str],
              kind_of_seat: np.ndarray) -> None:
    """Play the first ``cards`` cards of a dealt hand (all 36 unless ``max_turns`` stops it)."""
    rows = np.arange(len(b.keys))
    for i in range(cards):
        trick_no, pos = divmod(i, players)
        seat = (b.leader + pos) % players
        hand = b.held[rows, seat]
        legal = legal_moves(hand, pos == 0, b.led, b.best, b.trump, rules.undertrump)
        card = _choose(kinds, kind_of_seat[seat], hand, legal, b, pos == 0, first_turn + i)
        play_card(b, rows, seat, card, trick_no, pos == 0)
        if pos == players - 1:
            take_trick(b, rows)


def _choose(kinds: list[str], kind: np.ndarray, hand: np.ndarray, legal: np.ndarray, b: Batch, leading: bool,
            turn: int) -> np.ndarray:
    """Each game's card from the policy of its seat to play (one call per policy present)."""
    if len(kinds) == 1:
        return np_choose(kinds[0], hand, legal, b.trick, b.best, b.led, b.trump, leading, b.keys, turn)
    card = np.empty(len(hand), dtype=np.int64)
    for i, name in enumerate(kinds):
        sel = kind == i
        card[sel] = np_choose(name, hand[sel], legal[sel], b.trick[sel], b.best[sel], b.led[sel], b.trump[sel],
                              leading, b.keys[sel], turn)
    return card


def _record(games: np.ndarray, turns: int, truncated: np.ndarray, sticks: np.ndarray, potatoes: np.ndarray,
            counts: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """MJ-19: scores, the winner (-1 if shared or truncated) and the bitmask of the best seats."""
    scores = sticks - potatoes
    top = scores == scores.max(axis=1, keepdims=True)
    single = top.sum(axis=1) == 1
    winners = (top * (1 << np.arange(scores.shape[1]))).sum(axis=1)
    rec = {"game": games, "turns": np.full(len(games), turns), "truncated": truncated,
           "winner": np.where(single & ~truncated, top.argmax(axis=1), -1),
           "winners": np.where(truncated, 0, winners)}
    for name, values in (("score", scores), ("sticks", sticks), ("potatoes", potatoes)):
        for s in range(SEATS):
            rec[f"{name}_{s}"] = values[:, s] if s < values.shape[1] else np.zeros(len(games), dtype=np.int64)
    rec.update(counts)
    return rec


def _hand_table(games: np.ndarray, log: dict[str, list[np.ndarray]]) -> dict[str, np.ndarray]:
    """The per-hand columns, game by game then hand by hand (the reference engine's order)."""
    n_hands = len(log["dealer"])
    out = {"game": np.repeat(games, n_hands), "hand": np.tile(np.arange(n_hands), len(games))}
    for k in ("dealer", "trump", "trump_trick", "trump_setter"):
        out[k] = np.stack(log[k], axis=1).ravel() if n_hands else np.empty(0, dtype=np.int64)
    for k in ("points", "sticks", "potatoes"):
        for s in range(SEATS):
            out[f"{k}_{s}"] = (np.stack([v[:, s] if s < v.shape[1] else np.zeros(len(v), dtype=np.int64)
                                         for v in log[k]], axis=1).ravel() if n_hands
                               else np.empty(0, dtype=np.int64))
    return out


def play(rules: MolotowRules, players: int, seed: int, games: np.ndarray, policies: tuple[str, ...]
         ) -> dict[str, np.ndarray]:
    """The vector engine's entry point (``GameSpec.vector``): one array per record column."""
    return run(rules, players, seed, games, policies)[0]
