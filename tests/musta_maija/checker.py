"""An independent check of a Musta-Maija replay, written from docs/rules/musta_maija.md alone.

``check(events, record, rules, players)`` re-plays a game from its events table
(``Replay.events``) and raises ``CheckError`` (``replay_reading``) where an attack, a defence or a marriage
breaks MM-2…MM-13, a refill or a pick-up is wrong, a card is lost or duplicated, the
turn order is wrong, the game stops where MM-16 or MM-18 does not stop it (or goes on where
they do), a state column is wrong, or the record disagrees. It reads the
players' choices from the events (it knows the rules, not the policies) and imports
nothing of cardsim.

The places a card can be: a seat's hand, the stock (the deck less the others; only its
turned trump card, MM-7, is known: it must come out last), the table, the discard pile.
Card names: ``♥7``; with two decks (MM-1) the second copy is ``♥7'`` (and has no ``♠Q'``).
"""
from __future__ import annotations

from replay_reading import NEW, Events, cards, finish, hand_sizes, same_record

SUITS = "♣♦♥♠"
RANKS = "23456789TJQKA"  # MM-2: ace high
BLACK_MARIA = "♠Q"
WINDOW = 64  # MM-18: a position is compared with those of the last 64 attacks begun with the stock empty


def deck(players: int) -> set[str]:
    """MM-1: 52 cards; with more than five players two decks less one queen of spades (103)."""
    one = {s + r for s in SUITS for r in RANKS}
    return one if players <= 5 else one | {c + "'" for c in one if c != BLACK_MARIA}


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> int:
    return RANKS.index(card[1])


def beats(beater: str, card: str, trump: str, black_maria: str) -> bool:
    """MM-2, MM-3, MM-8: nothing beats the Black Maria; it beats only as the highest trump (MM-3);
    else a higher card of the same suit, or a trump on a non-trump."""
    if card == BLACK_MARIA:
        return False
    if beater == BLACK_MARIA:
        return black_maria == "highest_trump"
    if suit(beater) == suit(card):
        return rank(beater) > rank(card)
    return suit(beater) == trump


def can_beat_all(hand: set[str], table: set[str], trump: str, black_maria: str) -> bool:
    """MM-10: can each attack card be beaten by a card of ``hand`` of its own? A bipartite matching,
    grown one attack card at a time along augmenting paths."""
    beaten_by: dict[str, str] = {}  # beater -> the attack card it beats

    def place(card: str, tried: set[str]) -> bool:
        for b in sorted(hand - tried):
            if beats(b, card, trump, black_maria):
                tried.add(b)
                if b not in beaten_by or place(beaten_by[b], tried):
                    beaten_by[b] = card
                    return True
        return False

    return all(place(card, set()) for card in sorted(table))


class Game:
    """The game as the rules tell it, event by event."""

    def __init__(self, ev: Events, rules: dict, players: int) -> None:
        self.ev, self.rules, self.players = ev, rules, players
        self.deck = deck(players)
        self.hands: list[set[str]] = [set() for _ in range(players)]
        self.stock = set(self.deck)
        self.turned = ""  # MM-7: the trump card under the stock, drawn last
        self.table: set[str] = set()
        self.discard: set[str] = set()
        self.trump = "♦" if rules["trump"] == "diamonds" else ""  # MM-6
        self.declared = -1
        self.out: list[int] = []
        self.rounds = 0
        self.positions: list[tuple] = []  # MM-18: where attacks were to begin with the stock empty

    def repeats(self, attacker: int) -> bool:
        """MM-18: with the knob on, the stock empty and fewer than ``max_turns`` decisions made, an attack that
        would begin in the position (attacker, trump, every hand) of one of the last 64 attacks that were to
        begin with the stock empty is not begun: the game stops (``repetition``)."""
        if not self.rules.get("repetition") or self.stock or self.ev.decisions >= self.rules["max_turns"]:
            return False
        position = (attacker, self.trump, tuple(frozenset(h) for h in self.hands))
        if position in self.positions[-WINDOW:]:
            self.state(self.ev.take("repetition", -1))
            return True
        self.positions.append(position)
        return False

    def state(self, event: dict, on: str = "") -> None:
        self.ev.expect(event, hand_sizes=hand_sizes(len(h) for h in self.hands), stock=len(self.stock),
                       trump=self.trump, on=on)

    def conserved(self) -> None:
        """Every card of the deck in exactly one place. Every move takes a card from the place that
        holds it (checked there) and puts it in one place, so this holds after every event; it is
        counted in full at the end."""
        places = [c for h in self.hands for c in h] + [*self.stock, *self.table, *self.discard]
        if sorted(places) != sorted(self.deck):
            self.ev.fail("cards lost or duplicated")

    def in_play(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def next_in(self, seat: int) -> int:
        """MM-9, MM-14: the next seat to the left still in."""
        for i in range(1, self.players):
            if (seat + i) % self.players not in self.out:
                return (seat + i) % self.players
        return seat

    # -- the deal -----------------------------------------------------------------------------

    def deal(self) -> None:
        """MM-4: ``hand_size`` cards each, the rest is the stock; MM-7: a turned trump."""
        events = self.ev.deal(self.players, self.rules["hand_size"],
                              lambda seat, card: self.ev.move(card, self.stock, self.hands[seat], "the deck"))
        for event in events:
            self.state(event)
        if self.rules["trump"] != "turned":
            return
        while self.ev.peek() is not None and self.ev.peek()["action"] == "reshuffle":
            event = self.ev.take("reshuffle", -1)  # MM-7: a spade on top is shuffled back
            if len(cards(event)) != 1 or suit(cards(event)[0]) != "♠" or cards(event)[0] not in self.stock:
                self.ev.fail("only a spade in the stock is shuffled back")
            self.state(event)
        event = self.ev.take("turn", -1)
        self.turned = cards(event)[0]
        if self.turned not in self.stock or suit(self.turned) == "♠":
            self.ev.fail("the turned trump is a card of the stock, not a spade")
        self.trump = suit(self.turned)
        self.state(event)

    # -- moves ---------------------------------------------------------------------------------

    def draw(self, seat: int, wanted: int) -> None:
        """Draw from the stock: ``wanted`` cards, fewer if it runs out; the turned trump last (MM-7)."""
        n = max(0, min(wanted, len(self.stock)))
        if n == 0:
            return
        event = self.ev.take("draw", seat)
        if len(cards(event)) != n:
            self.ev.fail(f"seat {seat} draws {len(cards(event))} cards, the rules give {n}")
        for card in cards(event):
            if card == self.turned and len(self.stock) > 1:
                self.ev.fail(f"the turned trump {card} is drawn before the last card of the stock")
            self.ev.move(card, self.stock, self.hands[seat], "the stock")
        self.state(event)

    def marriage(self, seat: int) -> None:
        """MM-5: at the start of one's own decision, a king and queen of a suit (not spades) held,
        no trump yet: that suit becomes trump for the rest of the game."""
        event = self.ev.take("declare", seat, NEW)
        s = event["trump"]
        held = {c.rstrip("'") for c in self.hands[seat]}
        if self.rules["trump"] != "marriage" or self.trump or s not in ("♣", "♦", "♥") or {s + "K", s + "Q"} - held:
            self.ev.fail(f"seat {seat} may not declare {s or 'nothing'} trump")
        self.trump, self.declared = s, event["decision"]
        self.state(event)

    def opens(self, seat: int) -> object:
        """The decision number of ``seat``'s next event: a marriage declared opens the decision."""
        event = self.ev.peek()
        if event is not None and event["action"] == "declare" and event["seat"] == seat:
            self.marriage(seat)
            return self.declared
        return NEW

    def out_if_empty(self, seat: int) -> None:
        """MM-14: no cards once the stock is empty: out."""
        if not self.hands[seat] and not self.stock and seat not in self.out:
            self.out.append(seat)
            self.state(self.ev.take("out", seat))

    def attack(self, seat: int) -> None:
        """MM-9, MM-13: one or more cards of one suit to the next seat in; then the refill."""
        defender = self.next_in(seat)
        event = self.ev.take("attack", seat, self.opens(seat))
        played = cards(event)
        if not played or len({suit(c) for c in played}) != 1 or len(set(played)) != len(played):
            self.ev.fail("an attack is one or more cards of one suit")
        if event["target"] != defender:
            self.ev.fail(f"the attack goes to seat {event['target']}, the next seat in is {defender}")
        if not self.stock and len(played) > len(self.hands[defender]):
            self.ev.fail(f"{len(played)} cards attack a hand of {len(self.hands[defender])} (MM-13)")
        for card in played:
            self.ev.move(card, self.hands[seat], self.table, f"seat {seat}'s hand")
        self.rounds += 1
        self.state(event)
        if self.rules["refill"] == "played":  # MM-9
            self.draw(seat, len(played))
        else:
            self.draw(seat, self.rules["hand_size"] - len(self.hands[seat]))
        self.out_if_empty(seat)

    def defend(self, seat: int) -> int:
        """MM-10…MM-12: beat what one can (all of it, if one can and must), discard the beaten pairs,
        pick up the rest, draw up. The next attacker."""
        attack = set(self.table)
        must = self.rules["must_beat"] == "all_if_possible" and can_beat_all(
            self.hands[seat], attack, self.trump, self.rules["black_maria"])
        number = self.opens(seat)
        pairs = []
        while True:
            event = self.ev.take("beat", seat, number)
            number = event["decision"]
            if not cards(event):
                if pairs or event["on"]:
                    self.ev.fail("'beats nothing' is the defence's only event")
                if must:
                    self.ev.fail(f"seat {seat} beats nothing, but can beat every attack card and must (MM-10)")
                self.state(event)
                break
            beater, card = cards(event)[0], event["on"]
            if card not in attack or card in [a for _, a in pairs]:
                self.ev.fail(f"{card} is not an attack card left to beat")
            if not beats(beater, card, self.trump, self.rules["black_maria"]):
                self.ev.fail(f"{beater} does not beat {card} (trump {self.trump or 'none'})")
            self.ev.move(beater, self.hands[seat], self.table, f"seat {seat}'s hand")
            pairs.append((beater, card))
            self.state(event, on=card)
            nxt = self.ev.peek()
            if nxt is None or nxt["action"] != "beat" or nxt["decision"] != number:
                break
        beaten = {a for _, a in pairs}
        if must and beaten != attack:
            self.ev.fail(f"seat {seat} can beat every attack card and must (MM-10)")
        if pairs:
            event = self.ev.take("discard", -1)
            if cards(event) != [c for b, a in pairs for c in (a, b)]:
                self.ev.fail("the discard is not the beaten pairs")
            for card in cards(event):
                self.ev.move(card, self.table, self.discard, "the table")
            self.state(event)
        if attack - beaten:
            event = self.ev.take("pick_up", seat)
            if set(cards(event)) != attack - beaten:
                self.ev.fail("the cards picked up are not the unbeaten ones")
            for card in cards(event):
                self.ev.move(card, self.table, self.hands[seat], "the table")
            self.state(event)
        self.draw(seat, self.rules["hand_size"] - len(self.hands[seat]))  # MM-11, MM-12
        self.out_if_empty(seat)
        if attack - beaten or seat in self.out:
            return self.next_in(seat)  # MM-12 (MM-11 when the defender went out)
        return seat  # MM-11


def check(table, record: dict, rules: dict, players: int) -> None:
    """Re-play the events of one Musta-Maija game; ``CheckError`` on the first thing the rules do not allow."""
    ev = Events(table)
    g = Game(ev, rules, players)
    g.deal()
    attacker = 1 % players  # MM-9: seat 1 attacks first
    truncated = repeated = False
    while len(g.in_play()) > 1:
        if ev.decisions == rules["max_turns"]:  # MM-16, before any decision
            truncated = True
            break
        if g.repeats(attacker):  # MM-18, before an attack
            truncated = repeated = True
            break
        g.attack(attacker)
        if ev.decisions == rules["max_turns"]:
            truncated = True
            break
        attacker = g.defend(g.next_in(attacker))
    if truncated and not repeated:
        ev.truncation(g.table, g.state)
    ev.finals(g.hands, g.state)
    g.conserved()
    ev.done()
    left = g.in_play()
    holder = [s for s in range(players) if BLACK_MARIA in g.hands[s]]
    same_record(record, turns=ev.decisions, truncated=truncated,
                loser=left[0] if len(left) == 1 and not truncated else -1,  # MM-14
                rounds=g.rounds, **finish(g.out), black_maria_holder=holder[0] if holder else -1,
                trump_suit=SUITS.index(g.trump) if g.trump else -1, trump_declared_turn=g.declared)
