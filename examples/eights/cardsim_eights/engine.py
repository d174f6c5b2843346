"""The Eights engine: one game in plain Python, rule by rule (README.md, E-1 .. E-7), with its events.

A decision is one turn of a seat (E-5): a play, or a draw or pass when nothing plays. ``turn``
counts decisions from 0 and is the counter of the policies' keyed draws
``rng.draw(key, Stream.POLICY, turn, k)``. The deal is ``rng.permutation(key, Stream.DEAL, 52)``.
"""
from __future__ import annotations

from cardsim.core import rng
from cardsim.core.cards import FRENCH52, cards_of, count, mask_of
from cardsim.core.records import EVENT_PHRASES, EVENTS, EventBook, Replay, Setup, card_names, sizes
from cardsim.core.rules import parse_call

from cardsim_eights.rules import EightsRules

POLICIES = ("random", "greedy")
EIGHT = FRENCH52.ranks.index("8")
SUITS = FRENCH52.suits

BOOK = EventBook(EVENTS, lambda raw: raw, EVENT_PHRASES | {
    "starter": "the starter is {cards}",
    "play": "seat {seat} plays {cards}",
    "name": "seat {seat} names {cards}",
    "draw": "seat {seat} draws {cards}",
    "pass": "seat {seat} passes",
    "out": "seat {seat} is out of cards and wins",
    "blocked": "nobody can play: seat {seat} holds the fewest cards and wins",
    "truncated": "the game is stopped at max_turns",
})


def playable(hand: int, top: int, follow: int, rules: EightsRules) -> list[int]:
    """E-3, E-4: the cards of ``hand`` that play on ``top`` with ``follow`` the suit to follow, lowest code first."""
    return [c for c in cards_of(hand) if FRENCH52.rank(c) == FRENCH52.rank(top) or FRENCH52.suit(c) == follow
            or (rules.eights_wild and FRENCH52.rank(c) == EIGHT)]


def choose(policy: str, key: int, turn: int, hand: int, options: list[int], rules: EightsRules) -> tuple[int, int]:
    """The card a seat plays from ``options`` and, for a wild eight, the suit it names (else -1): the README's
    policies, from the seat's own hand and the playable cards only."""
    if policy == "random":
        card = options[rng.below(rng.draw(key, rng.Stream.POLICY, turn, 0), len(options))]
        suit = rng.below(rng.draw(key, rng.Stream.POLICY, turn, 1), 4)
    else:
        plain = [c for c in options if FRENCH52.rank(c) != EIGHT] or options
        card = max(plain, key=lambda c: (FRENCH52.rank(c), -FRENCH52.suit(c)))
        rest = hand & ~(1 << card)
        suit = max(range(4), key=lambda s: (count(rest & FRENCH52.suit_mask(s)), -s))
    return card, suit if rules.eights_wild and FRENCH52.rank(card) == EIGHT else -1


def play(rules: EightsRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Replay:
    """Play game ``game`` of a study with ``seed`` (E-1 .. E-7)."""
    names = [parse_call(p) for p in policies]
    for (name, params), text in zip(names, policies):
        if params:
            raise ValueError(f"eights policy {text!r} takes no parameters")
    key = rng.game_key(seed, game)
    deck = rng.permutation(key, rng.Stream.DEAL, FRENCH52.size)
    n = rules.hand_size
    hands, log = [0] * players, []

    def event(seat: int, action: str, cards: list[int], decision: int | None = None) -> None:
        log.append((decision, seat, action, card_names(cards, FRENCH52.name), -1, sizes(map(count, hands))))

    for q in range(players):  # E-1
        hands[q] = mask_of(deck[q * n:(q + 1) * n])
        event(q, "deal", list(cards_of(hands[q])))
    top, stock = deck[players * n], list(deck[players * n + 1:])
    follow = FRENCH52.suit(top)
    event(-1, "starter", [top])
    turn, seat, passes, draws, eights, winner, blocked = 0, 1 % players, 0, 0, 0, -1, False
    while True:
        if rules.max_turns is not None and turn == rules.max_turns:  # E-7
            event(-1, "truncated", [])
            break
        options = playable(hands[seat], top, follow, rules)
        if options:  # E-5
            card, named = choose(names[seat][0], key, turn, hands[seat], options, rules)
            hands[seat] &= ~(1 << card)
            top, follow, passes = card, FRENCH52.suit(card) if named < 0 else named, 0
            event(seat, "play", [card], turn)
            if named >= 0:  # E-4
                eights += 1
                log.append((turn, seat, "name", SUITS[named], -1, sizes(map(count, hands))))
        elif stock:
            card = stock.pop(0)
            hands[seat] |= 1 << card
            draws, passes = draws + 1, 0
            event(seat, "draw", [card], turn)
        else:
            passes += 1
            event(seat, "pass", [], turn)
        turn += 1
        if hands[seat] == 0:  # E-6
            winner = seat
            event(seat, "out", [])
            break
        if passes == players:  # E-6: blocked
            winner, blocked = min(range(players), key=lambda q: (count(hands[q]), q)), True
            event(winner, "blocked", [])
            break
        seat = (seat + 1) % players  # E-2
    record = {"game": game, "turns": turn, "truncated": winner < 0, "winner": winner, "blocked": blocked,
              "draws": draws, "eights": eights}
    return Replay("eights", record, log, Setup("eights", rules, players, seed, game, tuple(policies)), BOOK)
