"""Musta-Maija reference engine: one game in plain Python, to be read next to
docs/rules/musta_maija.md, with a trace a person can follow. Not fast (compiled.py is).

The decision protocol (compiled.py implements exactly this):

- **Cards** (cards.py): 52 cards (2-5 players) or 103 (6-8: two decks less one ♠Q,
  MM-1); a hand is an int mask of card codes.
- **Deal** (MM-4): ``order = rng.permutation(key, Stream.DEAL, n_cards)``; the shuffled
  deck is ``card_list[order[i]]`` for i = 0, 1, ...; packets of three (the last one
  ``hand_size % 3``) go to seats 1, 2, ..., n-1, 0 in turn, packet round after packet
  round. The rest is the stock, drawn from its top (the next deck position).
- **Trump**: none yet (``marriage``, MM-5), diamonds (MM-6), or turned (MM-7): while the
  top of the stock is a spade, the stock is reshuffled by
  ``rng.permutation(key, Stream.RESHUFFLE, len(stock), counter=attempt)`` (attempt 0, 1,
  ...); then the top card is turned and moved to the bottom of the stock.
- **Decisions**: a round is one attack decision (the attacker's) then one defence
  decision (the defender's). ``turns`` counts decisions and is the ``turn`` of a
  decision's policy draws; ``rounds`` counts attacks. Before every decision, a game that
  has made ``max_turns`` decisions stops as truncated (MM-16), even between an attack
  and its defence.
- **Repetition** (MM-18, knob ``repetition``; ``core/repetition.py``): before an attack
  decision (before ``rounds`` counts it), when the knob is on, the stock is empty and
  ``turns < max_turns`` (MM-16 first): the *position* ``(attacker, trump, every hand)``
  is compared with the positions of the last 64 attacks that were to begin so (each
  remembered as it occurs); if it is one of them the game stops: ``truncated=True``,
  loser -1, with fewer than ``max_turns`` decisions; no decision, no turn, no round.
  What seats remember (``known``) and the counters are not part of the position.
- **At the start of either decision** the deciding player may declare a marriage
  (MM-5); then the attack or the defence is made.
- **Attack** (MM-9, MM-13): one or more cards of one suit, at most the defender's hand
  size once the stock is empty. Right after attacking the attacker draws from the top
  of the stock (knob ``refill``): ``"played"``, as many cards as they attacked with;
  ``"to_hand_size"``, up to ``hand_size`` (nothing if holding more); fewer under either
  setting when the stock runs out.
- **Defence** (MM-10): a set of pairs (own card, attack card), each own card beating its
  attack card, no card in two pairs. The **duty to beat** binds when ``must_beat =
  "all_if_possible"`` and the defender *can beat every attack card*: a complete
  assignment of distinct beaters from their hand exists (``can_beat_all``, found by
  augmenting paths; never when the Black Maria is on the table, MM-2). A bound
  defender's pairs must cover every attack card (the policy is told so: ``must``);
  otherwise, and always with ``"free"``, any set of pairs is legal, none included.
  Beaten pairs are discarded, the rest picked up; the defender then draws up to
  ``hand_size`` (nothing if holding more), under either ``refill`` (MM-11, MM-12).
- **Going out** (MM-14): a player with no cards once the stock is empty goes out at
  once, after their own attack or defence: an attacker who empties their hand goes out
  before their defender. ``finish_order`` lists the seats in the order they went out.
- **Next round** (MM-11, MM-12): if every card was beaten the defender attacks next (or,
  if out, the next player still in after them); otherwise the next player in after the
  defender. The defender is always the next player in after the attacker. The game
  ends when at most one player is in; that player loses (``loser``, -1 if nobody).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from cardsim.core import rng
from cardsim.core.cards import FRENCH52
from cardsim.core.records import Replay, Setup
from cardsim.core.repetition import Positions
from cardsim.core.search import unseated
from cardsim.games.musta_maija import policies, reads
from cardsim.games.musta_maija.cards import (
    BLACK_MARIA, DIAMONDS, KING, QUEEN, SPADES, SUITS, card_list, cards, mask, names, rank, suit,
)
from cardsim.games.musta_maija.events import BOOK
from cardsim.games.musta_maija.rules import MustaMaijaRules

PACKET = 3
"""MM-4: cards are dealt three at a time."""
PLAYED = "played"
ALL_IF_POSSIBLE = "all_if_possible"


@dataclass
class Table:
    """The state of one game, the whole table; policies are handed only what they may see (MM-15)."""

    rules: MustaMaijaRules
    players: int
    key: int
    hands: list[int]
    stock: list[int]
    """The stock, ``stock[0]`` drawn next."""
    trump: int = -1
    turned: int = -1
    """MM-7: the turned trump card, -1 if none (it lies at the bottom of the stock until drawn)."""
    known: list[int] = field(default_factory=list)
    """The cards each seat is publicly known to hold (``mc``'s view, ``compiled.hidden_cards``): picked up
    (MM-12), the king and queen shown by a marriage (MM-5), the turned card drawn; all zero if not given."""
    barred: list[int] = field(default_factory=list)
    """The cards each seat's choices with the stock empty say it does not hold, read as greedy's (``reads.py``),
    kept while ``reads`` (a seat's ``mc`` deals its worlds from them); all zero if not given."""
    reads: bool = False
    declared_turn: int = -1
    attacker: int = 1
    table: int = 0
    discard: int = 0
    out: list[int] = field(default_factory=list)
    turns: int = 0
    rounds: int = 0
    truncated: bool = False
    positions: Positions = field(default_factory=Positions)
    """MM-18: the positions the last attacks were to begin in with the stock empty (``repeats``)."""
    log: list[tuple] = field(default_factory=list)
    """The replay's raw events (``events.py``), see ``note``."""
    events: list[tuple] = field(default_factory=list)
    """(kind, seat, hand before, cards, extra) per move, for tests: see ``attack``/``defend``/``declare``."""

    def __post_init__(self) -> None:
        self.known = self.known or [0] * self.players
        self.barred = self.barred or [0] * self.players

    def note(self, action: str, seat: int, cards: int | tuple[int, ...] = 0, target: int = -1,
             decision: int | None = None, on: int = -1) -> None:
        """Record an event of the replay; ``on`` is the attack card a ``beat`` event beats."""
        self.log.append((decision, seat, action, cards, target, tuple(self.hands), len(self.stock), self.trump, on))


Search = Callable[[Table, str], tuple[int, int, int]]
"""The decision of a searching seat (``searched``): the table and the seat's policy string -> (suit declared or
-1, cards, beaten)."""


# --- the deal ---------------------------------------------------------------------


def packets(hand_size: int) -> list[int]:
    """MM-4: three at a time; with 5, three then two."""
    return [PACKET] * (hand_size // PACKET) + ([hand_size % PACKET] if hand_size % PACKET else [])


def deal_order(players: int, hand_size: int) -> list[int]:
    """The seat receiving each deck position of the deal (MM-4: clockwise from seat 1)."""
    return [seat % players for size in packets(hand_size) for seat in range(1, players + 1) for _ in range(size)]


def deal(rules: MustaMaijaRules, players: int, key: int) -> Table:
    """MM-1, MM-4, MM-6, MM-7: shuffle the deck(s), deal the hands, fix the trump if the rules do."""
    codes = card_list(players)
    deck = [codes[i] for i in rng.permutation(key, rng.Stream.DEAL, len(codes))]
    hands = [0] * players
    seats = deal_order(players, rules.hand_size)
    for seat, card in zip(seats, deck):
        hands[seat] |= 1 << card
    t = Table(rules, players, key, hands, deck[len(seats):], attacker=1 % players)
    if rules.trump == "diamonds":
        t.trump = DIAMONDS  # MM-6
    for seat in range(players):
        t.note("deal", seat, hands[seat])
    if rules.trump == "turned":
        turn_trump(t)
    return t


def turn_trump(t: Table) -> None:
    """MM-7: turn the top of the stock (reshuffle while it is a spade) and put it at the bottom."""
    attempt = 0
    while suit(t.stock[0]) == SPADES:
        t.note("reshuffle", -1, (t.stock[0],))
        order = rng.permutation(t.key, rng.Stream.RESHUFFLE, len(t.stock), attempt)
        t.stock = [t.stock[i] for i in order]
        attempt += 1
    t.stock = t.stock[1:] + t.stock[:1]
    t.turned, t.trump = t.stock[-1], suit(t.stock[-1])
    t.note("turn", -1, (t.stock[-1],))


# --- small rules --------------------------------------------------------------------


def beats(beater: int, card: int, trump: int, black_maria: str) -> bool:
    """MM-2, MM-3, MM-8, MM-10: does ``beater`` beat ``card``?"""
    if card == BLACK_MARIA:
        return False  # MM-2: nothing beats the Black Maria
    if beater == BLACK_MARIA:
        return black_maria == policies.HIGHEST_TRUMP  # MM-2 / MM-3
    if suit(beater) == suit(card):
        return rank(beater) > rank(card)
    return suit(beater) == trump  # MM-8: a trump beats any non-trump


def next_in(t: Table, seat: int) -> int:
    """The next player to the left of ``seat`` who is still in (MM-9, MM-14)."""
    for step in range(1, t.players):
        other = (seat + step) % t.players
        if other not in t.out:
            return other
    return seat


def defender(t: Table) -> int:
    return next_in(t, t.attacker)


def attack_cap(t: Table) -> int | None:
    """MM-13: once the stock is empty, no more attack cards than the defender holds."""
    return None if t.stock else len(cards(t.hands[defender(t)]))


def marriages(t: Table, seat: int) -> list[int]:
    """MM-5: the suits ``seat`` may declare trump now (king and queen held; never spades)."""
    if t.rules.trump != "marriage" or t.trump >= 0:
        return []
    held = {(suit(c), rank(c)) for c in cards(t.hands[seat])}
    return [s for s in range(SUITS) if s != SPADES and (s, KING) in held and (s, QUEEN) in held]


def is_legal_attack(hand: int, attack_cards: int, cap: int | None) -> bool:
    """MM-9 (one or more cards of one suit, from the hand) and MM-13 (the cap)."""
    chosen = cards(attack_cards)
    return (bool(chosen) and attack_cards & ~hand == 0 and len({suit(c) for c in chosen}) == 1
            and (cap is None or len(chosen) <= cap))


def can_beat_all(hand: int, table: int, trump: int, black_maria: str) -> bool:
    """MM-10: is there a complete assignment of distinct beaters from ``hand`` to the cards on ``table``?

    Augmenting paths (Kuhn's bipartite matching): each attack card in turn takes a beater,
    moving the attack cards placed before it to other beaters where that frees one.
    """
    own = cards(hand)
    beaten_by: dict[int, int] = {}

    def place(card: int, tried: set[int]) -> bool:
        for b in own:
            if b not in tried and beats(b, card, trump, black_maria):
                tried.add(b)
                if b not in beaten_by or place(beaten_by[b], tried):
                    beaten_by[b] = card
                    return True
        return False

    return all(place(card, set()) for card in cards(table))


def duty_to_beat(t: Table) -> bool:
    """MM-10: must the defender beat every attack card now (``must_beat="all_if_possible"`` and they can)?"""
    return t.rules.must_beat == ALL_IF_POSSIBLE and can_beat_all(t.hands[defender(t)], t.table, t.trump,
                                                                  t.rules.black_maria)


def is_legal_defence(hand: int, table: int, pairs: list[tuple[int, int]], trump: int, black_maria: str,
                     must: bool = False) -> bool:
    """MM-10: one own card beats one table card; each card used once; all of them when ``must`` (the duty)."""
    beaters = [b for b, _ in pairs]
    beaten = [a for _, a in pairs]
    return (len(set(beaters)) == len(beaters) == len(set(beaten)) and mask(beaters) & ~hand == 0
            and mask(beaten) & ~table == 0 and all(beats(b, a, trump, black_maria) for b, a in pairs)
            and (not must or mask(beaten) == table))


def scores(loser: int, players: int) -> list[int]:
    """MM-17: every player except the loser scores one point."""
    return [int(seat != loser) for seat in range(players)]


# --- moves ----------------------------------------------------------------------


def declare(t: Table, seat: int, s: int) -> None:
    """MM-5: the first declaration holds for the rest of the game."""
    if s not in marriages(t, seat):
        raise ValueError(f"seat {seat} may not declare suit {s}")
    t.events.append(("declare", seat, t.hands[seat], s, t.turns))
    t.trump, t.declared_turn = s, t.turns
    for r in (KING, QUEEN):  # shown: the copy-0 card if held, else copy 1
        card = FRENCH52.card(s, r)
        t.known[seat] |= 1 << (card if t.hands[seat] >> card & 1 else card + 52)
    t.note("declare", seat, decision=t.turns)


def draw(t: Table, seat: int, wanted: int) -> int:
    """Draw ``wanted`` cards from the top of the stock (fewer if it runs out); the number drawn. A draw drops the
    seat's reads (unseen cards come in)."""
    n = max(0, min(wanted, len(t.stock)))
    if n:
        t.barred[seat] = 0
    t.hands[seat] |= mask(t.stock[:n])
    if t.turned in t.stock[:n]:  # drawn last: everyone knows who holds it
        t.known[seat] |= 1 << t.turned
    drawn, t.stock = t.stock[:n], t.stock[n:]
    if n:
        t.note("draw", seat, tuple(drawn))
    return n


def draw_up(t: Table, seat: int) -> int:
    """MM-9 (``refill="to_hand_size"``), MM-11, MM-12: draw up to ``hand_size`` (nothing if holding more)."""
    return draw(t, seat, t.rules.hand_size - len(cards(t.hands[seat])))


def refill(t: Table, seat: int, played: int) -> int:
    """MM-9: the attacker draws as many cards as they played (``"played"``) or up to ``hand_size``."""
    return draw(t, seat, played) if t.rules.refill == PLAYED else draw_up(t, seat)


def go_out_if_empty(t: Table, seat: int) -> None:
    """MM-14: a player with no cards once the stock is empty is out."""
    if not t.hands[seat] and not t.stock and seat not in t.out:
        t.out.append(seat)
        t.note("out", seat)


def attack(t: Table, attack_cards: int) -> None:
    """MM-9: the attacker puts cards of one suit on the table and refills from the stock."""
    seat, cap = t.attacker, attack_cap(t)
    if not is_legal_attack(t.hands[seat], attack_cards, cap):
        raise ValueError(f"illegal attack {names(attack_cards)} by seat {seat} (cap {cap})")
    t.events.append(("attack", seat, t.hands[seat], attack_cards, cap))
    if t.reads and not t.stock:
        t.barred[seat] |= reads.attack(attack_cards, cap)
    t.hands[seat] ^= attack_cards
    t.known[seat] &= ~attack_cards
    t.table = attack_cards
    t.note("attack", seat, attack_cards, defender(t), t.turns)
    refill(t, seat, len(cards(attack_cards)))
    t.turns += 1
    t.rounds += 1
    go_out_if_empty(t, seat)


def defend(t: Table, pairs: list[tuple[int, int]]) -> None:
    """MM-10..MM-12: beaten pairs are discarded, the rest picked up; then draw up and pass on."""
    seat, must = defender(t), duty_to_beat(t)
    if not is_legal_defence(t.hands[seat], t.table, pairs, t.trump, t.rules.black_maria, must):
        raise ValueError(f"illegal defence by seat {seat}" + (" (it must beat every card, MM-10)" if must else ""))
    t.events.append(("defence", seat, t.hands[seat], t.table, (pairs, t.trump, must)))
    beaten, beaters = mask(a for _, a in pairs), mask(b for b, _ in pairs)
    unbeaten = t.table & ~beaten
    if t.reads and not t.stock:
        t.barred[seat] |= reads.defence(t.table, beaten, beaters, t.trump, t.rules.black_maria)
    t.barred[seat] &= ~unbeaten  # picked up: held, and known
    for b, a in pairs:  # each beater goes from the hand onto its attack card
        t.hands[seat] &= ~(1 << b)
        t.note("beat", seat, (b,), decision=t.turns, on=a)
    if not pairs:
        t.note("beat", seat, decision=t.turns)
    if beaten:
        t.discard |= beaten | beaters
        t.note("discard", -1, tuple(c for b, a in pairs for c in (a, b)))
    t.hands[seat] |= unbeaten
    t.known[seat] = (t.known[seat] & ~beaters) | unbeaten
    t.table = 0
    if unbeaten:
        t.note("pick_up", seat, unbeaten)
    draw_up(t, seat)
    t.turns += 1
    go_out_if_empty(t, seat)
    if unbeaten or seat in t.out:
        t.attacker = next_in(t, seat)  # MM-12 (and MM-11 when the defender went out)
    else:
        t.attacker = seat  # MM-11: the defender beat everything and attacks next


def in_play(t: Table) -> list[int]:
    return [seat for seat in range(t.players) if seat not in t.out]


def finished(t: Table) -> bool:
    return len(in_play(t)) <= 1


# --- one game -------------------------------------------------------------------------


def offer_marriage(t: Table, seat: int, policy: str) -> None:
    """MM-5: at the start of any of their decisions a player may declare."""
    s = policies.declaration(policy, t.hands[seat], marriages(t, seat), t.key, t.turns)
    if s >= 0:
        declare(t, seat, s)


def attack_decision(t: Table, policy: str, search: Search | None = None) -> None:
    if policies.policy_name(policy) in policies.DECIDED_COMPILED:
        suit_declared, attack_cards, _ = searched(t, policy, search)
        if suit_declared >= 0:
            declare(t, t.attacker, suit_declared)
        attack(t, attack_cards)
        return
    offer_marriage(t, t.attacker, policy)
    hand = t.hands[t.attacker]
    attack(t, policies.attack(policy, hand, t.trump, attack_cap(t), t.key, t.turns))


def defence_decision(t: Table, policy: str, search: Search | None = None) -> None:
    seat = defender(t)
    if policies.policy_name(policy) in policies.DECIDED_COMPILED:
        suit_declared, beaters, beaten = searched(t, policy, search)
        if suit_declared >= 0:
            declare(t, seat, suit_declared)
        defend(t, policies.beat_with(beaten, beaters, t.trump, t.rules.black_maria) if beaten else [])
        return
    offer_marriage(t, seat, policy)
    defend(t, policies.defence(policy, t.hands[seat], t.table, t.trump, t.rules.black_maria, not t.stock,
                               duty_to_beat(t), t.key, t.turns))


def searched(t: Table, policy: str, search: Search | None) -> tuple[int, int, int]:
    """An ``mc``, ``oracle`` or ``learned`` decision (policies.py) of the seat to act: ``search(t, policy)``, which
    ``seating.play`` passes in (the compiled engine's decision on this table's position, ``compiled.decide_from``),
    so that both engines decide alike. (suit declared or -1, cards, beaten)."""
    if search is None:
        raise unseated("musta_maija", policies.policy_name(policy))
    return search(t, policy)


def play_states(rules: MustaMaijaRules, players: int, seed: int, game: int, seats: tuple[str, ...],
                search: Search | None = None):
    """Yield the table after the deal and after every decision (the same object, updated)."""
    t = deal(rules, players, rng.game_key(seed, game))
    t.reads = any(policies.reads(seat) for seat in seats)
    yield t
    yield from play_on(t, seats, search)


def repeats(t: Table) -> bool:
    """MM-18: the attack about to begin, the stock empty, would begin in a position one of the last 64 did (a
    new position is remembered); never where MM-16 stops the game first."""
    return (t.rules.repetition and not t.stock and t.turns < t.rules.max_turns
            and t.positions.recurs((t.attacker, t.trump, *t.hands)))


def play_on(t: Table, seats: tuple[str, ...], search: Search | None = None):
    """Play a game on from the start of a round; yield the table after every decision."""
    rules = t.rules
    while not finished(t):
        if t.turns >= rules.max_turns:
            break
        if repeats(t):  # MM-18: the game stops before the attack
            t.note("repetition", -1)
            break
        attack_decision(t, seats[t.attacker], search)
        yield t
        if t.turns >= rules.max_turns:
            break
        defence_decision(t, seats[defender(t)], search)
        yield t
    t.truncated = not finished(t)  # MM-16, MM-18


def record(t: Table, game: int) -> dict:
    """The game's row: COMMON + SHEDDING + Musta-Maija's columns."""
    left = in_play(t)
    holder = [seat for seat in range(t.players) if t.hands[seat] >> BLACK_MARIA & 1]
    return {
        "game": game,
        "turns": t.turns,
        "truncated": t.truncated,
        "loser": left[0] if len(left) == 1 and not t.truncated else -1,  # MM-14
        "rounds": t.rounds,
        "first_out": t.out[0] if t.out else -1,
        "finish_order": ",".join(map(str, t.out)),  # MM-14
        "black_maria_holder": holder[0] if holder else -1,
        "trump_suit": t.trump,
        "trump_declared_turn": t.declared_turn,
    }


def play(rules: MustaMaijaRules, players: int, seed: int, game: int, seats: tuple[str, ...],
         search: Search | None = None) -> Replay:
    """One game, its record and its moves. ``search`` decides the seats of ``policies.DECIDED_COMPILED``
    (``searched``); without it only ``random`` and ``greedy`` are seated. ``seating.play`` (the ``GameSpec.play``)
    hands it."""
    t = None
    for t in play_states(rules, players, seed, game, seats, search):
        pass
    if t.truncated and t.turns >= rules.max_turns:  # MM-16 (MM-18 noted its stop itself)
        t.note("truncated", -1)
        t.note("table", -1, t.table)
    for seat in range(players):
        t.note("final", seat, t.hands[seat])
    return Replay("musta_maija", record(t, game), t.log, Setup("musta_maija", rules, players, seed, game, seats), BOOK)
