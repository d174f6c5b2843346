"""An independent check of a Moska replay, written from docs/rules/moska.md alone.

``check(events, record, rules, players)`` re-plays a game from its events table
(``Replay.events``) and raises ``CheckError`` (``replay_reading``) where an opening, a kill, a self-attack,
an addition or a give-back breaks M-6…M-17, a refill or the turn order is wrong, a card
is lost or duplicated, a state column is wrong, or the record disagrees. It reads the
players' choices from the events (it knows the rules, not the policies) and imports
nothing of cardsim.

The places a card can be: a seat's hand, the stock (the deck less the others; only its
last card is known: the turned card, or the trump 2 after a swap, M-5, M-6), the table
(attack cards and kill cards of the round), the discard pile. The order of a round
(M-15): the opening; then defence steps (one decision of the defender, if they hold a
card) and addition steps (one decision per seat that may add, all at once, M-12) in
turn, until an addition step leaves no card on the table, the defender is out, or the
defender closes (M-14b); then the round ends (M-16, M-17).
"""
from __future__ import annotations

from replay_reading import NEW, Events, cards, finish, hand_sizes, same_record

SUITS = "♣♦♥♠"
RANKS = "23456789TJQKA"  # M-1: low to high
DECK = {s + r for s in SUITS for r in RANKS}
NO_LIMIT = 52


class GameEnds(Exception):
    """The game ended (M-19, M-20), was truncated (M-21) or stopped by repetition (M-23) at the event just read."""


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> int:
    return RANKS.index(card[1])


def kills(attack: str, killer: str, trump: str) -> bool:
    """M-10: a higher card of the same suit, or a trump on a non-trump."""
    if suit(killer) == suit(attack):
        return rank(killer) > rank(attack)
    return suit(killer) == trump and suit(attack) != trump


def is_opening(played: list[str]) -> bool:
    """M-8: one card, or a union of same-rank groups of at least two cards."""
    ranks = [rank(c) for c in played]
    return len(played) == 1 or all(ranks.count(r) >= 2 for r in ranks)


class Game:
    """The game as the rules tell it, event by event."""

    def __init__(self, ev: Events, rules: dict, players: int) -> None:
        self.ev, self.rules, self.players = ev, rules, players
        self.hands: list[set[str]] = [set() for _ in range(players)]
        self.stock = set(DECK)
        self.bottom = ""  # the stock's last card, drawn last (M-5)
        self.turned = ""
        self.trump = ""
        self.discard: set[str] = set()
        self.out: list[int] = []
        self.rounds = self.swaps = self.overplays = self.pickups = self.self_attacks = 0
        self.loser, self.truncated = -1, False
        self.attacker = 1 % players  # M-7
        self.positions: list[tuple] = []  # M-23: (attacker, hands) where rounds began with the stock empty
        self.new_round(-1)

    def new_round(self, defender: int) -> None:
        self.defender = defender
        self.attack: set[str] = set()  # attack cards of the round (M-14's own cards too)
        self.killers: set[str] = set()
        self.unkilled: set[str] = set()
        self.start_hand = len(self.hands[defender]) if defender >= 0 else 0
        self.gone = 0  # cards that left the defender's hand this round (M-14)

    # -- reading events -----------------------------------------------------------------------

    def state(self, event: dict, on: str = "") -> None:
        self.ev.expect(event, hand_sizes=hand_sizes(len(h) for h in self.hands), stock=len(self.stock),
                       trump=self.trump, round=self.rounds, on=on)
        if set(event["unkilled"].split()) != self.unkilled:
            self.ev.fail(f"column unkilled reads {event['unkilled']!r}, the rules give {sorted(self.unkilled)}")

    def conserved(self) -> None:
        """Every card in exactly one place. Every move takes a card from the place that holds it
        (checked there) and puts it in one place, so this holds after every event; it is counted
        in full at the end."""
        places = [c for h in self.hands for c in h] + [*self.stock, *self.attack, *self.killers, *self.discard]
        if sorted(places) != sorted(DECK):
            self.ev.fail("cards lost or duplicated")

    def next_in(self, seat: int) -> int:
        """The next seat clockwise that is not out (M-7, M-16, M-17)."""
        for i in range(1, self.players + 1):
            if (seat + i) % self.players not in self.out:
                return (seat + i) % self.players
        return seat

    def decision(self) -> None:
        """M-21: before each decision, a game that made ``max_turns`` decisions stops, truncated."""
        if self.ev.decisions == self.rules["max_turns"]:
            self.ev.truncation(self.attack | self.killers, self.state)
            self.truncated = True
            raise GameEnds

    # -- deal, stock, swap ----------------------------------------------------------------------

    def deal(self) -> None:
        """M-4: ``hand_size`` cards each; M-5: the next card turned for trump, under the stock."""
        events = self.ev.deal(self.players, self.rules["hand_size"],
                              lambda seat, card: self.ev.move(card, self.stock, self.hands[seat], "the deck"))
        turn = self.ev.take("turn", -1)
        self.turned = self.bottom = cards(turn)[0]
        if self.turned not in self.stock:
            self.ev.fail("the turned card is not a card of the stock")
        self.trump = suit(self.turned)  # (the trump column names it from the first event on)
        for event in (*events, turn):
            self.state(event)
        for seat in range(self.players):  # M-6 (a): right after the deal
            self.swap_if_possible(seat)

    def two(self) -> str:
        return self.trump + "2"

    def swap_if_possible(self, seat: int) -> None:
        """M-6: the holder of the trump 2 swaps it for the turned card while that is under the stock."""
        if not (self.rules["trump_two_swap"] and self.stock and self.bottom == self.turned
                and self.two() in self.hands[seat]):
            return
        event = self.ev.take("swap", seat)
        if cards(event) != [self.two()] or event["on"] != self.turned:
            self.ev.fail("a swap gives the trump 2 for the turned card")
        self.hands[seat].remove(self.two())
        self.stock.remove(self.turned)
        self.hands[seat].add(self.turned)
        self.stock.add(self.two())
        self.bottom = self.two()
        self.swaps += 1
        self.state(event, on=self.turned)

    def refill(self, seat: int) -> None:
        """M-13: draw up to ``hand_size``, the stock's last card last; M-6 (b) a swap right after
        drawing the trump 2; M-18: no cards and no stock: out."""
        while self.stock and len(self.hands[seat]) < self.rules["hand_size"]:
            event = self.ev.take("draw", seat)
            for card in cards(event):
                if not self.stock or len(self.hands[seat]) >= self.rules["hand_size"]:
                    self.ev.fail(f"seat {seat} draws beyond hand_size or an empty stock")
                if card == self.bottom and len(self.stock) > 1:
                    self.ev.fail(f"{card}, the stock's last card, is drawn before the others")
                self.ev.move(card, self.stock, self.hands[seat], "the stock")
                if card == self.two() and card != cards(event)[-1] and self.can_swap(seat):
                    self.ev.fail("the trump 2 is swapped right after the draw that brings it (M-6)")
            self.state(event)
            if cards(event)[-1] == self.two():
                self.swap_if_possible(seat)
        if not self.stock and not self.hands[seat] and seat not in self.out:
            self.out.append(seat)
            self.state(self.ev.take("out", seat))

    def can_swap(self, seat: int) -> bool:
        return (self.rules["trump_two_swap"] and bool(self.stock) and self.bottom == self.turned
                and self.two() in self.hands[seat])

    # -- the room, the ranks, the limits -------------------------------------------------------

    def room(self) -> int:
        """M-9: how many more attack cards fit (``cap_mode``, ``cap_to_defender_hand``)."""
        cap = self.rules["attack_cap"] or NO_LIMIT
        if self.rules["cap_mode"] == "round":
            hand, used = self.start_hand, len(self.attack)
        else:
            hand, used = len(self.hands[self.defender]), len(self.unkilled)
        return max(0, min(cap, hand if self.rules["cap_to_defender_hand"] else NO_LIMIT) - used)

    def allowed(self, card: str) -> bool:
        """M-11: a rank of the attack cards of the round (and of kill cards with ``attack_and_kill``)."""
        seen = self.attack | (self.killers if self.rules["continuation"] == "attack_and_kill" else set())
        return rank(card) in {rank(c) for c in seen}

    def leave_limit(self) -> int:
        """M-14 (TARAKI 3.5.3): cards that may leave the defender's hand in a round."""
        if not self.rules["defender_self_attack"]:
            return NO_LIMIT
        return self.rules["attack_cap"] or 6

    def holds_cards(self, seat: int) -> bool:
        """M-15, M-19: a hand, or, for the defender, unkilled cards to pick up."""
        return bool(self.hands[seat]) or (seat == self.defender and bool(self.unkilled))

    def end_check(self) -> None:
        """M-19, M-20: the stock empty and at most one seat holding cards: the game ends."""
        if self.stock:
            return
        holders = [s for s in range(self.players) if self.holds_cards(s)]
        if len(holders) <= 1:
            self.loser = holders[0] if holders else -1
            self.state(self.ev.take("lose" if holders else "no_loser", self.loser))
            raise GameEnds

    # -- a round ---------------------------------------------------------------------------------

    def play_round(self) -> None:
        """M-7, M-15: opening, then defence and addition steps, then the end of the round."""
        attacker, defender = self.attacker, self.next_in(self.attacker)
        self.repetition(attacker)
        self.rounds += 1
        self.new_round(defender)
        event = self.ev.take("round", attacker)
        if event["target"] != defender:
            self.ev.fail(f"the round's defender is seat {event['target']}, the next seat in is {defender}")
        self.state(event)
        self.opening(attacker)
        while True:
            self.defence_step()
            if not self.hands[defender] and not self.stock:
                break  # the defender is out (M-18)
            if self.rules["defender_closes"] and not self.unkilled:
                break  # M-14b
            if not self.addition_step(attacker):
                break
        self.end_round()

    def repetition(self, attacker: int) -> None:
        """M-23: with the knob on and the stock empty, a round that would begin in the position one of the last
        64 rounds began in (with the stock empty) is not begun: the game stops, unless M-21 stops it first."""
        if not self.rules.get("repetition") or self.stock or self.ev.decisions >= self.rules["max_turns"]:
            return
        position = (attacker, [sorted(h) for h in self.hands])
        if position in self.positions[-64:]:
            self.state(self.ev.take("repetition", -1))
            self.truncated = True
            raise GameEnds
        self.positions.append(position)

    def opening(self, attacker: int) -> None:
        """M-8, M-9: the attacker's opening; M-13: the refill."""
        self.decision()
        event = self.ev.take("open", attacker, NEW)
        played = cards(event)
        if event["target"] != self.defender or not played or not is_opening(played) or len(played) > self.room():
            self.ev.fail(f"{played} is not an opening of at most {self.room()} cards at seat {self.defender} (M-8)")
        for card in played:
            self.ev.move(card, self.hands[attacker], self.attack, f"seat {attacker}'s hand")
        self.unkilled |= set(played)
        self.state(event)
        self.refill(attacker)
        self.end_check()

    def defence_step(self) -> None:
        """M-10, M-14: one decision of the defender, if they hold a card: kills, own cards, or nothing."""
        d = self.defender
        if not self.hands[d]:
            return
        self.decision()
        number = NEW
        while True:
            event = self.ev.take(("kill", "self_attack"), d, number)
            if not cards(event):
                if event["action"] != "kill" or event["on"] or number is not NEW:
                    self.ev.fail("'kills nothing' is the only event of its defence")
                self.state(event)
                return
            number = event["decision"]
            killer, card = cards(event)[0], event["on"]
            if event["action"] == "kill":
                self.kill(card, killer)
            else:
                self.own_pair(card, killer)
            self.state(event, on=card)
            nxt = self.ev.peek()
            if nxt is None or nxt["decision"] != number:
                return

    def kill(self, card: str, killer: str) -> None:
        """M-10; M-14: nothing more once the six-card limit is reached."""
        if card not in self.unkilled:
            self.ev.fail(f"{card} is not an unkilled attack card")
        if not kills(card, killer, self.trump):
            self.ev.fail(f"{killer} does not kill {card} (trump {self.trump})")
        if self.gone >= self.leave_limit():
            self.ev.fail(f"a kill after {self.gone} cards left the defender's hand (M-14)")
        self.ev.move(killer, self.hands[self.defender], self.killers, "the defender's hand")
        self.unkilled.remove(card)
        self.gone += 1

    def own_pair(self, card: str, killer: str) -> None:
        """M-14: an own card of an allowed rank, killed at once; room for two more; the six-card
        limit; in ``cap_mode="unkilled"`` the hand still covers the unkilled cards."""
        hand = self.hands[self.defender]
        if not self.rules["defender_self_attack"]:
            self.ev.fail("the defender's own cards are not allowed (M-14)")
        if card not in hand or killer not in hand or card == killer or not self.allowed(card) \
                or not kills(card, killer, self.trump):
            self.ev.fail(f"{card} killed by {killer} is not an own pair of an allowed rank (M-14)")
        if self.room() < 2 or self.gone + 2 > self.leave_limit():
            self.ev.fail("no room for an own pair, or the six-card limit (M-14)")
        if self.rules["cap_mode"] == "unkilled" and len(hand) - 2 < len(self.unkilled):
            self.ev.fail("an own pair leaves fewer cards than unkilled ones (M-9, M-14)")
        self.ev.move(card, hand, self.attack, "the defender's hand")
        self.ev.move(killer, hand, self.killers, "the defender's hand")
        self.gone += 2
        self.self_attacks += 1

    def addition_step(self, attacker: int) -> bool:
        """M-11, M-12: every seat that may add decides at once; the excess goes back; the cards that
        stay go on the table and their owners refill (M-13). Whether any card stayed."""
        room = self.room()
        ranks_ok = {c for c in DECK if self.allowed(c)}
        order = [(attacker + i) % self.players for i in range(self.players)]
        adders = [p for p in order if p != self.defender and p not in self.out and room >= 1
                  and self.hands[p] & ranks_ok]
        added: dict[int, list[str]] = {}
        for p in adders:
            self.decision()
            event = self.ev.take("add", p, NEW)
            chosen = cards(event)
            if not set(chosen) <= self.hands[p] & ranks_ok or len(chosen) > room:
                self.ev.fail(f"seat {p} may add at most {room} own cards of the allowed ranks (M-11)")
            self.state(event)
            added[p] = chosen
        stays = self.give_back(added, room, attacker)
        for p in added:
            back = set(added[p]) - set(stays[p])
            if back:
                event = self.ev.take("take_back", p)
                if set(cards(event)) != back:
                    self.ev.fail(f"seat {p} takes back other cards than those sent back")
                self.state(event)
        for p in added:
            if stays[p]:
                event = self.ev.take("lay", p)
                if set(cards(event)) != set(stays[p]):
                    self.ev.fail(f"seat {p} puts other cards on the table than those that stay")
                for card in stays[p]:
                    self.ev.move(card, self.hands[p], self.attack, f"seat {p}'s hand")
                    self.unkilled.add(card)
                self.state(event)
        for p in added:
            if stays[p]:
                self.refill(p)
        self.end_check()
        return any(stays.values())

    def give_back(self, added: dict[int, list[str]], room: int, attacker: int) -> dict[int, list[str]]:
        """M-12: the excess over the room goes back: chosen by the defender or the round's attacker,
        or the last over-players take theirs back first (the one taking part of theirs chooses)."""
        excess = sum(map(len, added.values())) - room
        if excess <= 0:
            return added
        how = self.rules["excess_return"]
        if how in ("defender", "attacker"):
            judge = self.defender if how == "defender" else attacker
            self.decision()
            event = self.ev.take("give_back", judge, NEW)
            back = set(cards(event))
            if len(back) != excess or len(cards(event)) != excess or not back <= {c for m in added.values() for c in m}:
                self.ev.fail(f"seat {judge} must send back {excess} of the added cards (M-12)")
            self.state(event)
            self.overplays += 1  # counted once the excess is back (docs/records.md)
            return {p: [c for c in m if c not in back] for p, m in added.items()}
        stays = dict(added)
        for p in reversed(list(added)):
            if excess == 0:
                break
            back = set(added[p])
            if len(back) > excess:
                self.decision()
                event = self.ev.take("give_back", p, NEW)
                back = set(cards(event))
                if len(back) != excess or not back <= set(added[p]):
                    self.ev.fail(f"seat {p} must take back {excess} of their own added cards (M-12)")
                self.state(event)
            stays[p] = [c for c in added[p] if c not in back]
            excess -= len(back)
        self.overplays += 1
        return stays

    def end_round(self) -> None:
        """M-16 (all killed: discard, the defender attacks next) or M-17 (pick up; the next seat attacks)."""
        d = self.defender
        killed = (self.attack | self.killers) - self.unkilled
        if killed:
            event = self.ev.take("discard", -1)
            if set(cards(event)) != killed:
                self.ev.fail("the discard is not the killed cards")
            for card in killed:
                self.ev.move(card, self.attack if card in self.attack else self.killers, self.discard, "the table")
            self.state(event)
        picked = set(self.unkilled)
        if picked:
            event = self.ev.take("pick_up", d)
            for card in picked:
                self.ev.move(card, self.attack, self.hands[d], "the table")
            self.unkilled = set()
            if set(cards(event)) != picked:
                self.ev.fail("the cards picked up are not the unkilled ones")
            self.pickups += 1
            self.state(event)
        self.refill(d)
        self.attacker = self.next_in(d) if picked or d in self.out else d
        self.end_check()


def check(table, record: dict, rules: dict, players: int) -> None:
    """Re-play the events of one Moska game; ``CheckError`` on the first thing the rules do not allow."""
    ev = Events(table)
    g = Game(ev, rules, players)
    g.deal()
    try:
        while True:
            g.play_round()
    except GameEnds:
        pass
    ev.finals(g.hands, g.state)
    g.conserved()
    ev.done()
    same_record(record, turns=ev.decisions, truncated=g.truncated, loser=g.loser, rounds=g.rounds, **finish(g.out),
                trump_suit=SUITS.index(g.trump), swaps=g.swaps, overplays=g.overplays, pickups=g.pickups,
                self_attacks=g.self_attacks)
