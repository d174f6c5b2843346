"""An independent check of an Uno replay, written from docs/rules/uno.md alone.

``check(events, record, rules, players)`` re-plays a game from its events table
(``Replay.events``) and raises ``CheckError`` (``replay_reading``) where the events break a rule, lose or
duplicate a card, show a wrong state, or disagree with the record. It knows the rules,
not the policies: where a player chose, it reads the choice from the events and checks
that it was allowed. It imports nothing of cardsim (the reader's check).

The places a card can be: a seat's hand, the draw pile, the discard pile (the top card
and the cards under it). The draw pile is the deck less the others; its order is known
only after a reshuffle (U-8), whose event lists it.
"""
from __future__ import annotations

from collections import Counter

from replay_reading import NEW, Events, cards, hand_sizes, same, same_record

COLOURS = "RYGB"
WILDS = ("W", "W+4", "SH", "CW")
POINTS = {"S": 20, "R": 20, "+2": 20, "W": 50, "W+4": 50, "SH": 40, "CW": 40}  # U-19; numbers: face value


def deck(kind: str) -> Counter:
    """U-1, U-2: per colour one 0, two of 1-9, Skip, Reverse, Draw Two; 4 W, 4 W+4; 2018: SH and 3 CW."""
    cards_ = Counter({"W": 4, "W+4": 4})
    for c in COLOURS:
        cards_[c + "0"] = 1
        for symbol in [*"123456789", "S", "R", "+2"]:
            cards_[c + symbol] = 2
    if kind == "2018":
        cards_.update({"SH": 1, "CW": 3})
    return cards_


def colour(card: str) -> str:
    return "" if card in WILDS else card[0]


def symbol(card: str) -> str:
    return card if card in WILDS else card[1:]


def held(cards_: Counter) -> int:
    """Cards in a place (a Counter of card names)."""
    return sum(cards_.values())


def points(card: str) -> int:
    return POINTS.get(symbol(card)) or int(symbol(card))


class Table:
    """The game as the rules tell it, event by event."""

    def __init__(self, events: Events, rules: dict, players: int) -> None:
        self.ev, self.rules, self.players = events, rules, players
        self.deck = deck(rules["deck"])
        self.hands = [Counter() for _ in range(players)]
        self.pile = Counter(self.deck)
        self.order: list[str] | None = None  # the draw pile's order, once a reshuffle showed it
        self.under = Counter()
        self.top, self.colour, self.direction, self.pending, self.hand_no = "", "", 1, 0, 0
        self.challenge: tuple[int, bool] | None = None  # (the seat that played a Wild Draw Four, a bluff?)
        self.number = None  # the decision being made
        self.drawn = self.reshuffles = self.challenges = self.caught = 0

    # -- cards moving ----------------------------------------------------------------

    def give(self, seat: int, card: str) -> None:
        """A card leaves the draw pile for ``seat``'s hand (in the pile's order, once known)."""
        if self.pile[card] <= 0:
            self.ev.fail(f"{card} is not in the draw pile")
        if self.order is not None:
            if self.order[0] != card:
                self.ev.fail(f"{card} drawn, but the reshuffled pile's next card is {self.order[0]}")
            self.order.pop(0)
        self.pile[card] -= 1
        self.hands[seat][card] += 1

    def from_hand(self, seat: int, card: str) -> None:
        if self.hands[seat][card] <= 0:
            self.ev.fail(f"seat {seat} does not hold {card}")
        self.hands[seat][card] -= 1

    def seat_after(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.players

    def conserved(self) -> None:
        """Every card of the deck (U-1) in exactly one place. Every move takes a card from the place
        that holds it (checked there) and puts it in one place, so this holds after every event;
        it is counted in full at the end of each hand."""
        places = Counter(self.pile)
        for place in (*self.hands, self.under, [self.top] if self.top else []):
            places.update(place)
        if places != self.deck:  # (a Counter compares missing cards as 0)
            self.ev.fail(f"cards lost or duplicated: {dict((places - self.deck) + (self.deck - places))}")

    def state(self, event: dict) -> None:
        """The event's state columns as the rules give them."""
        self.ev.expect(event, hand_sizes=hand_sizes(map(held, self.hands)),
                       stock=held(self.pile), top=self.top, colour=self.colour, direction=self.direction,
                       pending=self.pending, hand=self.hand_no)

    def draw(self, seat: int, n: int, action: str = "penalty") -> list[str]:
        """``seat`` draws ``n`` cards (U-8: reshuffling when the pile is empty; fewer if none are left):
        a ``penalty``, or the ``draw`` of a turn (U-7), part of the decision."""
        got: list[str] = []
        while True:
            if self.ev.peek() is not None and self.ev.peek()["action"] == "reshuffle":
                self.reshuffle(self.ev.take("reshuffle", -1))
                continue
            event = self.take(action, seat) if action == "draw" else self.ev.take(action, seat)
            for card in cards(event):
                self.give(seat, card)
            got += cards(event)
            self.drawn += len(cards(event))
            self.state(event)
            if len(got) > n:
                self.ev.fail(f"seat {seat} drew {len(got)} cards, the rules give {n}")
            if len(got) == n or not held(self.pile) and not held(self.under):
                return got
            if held(self.pile):
                self.ev.fail(f"seat {seat} drew {len(got)} of {n} cards while the pile still held cards")

    def reshuffle(self, event: dict) -> None:
        """U-8: an empty draw pile is made of the discard pile less its top card."""
        if held(self.pile):
            self.ev.fail("a reshuffle while the draw pile still holds cards")
        if Counter(cards(event)) != +self.under:
            self.ev.fail("the reshuffled pile is not the discard pile under the top card")
        self.pile, self.under, self.order = Counter(cards(event)), Counter(), cards(event)
        self.reshuffles += 1
        self.state(event)

    # -- the rules of a turn -------------------------------------------------------------

    def playable(self, card: str) -> bool:
        """U-6, U-12: colour, number or symbol matches the top, or a wild (U-13's condition apart)."""
        return card in WILDS or colour(card) == self.colour or (
            self.top not in WILDS and symbol(card) == symbol(self.top))

    def holds_colour(self, seat: int) -> bool:
        return any(n > 0 and colour(card) == self.colour for card, n in self.hands[seat].items())

    def name_colour(self, seat: int) -> None:
        event = self.take("colour", seat)
        if event["colour"] not in COLOURS:
            self.ev.fail("a colour must be named")
        self.colour = event["colour"]
        self.state(event)

    def play(self, seat: int, event: dict) -> int | None:
        """The card of ``event`` goes on the discard pile, then its effects (U-9..U-18): the next
        seat to decide, or None when ``seat`` went out."""
        card = cards(event)[0]
        bluff = card == "W+4" and self.holds_colour(seat)  # U-13: legal only without the current colour
        self.from_hand(seat, card)
        if self.top:
            self.under[self.top] += 1
        self.top = card
        if card not in WILDS:
            self.colour = colour(card)
        self.state(event)
        nxt = self.seat_after(seat)
        if not held(self.hands[seat]):
            return self.go_out(seat, card)
        if symbol(card) == "S":  # U-9
            return self.seat_after(seat, 2)
        if symbol(card) == "R":  # U-10
            self.direction = -self.direction
            return self.seat_after(seat, 1 if self.players > 2 else 2)
        if symbol(card) == "+2":  # U-11
            if self.rules["stack_draw_two"]:
                self.pending += 2
                return nxt
            self.draw(nxt, 2)
            return self.seat_after(seat, 2)
        if card == "SH":  # U-15
            self.shuffle_hands(seat)
        if card == "CW" and self.rules["custom_wild"] == "swap_hands":  # U-16
            event = self.take("swap", seat)
            other = event["target"]
            if not (0 <= other < self.players) or other == seat or Counter(cards(event)) != +self.hands[other]:
                self.ev.fail("a swap takes the whole hand of another seat")
            self.hands[seat], self.hands[other] = self.hands[other], self.hands[seat]
            self.state(event)
        if card == "CW" and self.rules["custom_wild"] == "everyone_draws_one":
            for i in range(1, self.players):
                self.draw(self.seat_after(seat, i), 1)
        if card in WILDS:
            self.name_colour(seat)
        if card == "W+4":  # U-13, U-14
            if self.rules["wd4_challenge"]:
                self.challenge = (seat, bluff)  # answered in the next decision, by the next seat
                return nxt
            self.draw(nxt, 4)
            return self.seat_after(seat, 2)
        return nxt

    def go_out(self, seat: int, card: str) -> None:
        """U-18: the last card wins the hand; a last Draw Two or Wild Draw Four still makes the next draw."""
        nxt = self.seat_after(seat)
        total, self.pending = self.pending + 2, 0
        if symbol(card) == "+2":
            self.draw(nxt, total)
        elif card == "W+4":
            self.draw(nxt, 4)
        elif card == "CW" and self.rules["custom_wild"] == "everyone_draws_one":
            for i in range(1, self.players):
                self.draw(self.seat_after(seat, i), 1)
        self.state(self.ev.take("out", seat))
        self.winner = seat
        return None

    def shuffle_hands(self, seat: int) -> None:
        """U-15: all hands dealt out again one at a time from the next player in the direction of play."""
        pooled = sum(self.hands, Counter())
        total = sum(pooled.values())
        order = [self.seat_after(seat, i) for i in range(1, self.players + 1)]
        events = [self.ev.take("shuffle", receiver) for receiver in order]
        self.hands = [Counter() for _ in range(self.players)]
        for i, (receiver, event) in enumerate(zip(order, events)):
            self.hands[receiver] = Counter(cards(event))
            if len(cards(event)) != total // self.players + (i < total % self.players):
                self.ev.fail(f"Shuffle Hands deals seat {receiver} {len(cards(event))} cards")
        if sum(self.hands, Counter()) != pooled:
            self.ev.fail("Shuffle Hands dealt other cards than the hands held")
        for event in events:
            self.state(event)

    # -- decisions ---------------------------------------------------------------------------

    def take(self, actions, seat: int) -> dict:
        """The next event of the decision being made (the first one opens it)."""
        return self.ev.take(actions, seat, self.decision())

    def decision(self):
        """The decision number for the next event of this decision: ``NEW`` for its first."""
        if self.number is None:
            self.number = self.ev.decisions
            return NEW
        return self.number

    def decide(self, seat: int) -> int | None:
        """One decision of ``seat`` (its steps in the order of the rules): the next seat to decide,
        or None when the hand was won."""
        self.number = None
        if not self.colour:  # U-5: after a wild starting card seat 1 names the colour, then plays
            self.name_colour(seat)
        if self.pending:  # U-11 stacking: a Draw Two, or take the total
            event = self.take(("play", "no_stack"), seat)
            if event["action"] == "play":
                if symbol(cards(event)[0]) != "+2":
                    self.ev.fail("only a Draw Two answers a stacked Draw Two")
                return self.play(seat, event)
            self.state(event)
            total, self.pending = self.pending, 0
            self.draw(seat, total)
            return self.seat_after(seat)
        if self.challenge is not None:  # U-14: only the player hit may challenge, at once
            player, bluff = self.challenge
            self.challenge = None
            event = self.take(("challenge", "no_challenge"), seat)
            self.state(event)
            if event["action"] == "no_challenge":
                self.draw(seat, 4)
                return self.seat_after(seat)
            if event["target"] != player:
                self.ev.fail(f"the challenge names seat {event['target']}, the Wild Draw Four was seat {player}'s")
            self.challenges += 1
            if not bluff:
                self.draw(seat, 6)
                return self.seat_after(seat)
            self.caught += 1
            self.draw(player, 4)
        return self.turn(seat)

    def turn(self, seat: int) -> int | None:
        """U-6, U-7: play a card, or draw (one, or until a playable card comes) and maybe play it."""
        event = self.ev.peek()
        if event is not None and event["action"] == "play":
            event = self.take("play", seat)
            if not self.playable(cards(event)[0]):
                self.ev.fail(f"{cards(event)[0]} may not be played on {self.top} with colour {self.colour}")
            return self.play(seat, event)
        while True:
            got = self.draw(seat, 1, "draw")
            if not got:
                return self.seat_after(seat)
            event = self.ev.peek()
            if event is not None and event["action"] == "play" and event["decision"] == self.number:
                if cards(event) != got or not self.playable(got[0]):
                    self.ev.fail("after a draw only the playable card just drawn may be played (U-7)")
                return self.play(seat, self.take("play", seat))
            if self.rules["draw_rule"] == "one" or self.playable(got[0]):
                return self.seat_after(seat)

    # -- hands and the game --------------------------------------------------------------------

    def deal(self, hand_no: int) -> int:
        """U-4, U-5: a new hand; the seat that decides first."""
        self.hand_no = hand_no
        self.hands = [Counter() for _ in range(self.players)]
        self.pile, self.order, self.under = Counter(self.deck), None, Counter()
        self.top, self.colour, self.direction, self.pending, self.challenge = "", "", 1, 0, None
        dealer = hand_no % self.players  # U-20: the deal passes one seat to the left
        events = self.ev.deal(self.players, self.rules["hand_size"], self.give)
        for event in events:
            self.state(event)
        while True:
            event = self.ev.take("starter", dealer)
            self.top = cards(event)[0]
            self.pile[self.top] -= 1
            if self.pile[self.top] < 0:
                self.ev.fail(f"the starting card {self.top} is not in the draw pile")
            if self.top != "W+4":
                break
            self.state(event)
            back = self.ev.take("starter_back", dealer)  # U-5: the only forbidden starter
            self.pile["W+4"] += 1
            self.top = ""
            self.state(back)
        starter = self.top
        self.colour = colour(starter)
        if symbol(starter) == "R":
            self.direction = -1
        self.state(event)
        if symbol(starter) == "S":
            return self.seat_after(dealer, 2)
        if symbol(starter) == "R":
            return dealer
        if symbol(starter) == "+2":
            if self.rules["stack_draw_two"]:
                self.pending = 2
                return self.seat_after(dealer)
            self.draw(self.seat_after(dealer), 2)
            return self.seat_after(dealer, 2)
        return self.seat_after(dealer)

    def hand_value(self, winner: int) -> int:
        """U-19: the cards left in the other hands."""
        return sum(points(card) * n for seat, hand in enumerate(self.hands) if seat != winner
                   for card, n in hand.items())


def check(table, record: dict, rules: dict, players: int) -> None:
    """Re-play the events of one Uno game; ``CheckError`` on the first thing the rules do not allow."""
    ev = Events(table)
    t = Table(ev, rules, players)
    scores = [0] * players
    winner = points_ = -1
    hands_played = 0
    truncated = False
    while winner < 0 and not truncated:
        seat = t.deal(hands_played)
        hands_played += 1
        start = ev.decisions
        while seat is not None:
            nxt = ev.peek()
            if nxt is not None and nxt["action"] == "truncated":
                if ev.decisions - start != rules["max_turns"]:  # U-21
                    ev.fail(f"a hand truncated after {ev.decisions - start} decisions, max_turns is "
                            f"{rules['max_turns']}")
                t.state(ev.take("truncated", -1))
                event = ev.take("table", -1)
                if cards(event)[-1:] != [t.top] or Counter(cards(event)[:-1]) != +t.under:
                    ev.fail("the cards left on the table are not the discard pile")
                t.state(event)
                truncated = True
                break
            if ev.decisions - start == rules["max_turns"]:
                ev.fail("the hand goes on after max_turns decisions (U-21)")
            seat = t.decide(seat)
        t.conserved()
        if truncated:
            break
        won = t.winner
        gained = t.hand_value(won)
        event = ev.take("score", won)
        same(event["points"], gained, "points of the score event")
        t.state(event)
        scores[won] += gained
        if rules["target_score"] is None or scores[won] >= rules["target_score"]:  # U-20
            winner, points_ = won, gained if rules["target_score"] is None else scores[won]
    for seat in range(players):
        event = ev.take("final", seat)
        if Counter(cards(event)) != +t.hands[seat]:
            ev.fail(f"seat {seat}'s final hand is not what it holds")
        t.state(event)
    ev.done()
    same_record(record, turns=ev.decisions, truncated=truncated, winner=winner, points=0 if truncated else points_,
                hands=hands_played, cards_drawn=t.drawn, reshuffles=t.reshuffles, challenges=t.challenges,
                successful_challenges=t.caught)
