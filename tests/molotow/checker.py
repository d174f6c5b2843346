"""An independent check of a Molotow Jass replay, written from docs/rules/molotow.md alone.

``check(events, record, rules, players)`` re-plays a game from its events table
(``Replay.events``) and raises ``CheckError`` (``replay_reading``) where a card is played against MJ-6…MJ-11,
a trick goes to the wrong seat, a card is lost or duplicated, a state column is wrong,
a hand is scored against MJ-13…MJ-18, or the record disagrees. It reads the players'
choices from the events (it knows the rules, not the policies) and imports nothing of
cardsim.

The places a card can be: a seat's hand, the trick on the table, the tricks a seat took.
"""
from __future__ import annotations

from replay_reading import NEW, Events, cards, hand_sizes, same_record

SUITS = "♠♥♦♣"
PLAIN = ("6", "7", "8", "9", "10", "U", "O", "K", "A")  # MJ-2, low to high
TRUMP_ORDER = ("6", "7", "8", "10", "O", "K", "A", "9", "U")  # MJ-3, low to high
PLAIN_POINTS = {"A": 11, "K": 4, "O": 3, "U": 2, "10": 10}  # MJ-2 (the others 0)
TRUMP_POINTS = {"U": 20, "9": 14, "A": 11, "K": 4, "O": 3, "10": 10}  # MJ-3
DECK = {s + r for s in SUITS for r in PLAIN}  # MJ-1: 36 cards


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> str:
    return card[1:]


def points(card: str, trump: str) -> int:
    """MJ-2…MJ-4: the card's points under the hand's final trump ('' = none set: every 8 is worth 8)."""
    if not trump:
        return 8 if rank(card) == "8" else PLAIN_POINTS.get(rank(card), 0)
    return (TRUMP_POINTS if suit(card) == trump else PLAIN_POINTS).get(rank(card), 0)


def beats(card: str, best: str, trump: str) -> bool:
    """MJ-12: does ``card`` take the trick from ``best`` (a trump, or of the led suit)?"""
    if suit(card) == trump:
        return suit(best) != trump or TRUMP_ORDER.index(rank(card)) > TRUMP_ORDER.index(rank(best))
    return suit(card) == suit(best) and suit(best) != trump and PLAIN.index(rank(card)) > PLAIN.index(rank(best))


def best_of(trick: list[str], trump: str) -> str:
    best = trick[0]
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    return best


def legal(card: str, hand: set[str], trick: list[str], trump: str, undertrump: str) -> bool:
    """May ``card`` (held) be played to ``trick``? MJ-6 (any lead), MJ-7, MJ-9, MJ-10, MJ-11."""
    buur = trump + "U" if trump else ""
    if not trick or card == buur:  # MJ-6; MJ-11: the Buur may always be played ...
        return True
    rest = hand - {buur}  # ... and never has to be: the duties count the other cards
    led = suit(trick[0])
    follow = {c for c in rest if suit(c) == led}
    if not trump or led == trump:  # MJ-7: follow suit if you can, else any card
        return suit(card) == led or not follow
    trumps = {c for c in rest if suit(c) == trump}
    best = best_of(trick, trump)
    if suit(best) != trump:  # MJ-9: follow suit or play a trump; without the suit, any card
        return suit(card) in (led, trump) or not follow
    higher = {c for c in trumps if beats(c, best, trump)}
    lower = trumps - higher
    if undertrump == "seed":  # MJ-10: follow or overtrump; if neither, undertrump if you can
        if follow or higher:
            return card in follow | higher
        return card in lower or not lower
    if undertrump == "forbidden":  # MJ-10: no lower trump unless holding only trumps
        if card in lower and rest != trumps:
            return False
    return suit(card) in (led, trump) or not follow  # MJ-10 "allowed" (and the rest of "forbidden")


class Hand:
    """One hand as the rules tell it: the cards held, on the table and taken; the trump (MJ-8)."""

    def __init__(self, ev: Events, number: int, players: int) -> None:
        self.ev, self.number, self.players = ev, number, players
        self.held: list[set[str]] = [set() for _ in range(players)]
        self.taken: list[list[str]] = [[] for _ in range(players)]
        self.table: list[str] = []
        self.trump = ""
        self.trick: int | None = None

    def state(self, event: dict, **more) -> None:
        self.ev.expect(event, hand_sizes=hand_sizes(len(h) for h in self.held), hand=self.number,
                       trick=self.trick, trump=self.trump, **more)

    def conserved(self) -> None:
        """Every card of the deck in exactly one place. Every move takes a card from the place that
        holds it (checked there) and puts it in one place, so this holds after every event; it is
        counted in full at the end of each hand."""
        places = [c for h in self.held for c in h] + self.table + [c for t in self.taken for c in t]
        if sorted(places) != sorted(DECK):
            self.ev.fail("cards lost or duplicated")

    def deal(self) -> None:
        """MJ-5: every card to a seat, 36 / players each."""
        events = [self.ev.take("deal", seat) for seat in range(self.players)]
        for seat, event in enumerate(events):
            self.held[seat] = set(cards(event))
            if len(self.held[seat]) != len(DECK) // self.players or len(cards(event)) != len(self.held[seat]):
                self.ev.fail(f"seat {seat} is dealt {len(cards(event))} cards, not {len(DECK) // self.players}")
        self.conserved()
        for event in events:
            self.state(event)

    def play(self, seat: int, undertrump: str) -> None:
        """One card (a decision): legal (MJ-6…MJ-11), to the table; MJ-8 may set trump."""
        event = self.ev.take("play", seat, NEW)
        card = cards(event)[0]
        if card not in self.held[seat]:
            self.ev.fail(f"seat {seat} does not hold {card}")
        if not legal(card, self.held[seat], self.table, self.trump, undertrump):
            self.ev.fail(f"{card} may not be played to {self.table} with trump {self.trump or 'none'} ({undertrump})")
        sets_trump = not self.trump and bool(self.table) and suit(card) != suit(self.table[0])
        self.held[seat].remove(card)
        self.table.append(card)
        self.state(event)
        if sets_trump:  # MJ-8: the first card that does not follow sets trump, in its own trick too
            self.trump = suit(card)
            self.state(self.ev.take("trump", seat))

    def take_trick(self, seats: list[int]) -> int:
        """MJ-12: the trick goes to the seat of its best card, who leads the next (MJ-6)."""
        winner = seats[self.table.index(best_of(self.table, self.trump))]
        event = self.ev.take("take", winner)
        if cards(event) != self.table:
            self.ev.fail("the trick taken is not the cards played to it")
        self.taken[winner] += self.table
        self.table = []
        self.state(event)
        return winner


def score(ev: Events, pts: list[int], rules: dict, hand: Hand) -> tuple[list[int], list[int], bool]:
    """MJ-13…MJ-18 for one hand's points: sticks, potatoes, and whether a three-way tie was drawn."""
    n = len(pts)
    total = 152 + rules["last_trick_bonus"]
    others = 3 if rules["big_hand"] == "seed" else 1
    for s, p in enumerate(pts):
        if p == total:  # MJ-17
            return [3 if t == s else 0 for t in range(n)], [0 if t == s else others for t in range(n)], False
        if p >= 100:  # MJ-16
            return [0 if t == s else others for t in range(n)], [3 if t == s else 0 for t in range(n)], False
    top = [s for s in range(n) if pts[s] == max(pts)]
    bottom = [s for s in range(n) if pts[s] == min(pts)]
    sticks, potatoes = [0] * n, [0] * n
    if n == 4 and 3 in (len(top), len(bottom)):  # MJ-15
        tied = top if len(top) == 3 else bottom
        sticks[next(s for s in range(n) if s not in tied)] = 1
        potatoes[tie_draw(ev, tied, hand)] = 1
        return sticks, potatoes, True
    for s in range(n):  # MJ-13, MJ-14, MJ-18: a single highest or lowest gets a stick, tied ones nothing
        if s in top or s in bottom:
            sticks[s] = int(len(top if s in top else bottom) == 1)
        else:
            potatoes[s] = 1
    return sticks, potatoes, False


def tie_draw(ev: Events, tied: list[int], hand: Hand) -> int:
    """MJ-15: the tied seats each draw a card; the single highest plain rank gets the potato, else again."""
    while True:
        events = [ev.take("tie_draw", seat) for seat in tied]
        drawn = [card for event in events for card in cards(event)]
        if len(drawn) != len(tied) or len(set(drawn)) < len(tied) or not set(drawn) <= DECK:
            ev.fail("each tied seat draws one card of the deck, no card twice")
        for event in events:
            hand.state(event)
        ranks = [PLAIN.index(rank(card)) for card in drawn]
        if ranks.count(max(ranks)) == 1:
            return tied[ranks.index(max(ranks))]


def check(table, record: dict, rules: dict, players: int) -> None:
    """Re-play the events of one Molotow game; ``CheckError`` on the first thing the rules do not allow."""
    ev = Events(table)
    sticks, potatoes = [0] * players, [0] * players
    counts = {"hands_trumpless": 0, "hands_100": 0, "hands_157": 0, "hands_tie3": 0}
    truncated = False
    for h in range(rules["hands"]):  # MJ-19
        hand = Hand(ev, h, players)
        hand.deal()
        leader = (h % players + 1) % players  # MJ-5, MJ-6: the dealer's right leads
        for trick in range(len(DECK) // players):
            hand.trick = trick
            seats = [(leader + i) % players for i in range(players)]
            for seat in seats:
                if ev.decisions == rules["max_turns"]:
                    truncated = True
                    break
                hand.play(seat, rules["undertrump"])
            if truncated:
                break
            leader = hand.take_trick(seats)
        if truncated:
            hand.state(ev.take("truncated", -1))
            event = ev.take("table", -1)
            if cards(event) != hand.table:
                ev.fail("the cards left on the table are not the unfinished trick's")
            hand.state(event)
            hand.trick = None
            break
        hand.conserved()
        hand.trick = None
        pts = [sum(points(c, hand.trump) for c in taken) for taken in hand.taken]
        pts[leader] += rules["last_trick_bonus"]  # MJ-4: the last trick's winner leads no more
        got, lost, tie = score(ev, pts, rules, hand)
        for seat in range(players):
            hand.state(ev.take("score", seat), points=pts[seat], sticks=got[seat], potatoes=lost[seat])
            sticks[seat] += got[seat]
            potatoes[seat] += lost[seat]
        counts["hands_trumpless"] += not hand.trump
        counts["hands_100"] += any(100 <= p < 152 + rules["last_trick_bonus"] for p in pts)
        counts["hands_157"] += 152 + rules["last_trick_bonus"] in pts
        counts["hands_tie3"] += tie
    ev.finals(hand.held, hand.state)
    hand.conserved()
    ev.done()
    scores = [a - b for a, b in zip(sticks, potatoes)]
    top = [s for s in range(players) if scores[s] == max(scores)]
    seats = {f"{name}_{s}": values[s] if s < players else 0
             for s in range(4) for name, values in (("score", scores), ("sticks", sticks), ("potatoes", potatoes))}
    same_record(record, turns=ev.decisions, truncated=truncated,
                winner=top[0] if len(top) == 1 and not truncated else -1,  # MJ-19
                winners=0 if truncated else sum(1 << s for s in top), **seats, **counts)
