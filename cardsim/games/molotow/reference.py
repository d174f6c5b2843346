"""Molotow Jass, reference engine: one game in plain Python, rule IDs in comments, with a trace.

This engine is the oracle the compiled engine must match row for row; it is written to
be read next to ``docs/rules/molotow.md``, not to be fast.

Decision protocol (both engines follow it exactly):

- The game key is ``rng.game_key(seed, game)``. A game is ``rules.hands`` hands
  (MJ-19); seats are numbered from the first dealer (seat 0), counter-clockwise, so
  seat 1 is the dealer's right (MJ-5).
- Hand ``h`` (0-based): the dealer is seat ``h % n`` (the deal passes to the right).
  The deck order is ``rng.permutation(key, Stream.DEAL, 36, counter=h)``: its i-th card
  goes to seat ``(dealer + 1 + i // 3) % n`` (packets of three, counter-clockwise from
  the dealer's right; 9 cards each with 4 players, 12 with 3).
- The dealer's right leads the first trick, the winner of a trick leads the next
  (MJ-6); seats play in the order leader, leader + 1, ... (mod n).
- One *decision* is one card played; ``turn`` = cards played before it in the game
  (``turns`` and ``max_turns`` count these). Before each card, if ``turns ==
  max_turns`` the game stops: truncated, the unfinished hand is not scored, no winner.
- The policy of the seat to play picks a card among ``legal_moves`` (see
  ``policies.py`` for each policy's RNG draws: ``random`` one, ``greedy`` none, ``mc``
  its own ``SEARCH`` stream, never the game's; ``learned`` none). ``mc`` and ``learned`` decide on
  the compiled engine: this engine hands it its position (``searched``). A policy with ``forbid``
  picks among ``allowed_moves``.
- What a card shows (``shows_not_held``): a seat that plays off the led suit shows the
  table the cards it cannot hold; when a seat searches, the hand keeps them per seat
  (``Hand.ruled_out``).
- A hand is valued when its last trick is taken (MJ-4), then scored (MJ-13…MJ-18).
  A three-way-tie draw (MJ-15) uses attempt ``a = 0, 1, ...``: the deck order is the
  stable sort of ``rng.draw(key, Stream.EXTRA, h, a, i)`` over cards i = 0..35; the tied
  seats in ascending order take its first three cards; the single highest plain rank
  (MJ-2) gets the potato; if the highest rank is drawn twice or more, all three draw again.

The record is one row per game (columns in ``__init__.py``); ``hand_rows`` gives the
per-hand table (points, trump, trick in which it was set).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.core.records import Replay, Setup
from cardsim.core.search import SEARCHES, unseated
from cardsim.games.molotow.cards import N_CARDS, NO_TRUMP, beats, buur, is_trump, points, rank, suit, suit_mask
from cardsim.games.molotow.events import BOOK
from cardsim.games.molotow.policies import LEARNED, check_policy, choose, forbid_of
from cardsim.games.molotow.rules import MolotowRules

SEATS = 4
"""Record columns exist for seats 0..3; at a 3-player table seat 3's are 0."""


# ----------------------------------------------------------------------------- the rules of play

def deal(key: int, hand_no: int, players: int) -> list[int]:
    """MJ-5: each seat's cards for hand ``hand_no`` (a bitmask per seat)."""
    dealer = hand_no % players
    hands = [0] * players
    for i, card in enumerate(rng.permutation(key, rng.Stream.DEAL, N_CARDS, hand_no)):
        hands[(dealer + 1 + i // 3) % players] |= 1 << card
    return hands


def best_card(trick: list[int], trump: int) -> int:
    """MJ-12: the card that wins the trick so far (highest trump, else highest of the led suit)."""
    best = trick[0]
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    return best


def sets_trump(card: int, trick: list[int], trump: int) -> bool:
    """MJ-8: the first card of a hand played by a player who cannot follow sets trump."""
    return trump == NO_TRUMP and bool(trick) and suit(card) != suit(trick[0])


def legal_moves(hand: int, trick: list[int], trump: int, undertrump: str) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (MJ-6, MJ-7, MJ-9, MJ-10, MJ-11).

    MJ-11: the Buur is never forced: the legal cards are those the player could play
    if they did not hold it, plus the Buur itself (always playable once trump is set).
    """
    kept = buur(trump) & hand
    rest = hand & ~kept
    if not trick or not rest:                   # MJ-6: any card may be led; a lone Buur is a last card
        return hand
    return _legal_without_buur(rest, trick, trump, undertrump) | kept


def allowed_moves(hand: int, trick: list[int], trump: int, undertrump: str, forbid: int) -> int:
    """The legal cards a policy with ``forbid`` (a bitmask over ``rules.OPTIONS``, in order) may play: for each
    option forbidden, in that order, the cards that would take it are dropped, unless nothing would be left
    (a forbidden option with no legal alternative is taken)."""
    legal = legal_moves(hand, trick, trump, undertrump)
    if not forbid or not trick or trump == NO_TRUMP:
        return legal                                            # every option needs a trick and a trump
    led, best = suit(trick[0]), best_card(trick, trump)
    trumps = legal & suit_mask(trump) if led != trump else 0    # trumps on a plain lead
    options = (trumps if hand & suit_mask(led) else 0,                                   # MJ-9: trump_instead
               sum(1 << c for c in cards_of(trumps) if is_trump(best, trump) and not beats(c, best, trump)),  # MJ-10
               legal & ~_legal_without_buur(hand, trick, trump, undertrump))           # MJ-11: keep_buur
    allowed = legal
    for i, cards in enumerate(options):
        if forbid >> i & 1 and allowed & ~cards:
            allowed &= ~cards
    return allowed


def _legal_without_buur(hand: int, trick: list[int], trump: int, undertrump: str) -> int:
    led = suit(trick[0])
    follow = hand & suit_mask(led)
    trumps = hand & suit_mask(trump)
    if trump == NO_TRUMP or led == trump:                       # MJ-7: follow suit if you can
        return follow or hand
    free = (follow | trumps) if follow else hand                # MJ-9: or play a trump
    best = best_card(trick, trump)
    if not is_trump(best, trump):                               # no trump in the trick yet
        return free
    higher = sum(1 << c for c in cards_of(trumps) if beats(c, best, trump))
    lower = trumps & ~higher
    if undertrump == "seed":                                    # MJ-10 "seed"
        return (follow | higher) or lower or hand
    if undertrump == "forbidden" and hand != trumps:            # MJ-10 "forbidden"
        return free & ~lower
    return free                                                 # MJ-10 "allowed"


def shows_not_held(hand: int, card: int, trick: list[int], trump: int, undertrump: str, played: int) -> int:
    """The cards a seat shows it does not hold by playing ``card`` from ``hand`` to ``trick``: every card
    x it might hold (not in its hand, not ``played``) such that holding x as well would have made
    ``card`` illegal (MJ-7, MJ-9, MJ-10; the Buur is never forced, MJ-11). Public: every player can
    reason it. A lead or a card of the led suit shows nothing: no rule forbids following suit."""
    if not trick or suit(card) == suit(trick[0]):
        return 0
    unseen = (1 << N_CARDS) - 1 & ~hand & ~played
    return sum(1 << x for x in cards_of(unseen)
               if not legal_moves(hand | 1 << x, trick, trump, undertrump) >> card & 1)


def hand_points(taken: list[int], trump: int, last_winner: int, bonus: int) -> list[int]:
    """MJ-4: card points of each seat's tricks under the final trump state, plus the last trick."""
    pts = [sum(points(c, trump) for c in cards_of(m)) for m in taken]
    pts[last_winner] += bonus
    return pts


def tie_draw(key: int, hand_no: int, tied: list[int]) -> tuple[int, list[list[int]]]:
    """MJ-15: the tied seat that draws the highest plain rank, and the cards of each attempt."""
    attempts = []
    while True:
        u = [rng.draw(key, rng.Stream.EXTRA, hand_no, len(attempts), i) for i in range(N_CARDS)]
        drawn = sorted(range(N_CARDS), key=lambda i: (u[i], i))[:len(tied)]
        attempts.append(drawn)
        ranks = [rank(c) for c in drawn]
        if ranks.count(max(ranks)) == 1:
            return tied[ranks.index(max(ranks))], attempts


def score_hand(pts: list[int], rules: MolotowRules,
               potato_of_tie: Callable[[list[int]], int] | None = None) -> tuple[list[int], list[int]]:
    """Sticks and potatoes of each seat for one hand's points (MJ-13…MJ-18).

    ``potato_of_tie(tied_seats) -> seat`` settles a three-way tie at a 4-player table
    (MJ-15); the engine passes ``tie_draw``.
    """
    n = len(pts)
    sticks, potatoes = [0] * n, [0] * n
    others = 3 if rules.big_hand == "seed" else 1
    for s, p in enumerate(pts):
        if p == rules.total_points:                             # MJ-17: all the points
            return [3 if t == s else 0 for t in range(n)], [0 if t == s else others for t in range(n)]
        if p >= 100:                                            # MJ-16: 100 to 156 points
            return [0 if t == s else others for t in range(n)], [3 if t == s else 0 for t in range(n)]
    top = [s for s in range(n) if pts[s] == max(pts)]
    bottom = [s for s in range(n) if pts[s] == min(pts)]
    if n == 4 and 3 in (len(top), len(bottom)):                 # MJ-15: three-way tie
        tied = top if len(top) == 3 else bottom
        sticks[next(s for s in range(n) if s not in tied)] = 1
        potatoes[potato_of_tie(tied)] = 1
        return sticks, potatoes
    for s in range(n):                                          # MJ-13, MJ-14, MJ-18
        if s in top or s in bottom:
            sticks[s] = int(len(top if s in top else bottom) == 1)
        else:
            potatoes[s] = 1
    return sticks, potatoes


# ----------------------------------------------------------------------------- a game

@dataclass
class Decision:
    """One card played, for property tests: what the seat held and what it could play."""

    turn: int
    seat: int
    hand: int
    trick: tuple[int, ...]
    trump: int
    legal: int
    card: int
    held: tuple[int, ...]
    out: int
    """All cards not in a player's hand: the tricks taken plus the trick on the table."""


@dataclass
class Game:
    """The result of one game: its record, its raw events (``events.py``), the per-hand rows."""

    record: dict
    events: list[tuple] = field(default_factory=list)
    hands: list[dict] = field(default_factory=list)


@dataclass
class Hand:
    """One hand in play: the cards held and taken by each seat, the trump state (MJ-8)."""

    number: int
    held: list[int]
    taken: list[int]
    leader: int
    trump: int = NO_TRUMP
    trump_trick: int = -1
    setter: int = -1
    ruled_out: list[int] | None = None
    """The cards each seat's plays this hand showed it does not hold (``shows_not_held``); kept (a list) only
    when a seat searches: ``mc`` reads it, no other policy does."""

    def note(self, events: list[tuple], action: str, seat: int, cards: int | tuple[int, ...] = 0,
             decision: int | None = None, trick: int | None = None, scored: tuple[int, int, int] | None = None) -> None:
        """Record an event (``events.py``); ``scored`` = (points, sticks, potatoes) of a ``score``."""
        events.append((decision, seat, action, cards, tuple(self.held), self.number, trick, self.trump, scored))


Search = Callable[[MolotowRules, str, int, int, Hand, list[int], int], int]
"""A searching seat's card (``searched``): the rules, its policy string, the game key, the decision, the hand,
the trick and the trick's number -> the card."""


def play_hand(rules: MolotowRules, hand: Hand, policies: tuple[str, ...], key: int, turn: int,
              events: list[tuple], log: list[Decision] | None, search: Search | None = None) -> int:
    """Play the tricks of a dealt hand from decision ``turn`` on, seat s by ``policies[s]`` (validated
    policy strings; ``search`` decides ``mc``'s, ``oracle``'s and ``learned``'s cards, ``searched``); the turn
    reached (stops at ``max_turns``, leaving the trick's cards on the table)."""
    players = len(hand.held)
    for trick_no in range(N_CARDS // players):
        trick: list[int] = []
        seats: list[int] = []
        for pos in range(players):
            if turn == rules.max_turns:
                hand.note(events, "truncated", -1, trick=trick_no)
                hand.note(events, "table", -1, tuple(trick), trick=trick_no)
                return turn
            seat = (hand.leader + pos) % players
            held = hand.held[seat]
            legal = legal_moves(held, trick, hand.trump, rules.undertrump)
            name = check_policy(policies[seat])
            if name in SEARCHES or name == LEARNED:
                card = searched(search, rules, policies[seat], key, turn, hand, trick, trick_no)
            else:
                allowed = allowed_moves(held, trick, hand.trump, rules.undertrump, forbid_of(policies[seat]))
                card = choose(name, held, allowed, trick, hand.trump, key, turn)
            if log is not None:
                log.append(Decision(turn, seat, held, tuple(trick), hand.trump, legal, card, tuple(hand.held),
                                    _or(hand.taken) | _or(1 << c for c in trick)))
            if hand.ruled_out is not None:
                played = _or(hand.taken) | _or(1 << c for c in trick)
                hand.ruled_out[seat] |= shows_not_held(held, card, trick, hand.trump, rules.undertrump, played)
            hand.held[seat] &= ~(1 << card)
            hand.note(events, "play", seat, (card,), turn, trick_no)
            if sets_trump(card, trick, hand.trump):                           # MJ-8
                hand.trump, hand.trump_trick, hand.setter = suit(card), trick_no, seat
                hand.note(events, "trump", seat, trick=trick_no)
            trick.append(card)
            seats.append(seat)
            turn += 1
        winner = seats[trick.index(best_card(trick, hand.trump))]              # MJ-12
        hand.taken[winner] |= _or(1 << c for c in trick)
        hand.note(events, "take", winner, tuple(trick), trick=trick_no)
        hand.leader = winner                                                   # MJ-6
    return turn


def play_game(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...],
              log: list[Decision] | None = None, search: Search | None = None) -> Game:
    """Play game ``game`` of a study; append every decision to ``log`` if one is given (``search``: ``play_hand``)."""
    searching = any(check_policy(p) in (*SEARCHES, LEARNED) for p in policies)
    key = rng.game_key(seed, game)
    out = Game({})
    sticks, potatoes = [0] * players, [0] * players
    counts = {"hands_trumpless": 0, "hands_100": 0, "hands_157": 0, "hands_tie3": 0}
    turn = 0
    for h in range(rules.hands):
        dealer = h % players
        hand = Hand(h, deal(key, h, players), [0] * players, (dealer + 1) % players,  # MJ-5, MJ-6
                    ruled_out=[0] * players if searching else None)
        for seat in range(players):
            hand.note(out.events, "deal", seat, hand.held[seat])
        turn = play_hand(rules, hand, policies, key, turn, out.events, log, search)
        if any(hand.held):
            break
        pts = hand_points(hand.taken, hand.trump, hand.leader, rules.last_trick_bonus)
        draws: list[list[int]] = []

        def potato_of_tie(tied: list[int]) -> int:
            seat, attempts = tie_draw(key, h, tied)
            for attempt in attempts:
                for s, c in zip(tied, attempt):
                    hand.note(out.events, "tie_draw", s, (c,))
            draws.extend(attempts)
            return seat

        got, lost = score_hand(pts, rules, potato_of_tie)
        for seat in range(players):
            hand.note(out.events, "score", seat, scored=(pts[seat], got[seat], lost[seat]))
        for s in range(players):
            sticks[s] += got[s]
            potatoes[s] += lost[s]
        counts["hands_trumpless"] += hand.trump == NO_TRUMP
        counts["hands_157"] += rules.total_points in pts
        counts["hands_100"] += any(100 <= p < rules.total_points for p in pts)
        counts["hands_tie3"] += bool(draws)
        out.hands.append({"game": game, "hand": h, "dealer": dealer,
                          "trump": -1 if hand.trump == NO_TRUMP else hand.trump,
                          "trump_trick": hand.trump_trick, "trump_setter": hand.setter,
                          **_seats("points", pts), **_seats("sticks", got), **_seats("potatoes", lost)})
    for seat in range(players):
        hand.note(out.events, "final", seat, hand.held[seat])
    truncated = turn < rules.hands * N_CARDS
    out.record = _record(game, turn, truncated, sticks, potatoes, counts)
    return out


def _seats(name: str, values: list[int]) -> dict[str, int]:
    """``name_0 .. name_3``; seats a 3-player table lacks are 0."""
    return {f"{name}_{s}": values[s] if s < len(values) else 0 for s in range(SEATS)}


def _or(masks: Iterable[int]) -> int:
    total = 0
    for m in masks:
        total |= m
    return total


def _record(game: int, turns: int, truncated: bool, sticks: list[int], potatoes: list[int],
            counts: dict[str, int]) -> dict:
    """MJ-19: scores are sticks minus potatoes; the highest wins, a tie is a shared win (-1)."""
    scores = [a - b for a, b in zip(sticks, potatoes)]
    top = [s for s, x in enumerate(scores) if x == max(scores)]
    winners = 0 if truncated else sum(1 << s for s in top)
    rec = {"game": game, "turns": turns, "truncated": truncated,
           "winner": top[0] if len(top) == 1 and not truncated else -1, "winners": winners}
    for name, values in (("score", scores), ("sticks", sticks), ("potatoes", potatoes)):
        rec.update(_seats(name, values))
    rec.update(counts)
    return rec


def play(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...],
         search: Search | None = None) -> Replay:
    """The reference engine's game: the record and the trace (``search``: ``play_hand``; ``seating.play``, the
    ``GameSpec.play``, hands it)."""
    g = play_game(rules, players, seed, game, policies, search=search)
    return Replay("molotow", g.record, g.events, Setup("molotow", rules, players, seed, game, policies), BOOK)


def searched(search: Search | None, rules: MolotowRules, policy: str, key: int, turn: int, hand: Hand,
             trick: list[int], trick_no: int) -> int:
    """``mc``'s, ``oracle``'s or ``learned``'s card (policies.py) for the seat to play: ``search``'s, which
    ``seating.play`` passes in (the compiled search or scorer on this position, ``compiled.decide_from``), so that
    both engines decide alike."""
    if search is None:
        raise unseated("molotow", check_policy(policy))
    return search(rules, policy, key, turn, hand, trick, trick_no)
