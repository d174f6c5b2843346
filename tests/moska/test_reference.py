"""Scenario tests of the Moska reference engine: one hand-built position per rule M-1…M-22.

Each test builds a position by hand, applies the rule through the engine's small
functions (or a scripted round) and checks the exact outcome. Seat policies are
scripted (``Script``) so that the moves are the test's, not a policy's.
"""
import dataclasses

import pytest

import cardsim
from cardsim.core import rng
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.cards import cards_of, count
from cardsim.games.moska import reference as R
from cardsim.games.moska.rules import MoskaRules

from .trace import said

SUITS = "♣♦♥♠"


def position(*hands, trump="♣", stock="", turned=None, attacker=1, defender=None, rules=None, **knobs):
    """A game state from card names; with ``defender`` a round has begun (table empty)."""
    rules = (rules or MoskaRules()).replace(**knobs)
    pile = [F.parse(c) for c in stock.split()]
    turned_card = F.parse(turned) if turned else (pile[-1] if pile else -1)
    s = R.State(rules, [F.hand(h) for h in hands], stock=pile, trump=SUITS.index(trump), turned=turned_card,
                attacker=attacker)
    if defender is not None:
        s.defender = defender
        s.table = R.Table(start_hand=count(s.hands[defender]))
    return s


def on_table(s, attack="", kills=()):
    """Put attack cards on the table; ``kills`` are (attack, killer) pairs among them."""
    s.table.attack |= F.hand(attack)
    s.table.unkilled |= F.hand(attack)
    for a, k in kills:
        s.table.unkilled &= ~F.hand(a)
        s.table.kills |= F.hand(k)


class Script:
    """A policy playing given moves (card names) and recording what it was offered."""

    def __init__(self, open="", kills=None, self_attacks=None, adds=(), back=""):
        self.open_, self.kills = open, kills or {}
        self.self_attacks, self.adds, self.back = self_attacks or {}, list(adds), back
        self.offered = []

    def open(self, v):
        self.offered.append(("open", v.room))
        return F.hand(self.open_)

    def kill(self, v, a, ks):
        self.offered.append(("kill", F.name(a), F.names(ks)))
        return F.parse(self.kills[F.name(a)]) if F.name(a) in self.kills else -1

    def self_attack(self, v, c, ks):
        self.offered.append(("self_attack", F.name(c), F.names(ks)))
        return F.parse(self.self_attacks[F.name(c)]) if F.name(c) in self.self_attacks else -1

    def add(self, v, cands, room):
        self.offered.append(("add", F.names(cands), room))
        return F.hand(self.adds.pop(0)) if self.adds else 0

    def give_back(self, v, cards, e):
        self.offered.append(("give_back", F.names(cards), e))
        return F.hand(self.back)


def names(mask):
    return F.names(mask)


def test_M1_one_52_card_deck_ranks_two_to_ace():
    """Rule M-1 of docs/rules/moska.md."""
    s = R.deal(MoskaRules(), 4, key=123)
    held = [c for h in s.hands for c in cards_of(h)] + s.stock
    assert sorted(held) == list(range(52))
    trump = SUITS.index("♣")
    assert R.kills(F.parse("♠K"), F.parse("♠A"), trump)
    assert not R.kills(F.parse("♠3"), F.parse("♠2"), trump)
    assert R.kills(F.parse("♥9"), F.parse("♥T"), trump)


def test_M2_two_to_eight_players_seated_from_the_dealer():
    """Rule M-2 of docs/rules/moska.md."""
    for players in (2, 8):
        t = cardsim.replay("moska", "moska", players=players, seed=3, game=0)
        first_round = next(m for m in said(t) if m.startswith("round 1:"))
        assert first_round == f"round 1: seat 1 attacks seat {2 % players}"
        assert t.record["loser"] in range(players)
    for players in (1, 9):
        with pytest.raises(ValueError, match="2 to 8 players"):
            cardsim.simulate("moska", "moska", players=players, games=1)


def test_M3_hand_size_and_players_times_hand_size_plus_one_fit_the_deck():
    """Rule M-3 of docs/rules/moska.md."""
    MoskaRules().check_players(8)  # 8 x 6 + 1 = 49
    MoskaRules(hand_size=25).check_players(2)  # 51
    with pytest.raises(ValueError, match="hand_size"):
        MoskaRules(hand_size=7).check_players(8)  # 57
    s = position("♣2", "♦2", trump="♥", stock="♠2 ♠3 ♠4 ♠5 ♠6", hand_size=4)
    R.refill(s, 1)
    assert names(s.hands[1]) == "♦2 ♠2 ♠3 ♠4"
    assert len(s.stock) == 2


def test_M4_deal_one_card_at_a_time_clockwise_from_seat_one():
    """Rule M-4 of docs/rules/moska.md."""
    key = rng.game_key(9, 4)
    perm = rng.permutation(key, rng.Stream.DEAL, 52)
    s = R.deal(MoskaRules(hand_size=4), 3, key)
    expected = [0, 0, 0]
    for j in range(12):
        expected[(1 + j) % 3] |= 1 << perm[j]
    assert s.hands == expected
    assert perm[0] in cards_of(s.hands[1]) and perm[2] in cards_of(s.hands[0])


def test_M5_turned_card_is_trump_and_drawn_last():
    """Rule M-5 of docs/rules/moska.md."""
    key = rng.game_key(1, 2)
    perm = rng.permutation(key, rng.Stream.DEAL, 52)
    s = R.deal(MoskaRules(), 4, key)
    assert s.turned == perm[24] and s.trump == F.suit(perm[24])
    assert s.stock == perm[25:] + [perm[24]]
    for seat in range(4):  # draw the whole stock: the turned card comes last
        s.hands[seat] = 0
    s.rules = s.rules.replace(hand_size=25)
    R.refill(s, 0)  # perm[25..49]
    R.refill(s, 1)
    assert not s.stock and s.hands[1] == (1 << perm[50]) | (1 << perm[51]) | (1 << perm[24])


def test_M6_trump_two_swap_right_after_the_draw_that_brings_it():
    """Rule M-6 of docs/rules/moska.md (revised): the swap comes before any further card is drawn."""
    s = position("♠3", "♠4", "♦5", trump="♥", stock="♣2 ♥2 ♥9", hand_size=4)  # ♥9 is the turned card
    R.refill(s, 1)  # draws ♣2, ♥2 -> swaps at once for ♥9 -> draws on: the 2, now the last card
    assert names(s.hands[1]) == "♣2 ♥2 ♥9 ♠4" and not s.stock and s.swaps == 1
    assert said(s)[:2] == ["seat 1 draws ♣2 ♥2 (stock 1)", "seat 1 puts ♥2 under the stock and takes the turned ♥9 (M-6)"]
    s = position("♠3", "♠4", "♦5", trump="♥", stock="♥2 ♣4 ♥9", hand_size=2)
    R.refill(s, 1)
    assert names(s.hands[1]) == "♥9 ♠4" and s.stock == [F.parse("♣4"), F.parse("♥2")]
    R.refill(s, 2)  # the 2 comes back as the stock's last card: no second swap
    assert names(s.hands[2]) == "♣4 ♦5" and s.stock == [F.parse("♥2")] and s.swaps == 1
    s = position("♠3", "♥2 ♠4", "♦5", trump="♥", stock="♣2 ♥9")
    R.decide(s, 1)  # not at the holder's decisions any more: only after the deal or the draw
    assert s.swaps == 0 and names(s.hands[1]) == "♥2 ♠4"
    for never in (position("♠3", "♠4", trump="♥", stock="♥2 ♥9", trump_two_swap=False, hand_size=3),  # TARAKI
                  position("♠3", "♠4", trump="♥", stock="♣2 ♥2", hand_size=3)):  # the turned card is the 2
        R.refill(never, 1)
        assert never.swaps == 0 and not never.stock


def test_M6_trump_two_swap_right_after_the_deal():
    """Rule M-6 of docs/rules/moska.md (revised): a dealt 2 is swapped before round 1."""
    def two_is_dealt(game):
        s = R.deal(MoskaRules(), 4, rng.game_key(5, game))
        return s.turned != F.card(s.trump, 0) and any(h >> F.card(s.trump, 0) & 1 for h in s.hands)
    game = next(g for g in range(100) if two_is_dealt(g))
    dealt = R.deal(MoskaRules(), 4, rng.game_key(5, game))
    holder = next(p for p in range(4) if dealt.hands[p] >> F.card(dealt.trump, 0) & 1)
    seen = []
    t = R.play(MoskaRules(), 4, 5, game, ["greedy"] * 4, on_move=lambda s: seen.append((s.turns, s.rounds)))
    swap = said(t).index(f"seat {holder} puts {F.name(F.card(dealt.trump, 0))} under the stock and takes the turned "
                         f"{F.name(dealt.turned)} (M-6)")
    assert swap == 5 and seen[swap] == (0, 0) and t.record["swaps"] == 1  # after the deal, before round 1
    t = R.play(MoskaRules(trump_two_swap=False), 4, 5, game, ["greedy"] * 4)
    assert said(t)[5].startswith("round 1:") and t.record["swaps"] == 0


def test_M7_first_attacker_is_seat_one_and_defender_the_next_with_cards():
    """Rule M-7 of docs/rules/moska.md."""
    assert R.deal(MoskaRules(), 5, key=0).attacker == 1
    s = position("♠3", "♠4", "", "♠6", trump="♥", stock="", turned="♥9")
    s.out[2] = True
    assert R.next_active(s, 1) == 3
    assert R.next_active(s, 3) == 0


def test_M8_opening_is_one_card_or_same_rank_groups_of_two_or_more():
    """Rule M-8 of docs/rules/moska.md."""
    hand = F.hand("♠6 ♦6 ♣5 ♦5 ♥5 ♠K ♦K ♣2 ♠7 ♦7")
    for ok in ("♠6", "♠6 ♦6", "♣5 ♦5 ♥5 ♠K ♦K", "♣5 ♦5"):
        assert R.is_legal_opening(F.hand(ok), hand, 6), ok
    for bad in ("♣2 ♠7 ♦7", "♠6 ♠K", "♥A", ""):
        assert not R.is_legal_opening(F.hand(bad), hand, 6), bad
    assert not R.is_legal_opening(F.hand("♣5 ♦5 ♥5 ♠K ♦K"), hand, 4)  # over the cap (M-9)
    s = position("", "♣2 ♠7 ♦7", "♠A ♠K ♠Q ♠J ♠T ♠9", trump="♥", stock="♣3", defender=2)
    with pytest.raises(R.IllegalMove):
        R.opening_step(s, Script(open="♣2 ♠7 ♦7"))


def test_M9_cap_counts_all_attack_cards_of_the_round():
    """Rule M-9 of docs/rules/moska.md."""
    s = position("♥6", "♠6", "♣2 ♣3 ♣4 ♣5", trump="♦", stock="♦2", defender=2)  # defender holds 4
    assert R.room(s) == 4
    on_table(s, "♠6 ♦6 ♣6", kills=[("♣6", "♣7")])
    assert R.room(s) == 1  # round mode: killed cards still count
    assert R.room(dataclasses.replace(s, rules=s.rules.replace(cap_to_defender_hand=False))) == 3
    assert R.room(dataclasses.replace(s, rules=s.rules.replace(cap_mode="unkilled"))) == 2  # 4 in hand - 2
    s.rules = s.rules.replace(attack_cap=None, cap_to_defender_hand=False)
    assert R.room(s) == R.NO_CAP - 3
    s = position("♥6 ♣6", "♠8", "♣2 ♣3", "♦6 ♥2", trump="♦", stock="♦2 ♦3", defender=2)
    on_table(s, "♠6")
    seat0, seat3 = Script(adds=["♥6 ♣6"]), Script()
    with pytest.raises(R.IllegalMove):  # room 1: two cards alone break the cap
        R.addition_step(s, [seat0, Script(), Script(), seat3])
    assert seat3.offered == [("add", "♦6", 1)]


def test_M10_kill_same_suit_higher_or_trump_and_no_duty_to_kill():
    """Rule M-10 of docs/rules/moska.md."""
    t = SUITS.index("♥")
    assert R.kills(F.parse("♠6"), F.parse("♠9"), t)
    assert R.kills(F.parse("♠A"), F.parse("♥2"), t)  # any trump kills a non-trump
    assert not R.kills(F.parse("♥5"), F.parse("♠A"), t)  # a trump only by a higher trump
    assert R.kills(F.parse("♥5"), F.parse("♥6"), t) and not R.kills(F.parse("♥6"), F.parse("♥5"), t)
    assert not R.kills(F.parse("♠6"), F.parse("♦9"), t)  # no other suit
    assert names(R.killers(F.parse("♠6"), F.hand("♠2 ♠9 ♦9 ♥2"), t)) == "♥2 ♠9"
    s = position("", "♠6", "♠9 ♥2 ♣3", trump="♥", stock="♦2", turned="♥9", defender=2)
    on_table(s, "♠6")
    R.defence_step(s, Script())  # kills nothing although it could
    assert s.table.unkilled == F.hand("♠6") and names(s.hands[2]) == "♣3 ♥2 ♠9"


def test_M11_additions_use_ranks_of_attack_cards_or_also_kill_cards():
    """Rule M-11 of docs/rules/moska.md."""
    s = position("♠4", "♣8", "♥3 ♥4", trump="♦", stock="♦2", defender=2)
    on_table(s, "♠6 ♣9", kills=[("♠6", "♠8")])
    assert names(s.hands[0] & R.allowed(s)) == "-"
    s.rules = s.rules.replace(continuation="attack_and_kill")
    assert names(R.allowed(s) & F.suit_mask(SUITS.index("♠"))) == "♠6 ♠8 ♠9"
    assert R.is_legal_addition(F.hand("♣6 ♥8"), F.hand("♣6 ♥8 ♥2"), R.allowed(s), 6)  # any shape
    assert not R.is_legal_addition(F.hand("♣6 ♥2"), F.hand("♣6 ♥8 ♥2"), R.allowed(s), 6)


EERO, STOCK = "♦9 ♣3 ♠A ♥A ♦A ♦Q", "♥2 ♥4 ♠2 ♠4 ♦2 ♦4 ♣K"


@pytest.mark.parametrize("continuation, offered", [("attack", "♥6"), ("attack_and_kill", "♥3 ♥6 ♥9")])
def test_M11_worked_example_aino_eero_maija(continuation, offered):
    # seed 000: Aino (seat 1) plays ♠6 ♦6; Eero (seat 2) kills with ♦9 and a trump 3; Maija (seat 0) adds ♥6
    """Rule M-11 of docs/rules/moska.md."""
    s = position("♥6 ♥9 ♥3 ♠K", "♠6 ♦6 ♠K ♦K", EERO, trump="♣", stock=STOCK, continuation=continuation)
    maija, aino, eero = Script(adds=["♥6"]), Script(open="♠6 ♦6"), Script(kills={"♠6": "♣3", "♦6": "♦9"})
    R.play_round(s, [maija, aino, eero])
    assert ("add", offered, 4) in maija.offered  # cap: 6 attack cards (Eero holds 6), 2 played
    assert "seat 0 puts ♥6 on the table" in said(s) and "seat 2 picks up ♥6 (M-17)" in said(s)
    s = position("♥6 ♥9 ♥3 ♠K", "♠6 ♦6 ♠K ♦K", EERO, trump="♣", stock=STOCK, continuation=continuation)
    nine = [Script(adds=["♥9"]), Script(open="♠6 ♦6"), Script(kills={"♠6": "♣3", "♦6": "♦9"})]
    if continuation == "attack":
        with pytest.raises(R.IllegalMove):
            R.play_round(s, nine)
    else:
        R.play_round(s, nine)
        assert "seat 0 puts ♥9 on the table" in said(s)


def _overplay(excess_return):
    # room 2 (defender holds 3, one attack card); seat 1 adds ♦6, seat 3 ♥6 ♣6 -> one card too many
    s = position("♠3", "♦6 ♦3", "♠8 ♠9 ♣2", "♥6 ♣6 ♥3", trump="♦", stock="♦2 ♦4 ♦5 ♦7 ♦8 ♦9",
                 defender=2, excess_return=excess_return)
    on_table(s, "♠6")
    return s, [Script(), Script(adds=["♦6"]), Script(back="♥6"), Script(adds=["♥6 ♣6"], back="♣6")]


def test_M12_over_play_defender_chooses_what_goes_back():
    """Rule M-12 of docs/rules/moska.md."""
    s, seats = _overplay("defender")
    assert R.addition_step(s, seats)
    assert seats[2].offered == [("give_back", "♣6 ♦6 ♥6", 1)]
    assert names(s.table.unkilled) == "♣6 ♦6 ♠6" and F.hand("♥6") & s.hands[3]
    assert s.turns == 3 and s.overplays == 1  # two additions and the defender's choice


def test_M12_over_play_last_over_player_takes_back_first():
    """Rule M-12 of docs/rules/moska.md."""
    s, seats = _overplay("last")
    assert R.addition_step(s, seats)
    assert seats[3].offered[-1] == ("give_back", "♣6 ♥6", 1)  # seat 3 is last from the attacker, partial
    assert names(s.table.unkilled) == "♦6 ♥6 ♠6" and F.hand("♣6") & s.hands[3]
    s, seats = _overplay("last")
    seats[3].adds = ["♥6"]
    s.table.start_hand = 2  # room 1: seat 3's ♥6 goes back whole, no decision
    assert R.addition_step(s, seats)
    assert names(s.table.unkilled) == "♦6 ♠6" and s.turns == 2


def test_M12_over_play_attacker_chooses_what_goes_back():
    """Rule M-12 of docs/rules/moska.md: ``excess_return="attacker"`` (TARAKI 3.5.4), the round's attacker chooses."""
    s, seats = _overplay("attacker")
    seats[1].back = "♥6"
    assert R.addition_step(s, seats)
    assert seats[1].offered[-1] == ("give_back", "♣6 ♦6 ♥6", 1)  # seat 1 opened the round
    assert not [o for o in seats[2].offered + seats[3].offered if o[0] == "give_back"]
    assert names(s.table.unkilled) == "♣6 ♦6 ♠6" and F.hand("♥6") & s.hands[3]
    assert s.turns == 3 and s.overplays == 1  # two additions and the attacker's choice
    # an attacker who is out still chooses (choosing needs no cards)
    s = position("♠3 ♦6", "", "♠8 ♠9 ♣2", "♥6 ♣6 ♥3", trump="♦", stock="", turned="♦9", defender=2,
                 excess_return="attacker")
    s.out[1] = True
    on_table(s, "♠6")
    seats = [Script(adds=["♦6"]), Script(back="♣6"), Script(), Script(adds=["♥6 ♣6"])]
    assert R.addition_step(s, seats)
    assert seats[1].offered == [("give_back", "♣6 ♦6 ♥6", 1)] and names(s.table.unkilled) == "♦6 ♥6 ♠6"


def test_M13_attackers_refill_at_once_in_clockwise_order_defender_after_the_round():
    """Rule M-13 of docs/rules/moska.md."""
    s, seats = _overplay("defender")
    s.rules = s.rules.replace(hand_size=3)
    s.stock = [F.parse(c) for c in "♦2 ♦4 ♦5 ♦7".split()]
    s.hands[2] = F.hand("♠8 ♠9")
    R.addition_step(s, seats)
    assert names(s.hands[1]) == "♦2 ♦3 ♦4"  # seat 1 (the attacker) refills first
    assert names(s.hands[3]) == "♦5 ♥3 ♥6"  # then seat 3
    assert s.stock == [F.parse("♦7")] and names(s.hands[2]) == "♠8 ♠9"  # the defender waits (M-16)


def test_M14_defender_attacks_own_cards_within_the_cap():
    """Rule M-14 of docs/rules/moska.md."""
    s = position("♠3", "♠4", "♦7 ♦9 ♥7 ♥A ♠8", trump="♣", stock="♣2", defender=2, rules=MoskaRules.preset("taraki"))
    on_table(s, "♠7")
    eero = Script(kills={"♠7": "♠8"}, self_attacks={"♦7": "♦9"})
    R.defence_step(s, eero)
    assert ("self_attack", "♦7", "♦9") in eero.offered and ("self_attack", "♥7", "♥A") in eero.offered
    assert names(s.hands[2]) == "♥7 ♥A" and s.table.attack == F.hand("♠7 ♦7") and s.self_attacks == 1
    assert s.table.gone == 3 and s.table.unkilled == 0
    s.table.gone = 5  # TARAKI 3.5.3: at most six cards leave the defender's hand this round
    assert R.self_attack_killers(s, F.parse("♥7")) == 0
    s.table.gone, s.table.start_hand = 0, 2  # cap reached: "virpiminen" is illegal
    assert R.room(s) == 0 and R.self_attack_killers(s, F.parse("♥7")) == 0
    s.table.start_hand = 6
    assert R.self_attack_killers(s, F.parse("♥7")) == F.hand("♥A")
    s.rules = s.rules.replace(defender_self_attack=False)
    assert R.self_attack_killers(s, F.parse("♥7")) == 0


TARAKI = MoskaRules.preset("taraki")


def test_M14_six_cards_a_seventh_kill_is_refused():
    """Rule M-14 of docs/rules/moska.md (revised, TARAKI 3.5.3): ordinary kills count towards the six cards."""
    s = position("♠3", "♠4", "♠9 ♠T ♥7", trump="♣", stock="♣2", defender=2, rules=TARAKI)
    # four kills and one self-attack pair (♥3 killed by ♥5) have left the defender's hand: six cards
    on_table(s, "♦3 ♦4 ♦5 ♦6 ♥3", kills=[("♦3", "♦7"), ("♦4", "♦8"), ("♦5", "♦9"), ("♦6", "♦T"), ("♥3", "♥5")])
    s.table.gone = 6
    on_table(s, "♠7")  # a sixth attack card, within the cap
    eero = Script(kills={"♠7": "♠9"})
    R.defence_step(s, eero)
    assert eero.offered == [] and s.table.unkilled == F.hand("♠7") and names(s.hands[2]) == "♥7 ♠9 ♠T"
    assert s.turns == 1  # still a decision, with nothing to decide
    with pytest.raises(R.IllegalMove):
        R.kill(s, F.parse("♠7"), F.parse("♠9"))
    s.table.gone = 5
    R.defence_step(s, eero)
    assert eero.offered == [("kill", "♠7", "♠9 ♠T")] and s.table.unkilled == 0 and s.table.gone == 6
    s = position("♠3", "♠4", "♠9 ♠T", trump="♣", stock="♣2", defender=2, rules=TARAKI.replace(attack_cap=None))
    s.table.gone = 6  # attack_cap=None: the limit is still six
    on_table(s, "♠7")
    assert not R.may_kill(s)
    s.rules = MoskaRules()  # without M-14 there is no such limit
    assert R.may_kill(s)


def test_M14_no_virpiminen_self_attack_needs_room_for_two():
    """Rule M-14 of docs/rules/moska.md (revised, TARAKI glossary): no self-attack when the table is one short."""
    s = position("♠3", "♠4", "♦7 ♦9 ♥7 ♥A", trump="♣", stock="♣2", defender=2, rules=TARAKI)
    on_table(s, "♠7 ♥8 ♦8 ♠8", kills=[("♠7", "♠T"), ("♥8", "♥T"), ("♦8", "♦T"), ("♠8", "♠J")])
    s.table.start_hand, s.table.gone = 6, 4  # cap 6, four attack cards: room 2, and 4 + 2 cards may leave
    assert R.room(s) == 2 and R.self_attack_killers(s, F.parse("♦7")) == F.hand("♦9")
    s.table.start_hand = 5  # room 1: one short
    assert R.room(s) == 1 and R.self_attack_killers(s, F.parse("♦7")) == 0
    eero = Script(self_attacks={"♦7": "♦9"})
    R.defence_step(s, eero)
    assert eero.offered == [] and s.self_attacks == 0
    s.table.start_hand, s.table.gone = 6, 5  # room 2, but the pair would make seven cards leave
    assert R.self_attack_killers(s, F.parse("♦7")) == 0


def test_M14_unkilled_mode_the_pair_leaves_a_hand_that_covers_the_unkilled_cards():
    """Rule M-14 of docs/rules/moska.md (revised): in cap_mode="unkilled" M-9 still holds after the pair."""
    s = position("♠3", "♠4", "♦7 ♦9 ♠2 ♠3", trump="♣", stock="♣2", defender=2,
                 rules=TARAKI.replace(cap_mode="unkilled", cap_to_defender_hand=False))
    on_table(s, "♥7 ♥8 ♠7")  # three unkilled: room 6 - 3 = 3, but 4 - 2 cards would not cover them
    assert R.room(s) == 3 and R.self_attack_killers(s, F.parse("♦7")) == 0
    s.table.unkilled = F.hand("♥7 ♥8")
    assert R.self_attack_killers(s, F.parse("♦7")) == F.hand("♦9")  # 4 - 2 >= 2
    s.rules = s.rules.replace(cap_to_defender_hand=True)
    s.table.unkilled = F.hand("♥7 ♥8 ♠7")  # room min(6, 4) - 3 = 1: refused by the room already
    assert R.room(s) == 1 and R.self_attack_killers(s, F.parse("♦7")) == 0


def killed_everything(s, defender) -> bool:
    """M-16: the round's killed cards went to the discard pile and the defender picked nothing up."""
    return (any(x.startswith("the killed cards go to the discard pile") for x in said(s))
            and not any(x.startswith(f"seat {defender} picks up") for x in said(s)))


def _closing_round(**knobs):
    s = position("♥6 ♥8", "♠6 ♠K", "♠9 ♥9 ♣2 ♣3", trump="♦", stock="♣4 ♣5 ♣7 ♣8 ♣9 ♣T ♣J", **knobs)
    return s, [Script(adds=["♥6"]), Script(open="♠6"), Script(kills={"♠6": "♠9", "♥6": "♥9"})]


def test_M14b_defender_closes_the_round_after_killing_everything():
    """Rule M-14b of docs/rules/moska.md (TARAKI 3.6.4): ``defender_closes``."""
    s, seats = _closing_round(defender_closes=True)
    R.play_round(s, seats)
    assert seats[0].offered == [] and s.turns == 2  # opening, defence: nobody is asked to add
    assert killed_everything(s, 2) and s.attacker == 2
    s, seats = _closing_round(defender_closes=False)
    R.play_round(s, seats)
    assert seats[0].offered == [("add", "♥6", 3)] and s.turns == 4  # M-15: additions follow
    s, seats = _closing_round(defender_closes=True)
    seats[2].kills = {}  # a card left unkilled: the round goes on
    R.play_round(s, seats)
    assert seats[0].offered == [("add", "♥6", 3)] and "seat 2 picks up ♥6 ♠6 (M-17)" in said(s)


def _empty_handed_defender(stock):
    # hand size 2; seat 2 kills the opening ♠6 ♦6 with its last two cards
    s = position("♥6 ♥9", "♠6 ♦6", "♠9 ♦9", trump="♣", stock=stock, turned=None if stock else "♣A",
                 rules=MoskaRules.preset("pyhaselka").replace(hand_size=2))
    return s, [Script(adds=["♥6 ♥9"]), Script(open="♠6 ♦6"), Script(kills={"♠6": "♠9", "♦6": "♦9"})]


def test_M15_a_defender_who_killed_with_the_last_card_is_given_additions_while_the_stock_lasts():
    """Rule M-15 of docs/rules/moska.md (revised): not out while the stock holds cards; picks the additions up."""
    s, seats = _empty_handed_defender("♣4 ♣5 ♣7 ♣8 ♣T ♣J ♣Q")
    R.play_round(s, seats)
    assert [o[0] for o in seats[2].offered] == ["kill", "kill"]  # no decision with an empty hand
    assert seats[0].offered == [("add", "♥6 ♥9", R.NO_CAP - 2)]
    assert s.turns == 3 and "seat 2 picks up ♥6 ♥9 (M-17)" in said(s)
    assert names(s.hands[2]) == "♥6 ♥9" and s.attacker == 0 and s.pickups == 1
    s, seats = _empty_handed_defender("")  # stock empty: the defender is out, the round ends at once
    with pytest.raises(R.GameOver):
        R.play_round(s, seats)
    assert seats[0].offered == [] and s.finish_order == [1, 2] and s.loser == 0


def test_M15_the_defenders_unkilled_cards_count_as_held_in_the_end_check():
    """Rules M-15 and M-19 of docs/rules/moska.md: a defender with cards to pick up has neither lost nor gone out."""
    s = position("♠9 ♥9", "♠6 ♥6", trump="♣", stock="♦6 ♦3 ♣4",
                 rules=MoskaRules.preset("pyhaselka").replace(hand_size=2))
    seats = [Script(kills={"♠6": "♠9", "♥6": "♥9"}), Script(open="♠6 ♥6", adds=["♦6"])]
    R.play_round(s, seats)  # seat 1 adds ♦6 and draws the last card while seat 0 holds none
    assert s.loser == -1 and not s.finish_order and not s.stock
    assert names(s.hands[0]) == "♦6" and "seat 0 picks up ♦6 (M-17)" in said(s) and s.attacker == 1


def test_M15_defence_and_addition_steps_repeat_until_nothing_is_added():
    """Rule M-15 of docs/rules/moska.md."""
    s = position("♥6 ♥8", "♠6 ♠K", "♠9 ♥9 ♣2 ♣3", trump="♦", stock="♣4 ♣5 ♣7 ♣8 ♣9 ♣T ♣J")
    seat0, seat1, seat2 = Script(adds=["♥6"]), Script(open="♠6"), Script(kills={"♠6": "♠9", "♥6": "♥9"})
    R.play_round(s, [seat0, seat1, seat2])
    kinds = [o[0] for o in seat2.offered]
    assert kinds == ["kill", "kill"]  # one defence step per new cards, not asked again
    assert s.turns == 4  # opening, defence, seat 0 adds, defence (seat 0 then holds no 6 or 9)
    assert killed_everything(s, 2) and s.attacker == 2


def test_M16_all_killed_defender_refills_and_attacks_next():
    """Rule M-16 of docs/rules/moska.md."""
    s = position("♠3", "♠4", "♥3", "♠5", trump="♦", stock="♣4 ♣5 ♣7", defender=2, hand_size=2)
    on_table(s, "♠6", kills=[("♠6", "♠9")])
    R.end_round(s)
    assert s.discard == F.hand("♠6 ♠9") and s.attacker == 2 and names(s.hands[2]) == "♣4 ♥3"
    s = position("♠3", "♠4", "", "♠5", trump="♦", stock="", turned="♦9", defender=2)
    on_table(s, "♠6", kills=[("♠6", "♠9")])
    R.end_round(s)
    assert s.out[2] and s.finish_order == [2] and s.attacker == 3  # out: the next one to the left


def test_M17_unkilled_cards_are_picked_up_and_the_attack_passes_on():
    """Rule M-17 of docs/rules/moska.md."""
    s = position("♠3", "♠4", "♥3", "♠5", trump="♦", stock="♣4", defender=2)
    on_table(s, "♠6 ♣6", kills=[("♠6", "♠9")])
    R.end_round(s)
    assert names(s.hands[2]) == "♣4 ♣6 ♥3" and s.discard == F.hand("♠6 ♠9")
    assert s.attacker == 3 and s.pickups == 1


def test_M18_player_without_cards_and_stock_is_out_in_order():
    """Rule M-18 of docs/rules/moska.md."""
    s = position("♠3 ♣3", "♠4", "♥2 ♥9", "♠5", trump="♦", stock="", turned="♦9", defender=2)
    on_table(s, "♠4")
    s.hands[1] = 0
    R.refill(s, 1)
    assert s.out[1] and s.finish_order == [1]
    t = cardsim.replay("moska", "moska", players=4, seed=1, game=2)
    order = [int(p) for p in t.record["finish_order"].split(",")]
    assert t.record["first_out"] == order[0] and sorted(order + [t.record["loser"]]) == [0, 1, 2, 3]


def test_M19_two_players_attacker_empties_hand_defender_loses_though_able_to_kill():
    """Rule M-19 of docs/rules/moska.md."""
    s = position("♠A ♥A", "♠6 ♦6", trump="♣", stock="", turned="♣9")
    defender = Script(kills={"♠6": "♠A"})
    R.run(s, [defender, Script(open="♠6 ♦6")])
    assert s.loser == 0 and defender.offered == [] and s.finish_order == [1]


def test_M20_everyone_out_at_once_no_loser():
    """Rule M-20 of docs/rules/moska.md."""
    s = position("", "", "", trump="♣", stock="", turned="♣9")
    with pytest.raises(R.GameOver):
        R.check_end(s)
    assert s.loser == -1
    assert R.record(s, 0)["loser"] == -1


def test_M21_truncated_after_max_turns_decisions():
    """Rule M-21 of docs/rules/moska.md."""
    r = cardsim.rules("moska", "moska", max_turns=5)
    t = cardsim.replay("moska", r, players=4, seed=0, game=0)
    assert t.record["truncated"] and t.record["turns"] == 5 and t.record["loser"] == -1
    assert t.events.action.tolist()[-6:-4] == ["truncated", "table"] and t.events.decision.max() == 4


def test_M22_the_loser_deals_next():
    """Rule M-22 of docs/rules/moska.md."""
    assert R.next_dealer(3) == 3
    assert R.next_dealer(-1) == 0
