"""Scenario tests of the Moska vector engine: one hand-built position per rule M-1…M-21.

Each test builds a one-game ``Batch`` by hand (``position``), applies one phase or
small function of ``vector.Engine`` and checks the exact outcome. ``Script`` plays
given moves so that the moves are the test's, not a policy's. (M-22, the loser deals
the next game, concerns series of games; no engine plays one.)
"""
import numpy as np
import pytest

from cardsim.core import rng
from cardsim.core.cards import BIT, FRENCH52 as F, cards_of, count
from cardsim.games.moska import reference, vector
from cardsim.games.moska.rules import MoskaRules
from cardsim.games.moska.vector_policies import GreedyTwin, RandomTwin, Views

SUITS = "♣♦♥♠"
ONE = np.ones(1, dtype=bool)


class Script:
    """A twin that plays given moves (card names); additions and give-backs are cut to what is offered."""

    DETERMINISTIC = True

    def __init__(self, open="", kills=None, self_attacks=None, adds="", back=""):
        self.open_, self.kills, self.self_attacks_ = open, kills or {}, self_attacks or {}
        self.adds, self.back = F.hand(adds), F.hand(back)
        self.offered = {}

    def open(self, v):
        return np.full(len(v.hand), F.hand(self.open_), dtype=np.uint64)

    def _pick(self, table, cards):
        return np.array([F.parse(table[F.name(int(c))]) if F.name(int(c)) in table else -1 for c in cards])

    def kill(self, v, attack, killers):
        self.offered.update({F.name(int(a)): F.names(int(k)) for a, k in zip(attack, killers)})
        return self._pick(self.kills, attack)

    def self_attack(self, v, card, killers):
        return self._pick(self.self_attacks_, card)

    def add(self, v, cands, room):
        return cands & np.uint64(self.adds)

    def give_back(self, v, cards, excess):
        return cards & np.uint64(self.back)


def engine(players=4, script=None, **knobs):
    e = vector.Engine(MoskaRules().replace(**knobs), players, 0, ("greedy",) * players, capacity=2)
    if script is not None:
        e.twins, e.seat_twin = [script], np.zeros(players, dtype=np.int64)
    return e


def position(e, *hands, trump="♣", stock="", turned=None, attacker=1, defender=None, out=(), turns=0):
    """One game: hands by seat, the stock front to back (its last card lies under it)."""
    pile = [F.parse(c) for c in stock.split()]
    turned_card = F.parse(turned) if turned else (pile[-1] if pile else F.card(SUITS.index(trump), 12))
    b = e.deal(np.array([0]), np.array([0]))
    slot = b.slot[0]
    drawn = e.front + 1 - len(pile)
    e.cum[slot] = 0
    acc = 0
    for j, c in enumerate(pile[:-1]):
        acc |= 1 << c
        e.cum[slot, drawn + j + 1] = acc
    b.hands[0] = [F.hand(h) for h in hands]
    b.trump[0], b.drawn[0], b.attacker[0], b.turns[0] = SUITS.index(trump), drawn, attacker, turns
    b.turned[0] = BIT[turned_card]
    b.bottom[0] = BIT[pile[-1] if pile else turned_card]
    b.out[0] = sum(1 << p for p in out)
    if defender is not None:
        b.defender[0], b.start_hand[0], b.phase[0] = defender, count(F.hand(hands[defender])), vector.DEFEND
    return b


def on_table(b, attack="", kills=()):
    b.att[0] |= np.uint64(F.hand(attack))
    b.unk[0] |= np.uint64(F.hand(attack))
    for a, k in kills:
        b.unk[0] &= ~np.uint64(F.hand(a))
        b.kil[0] |= np.uint64(F.hand(k))
        b.gone[0] += 1


def names(mask) -> str:
    return F.names(int(mask))


def same(mask, cards: str) -> bool:
    """The one-game mask holds exactly ``cards``."""
    return int(np.asarray(mask).reshape(-1)[0]) == F.hand(cards)


def test_M1_kill_table_is_built_on_the_52_card_deck_with_ranks_two_to_ace():
    """Rule M-1 of docs/rules/moska.md."""
    for trump in range(4):
        for a in range(52):
            same_higher = {F.card(F.suit(a), r) for r in range(F.rank(a) + 1, 13)}
            trumps = {F.card(trump, r) for r in range(13)} if F.suit(a) != trump else set()
            assert set(cards_of(int(vector.KILL[trump * 52 + a]))) == same_higher | trumps
    assert names(vector.KILL[0 * 52 + F.parse("♦A")]) == names(F.suit_mask(0))  # an ace falls only to trumps


@pytest.mark.parametrize("players", range(2, 9))
def test_M2_M4_deal_one_card_at_a_time_clockwise_from_seat_one(players):
    """Rule M-2 of docs/rules/moska.md."""
    e = engine(players)
    b = e.deal(np.array([0]), np.array([77]))
    s = reference.deal(e.rules, players, rng.game_key(0, 77))
    perm = rng.permutation(rng.game_key(0, 77), rng.Stream.DEAL, 52)
    assert b.hands[0].tolist() == s.hands
    assert int(b.hands[0, 1 % players]) >> perm[0] & 1  # the first card goes to seat 1 (M-2 seats)
    assert b.attacker[0] == 1 % players  # M-7: seat 1 attacks first
    stock = [c for c in cards_of(int(e.cum[b.slot[0], e.front]))]
    assert sorted(stock) == sorted(s.stock[:-1]) and int(b.bottom[0]) == 1 << s.stock[-1]


def test_M3_hand_size_is_refilled_to_and_must_fit_the_deck():
    """Rule M-3 of docs/rules/moska.md."""
    with pytest.raises(ValueError, match="hand_size"):
        engine(6, hand_size=9)
    e = engine(3, hand_size=3)
    b = position(e, "♦2", "♦3", "", stock="♥2 ♥3 ♥4 ♠5")
    e.refill(b, ONE, np.array([2]))
    assert same(b.hands[0, 2], "♥2 ♥3 ♥4") and e.stock_left(b)[0] == 1


def test_M5_turned_card_is_trump_and_drawn_last():
    """Rule M-5 of docs/rules/moska.md."""
    e = engine(2)
    b = position(e, "", "♦2", trump="♠", stock="♥2 ♥3 ♠9")
    e.refill(b, ONE, np.array([0]))
    assert same(b.hands[0, 0], "♥2 ♥3 ♠9") and e.stock_left(b)[0] == 0
    b = e.deal(np.array([0]), np.array([5]))
    assert b.trump[0] == vector.index(b.turned)[0] // 13


def test_M6_trump_two_holder_swaps_before_deciding_while_the_turned_card_is_under_the_stock():
    """Rule M-6 of docs/rules/moska.md."""
    e = engine(2)
    b = position(e, "♣2 ♦5", "♦6", trump="♣", stock="♥2 ♣K")
    e.decide_rows(b, np.array([0]), np.array([0]))
    assert same(b.hands[0, 0], "♦5 ♣K") and same(b.bottom, "♣2") and b.swaps[0] == 1
    e.decide_rows(b, np.array([0]), np.array([0]))
    assert b.swaps[0] == 1  # at most once: the turned card is no longer under the stock
    off = engine(2, trump_two_swap=False)
    b = position(off, "♣2 ♦5", "♦6", trump="♣", stock="♥2 ♣K")
    off.decide_rows(b, np.array([0]), np.array([0]))
    assert same(b.hands[0, 0], "♣2 ♦5") and b.swaps[0] == 0


def test_M7_defender_is_the_next_seat_clockwise_still_in_play():
    """Rule M-7 of docs/rules/moska.md."""
    e = engine(4, Script(open="♦5"))
    b = position(e, "♦2", "♦5 ♦7", "", "♠4", stock="♥2 ♥3", out=(2,))
    e.opening(b)
    assert b.defender[0] == 3 and same(b.att, "♦5") and b.phase[0] == vector.DEFEND


def test_M8_policy_openings_are_one_card_or_same_rank_groups_within_the_room():
    """Rule M-8 of docs/rules/moska.md."""
    gen = np.random.default_rng(8)
    hands = np.array([F.hand(" ".join(F.name(c) for c in gen.choice(52, gen.integers(1, 12), replace=False)))
                      for _ in range(3000)], dtype=np.uint64)
    room = gen.integers(1, 7, len(hands))
    v = Views(np.arange(len(hands), dtype=np.uint64), np.zeros(len(hands), np.int64), hands,
              gen.integers(0, 4, len(hands)), np.full(len(hands), 5), room)
    for twin in (RandomTwin(), GreedyTwin()):
        for hand, r, move in zip(hands, room, twin.open(v)):
            n, groups = count(int(move)), [count(int(move) & F.rank_mask(k)) for k in range(13)]
            assert n >= 1 and int(move) & ~int(hand) == 0 and n <= r
            assert n == 1 or all(g != 1 for g in groups)


def test_M9_room_counts_all_attack_cards_or_only_the_unkilled_ones():
    """Rule M-9 of docs/rules/moska.md."""
    e = engine(2)
    b = position(e, "♦2", "♠2 ♠3 ♠4 ♠5", defender=1)
    on_table(b, "♦5 ♦6 ♦7", kills=[("♦5", "♦9")])
    assert e.room(b, b.hands[:, 1])[0] == 4 - 3  # round: D started with 4 cards, 3 attack cards
    u = engine(2, cap_mode="unkilled")
    b = position(u, "♦2", "♠2 ♠3 ♠4 ♠5 ♠6", defender=1)
    on_table(b, "♦5 ♦6 ♦7", kills=[("♦5", "♦9")])
    assert u.room(b, b.hands[:, 1])[0] == 5 - 2  # unkilled: D holds 5 now, 2 unkilled
    big = engine(2, attack_cap=None, cap_to_defender_hand=False)
    assert big.room(b, b.hands[:, 1])[0] == 52 - 3


def test_M10_kill_same_suit_higher_or_trump_and_a_trump_only_by_a_higher_trump():
    """Rule M-10 of docs/rules/moska.md."""
    script = Script(kills={"♦5": "♦9"})
    e = engine(2, script)
    b = position(e, "♦2", "♦4 ♦9 ♦A ♣7", trump="♣", defender=1)
    on_table(b, "♦5 ♣5")
    e.defence(b)
    assert script.offered == {"♣5": "♣7", "♦5": "♣7 ♦9 ♦A"}  # ♦A cannot kill the trump ♣5
    assert same(b.kil, "♦9") and same(b.unk, "♣5") and same(b.hands[0, 1], "♣7 ♦4 ♦A")
    g = engine(2)
    b = position(g, "♦2", "♦4 ♦9 ♣7", trump="♣", defender=1)
    on_table(b, "♦5 ♣5")
    g.defence(b)  # greedy: cheapest non-trump killer; the trump only by the higher trump
    assert same(b.kil, "♣7 ♦9") and b.unk[0] == 0


@pytest.mark.parametrize("continuation, allowed", [("attack", "♣6 ♦6 ♥6 ♠6"),
                                                   ("attack_and_kill", "♣3 ♦3 ♥3 ♠3 ♣6 ♦6 ♥6 ♠6 ♣9 ♦9 ♥9 ♠9")])
def test_M11_additions_use_attack_ranks_or_also_kill_ranks_worked_example(continuation, allowed):
    """Rule M-11 of docs/rules/moska.md."""
    e = engine(3, continuation=continuation)
    b = position(e, "", "", "", trump="♣", defender=2)
    on_table(b, "♠6 ♦6", kills=[("♠6", "♦9"), ("♦6", "♣3")])
    assert names(e.allowed(b)[0]) == names(F.hand(allowed))


def test_M12_over_play_defender_chooses_what_goes_back():
    """Rule M-12 of docs/rules/moska.md."""
    e = engine(3, Script(adds="♥5 ♠5", back="♠5"), attack_cap=2)
    b = position(e, "♥5 ♦K", "♦2 ♦3", "♠5 ♦Q", attacker=2, defender=1)
    b.start_hand[0] = 6
    on_table(b, "♦5")
    b.phase[0] = vector.ADD
    e.addition(b)
    assert same(b.att, "♦5 ♥5") and same(b.hands[0, 2], "♠5 ♦Q") and b.overplays[0] == 1


def test_M12_over_play_last_over_player_takes_back_first():
    """Rule M-12 of docs/rules/moska.md."""
    e = engine(3, Script(adds="♥5 ♠5"), attack_cap=2, excess_return="last")
    b = position(e, "♥5 ♦K", "♦2 ♦3", "♠5 ♦Q", attacker=2, defender=1)
    b.start_hand[0] = 6
    on_table(b, "♦5")
    b.phase[0] = vector.ADD
    e.addition(b)  # clockwise from the attacker (seat 2): seat 2 adds first, seat 0 last
    assert same(b.att, "♦5 ♠5") and same(b.hands[0, 0], "♥5 ♦K") and b.turns[0] == 2


def test_M13_adders_refill_at_once_in_clockwise_order_from_the_attacker():
    """Rule M-13 of docs/rules/moska.md."""
    e = engine(4, Script(adds="♥5 ♠5"))
    b = position(e, "♥5 ♦K ♦J ♦T ♦9 ♦8", "♦2 ♦3 ♥2 ♥3 ♥4 ♥6", "", "♠5 ♦Q ♦7 ♦6 ♦4 ♠A",
                 stock="♣9 ♣K", attacker=3, defender=1)
    on_table(b, "♦5")
    b.phase[0] = vector.ADD
    e.addition(b)
    assert same(b.hands[0, 3], "♣9 ♦Q ♦7 ♦6 ♦4 ♠A") and same(b.hands[0, 0], "♣K ♦K ♦J ♦T ♦9 ♦8")
    assert count(int(b.hands[0, 1])) == 6  # the defender refills only when the round ends


def test_M14_defender_attacks_own_cards_within_the_cap():
    """Rule M-14 of docs/rules/moska.md."""
    e = engine(2, Script(self_attacks={"♦6": "♦9"}), defender_self_attack=True, trump_two_swap=False)
    b = position(e, "♦2", "♦6 ♦9 ♠2 ♠3", defender=1)
    on_table(b, "♥6")
    e.defence(b)
    assert same(b.att, "♦6 ♥6") and same(b.kil, "♦9") and b.self_attacks[0] == 1 and b.gone[0] == 2
    b = position(e, "♦2", "♦6 ♦9 ♠2 ♠3", defender=1)
    on_table(b, "♥6 ♥7 ♥8 ♥9 ♥T", kills=[("♥6", "♥A"), ("♥7", "♥K"), ("♥8", "♥Q"), ("♥9", "♥J"), ("♥T", "♣A")])
    b.start_hand[0] = 10
    e.defence(b)  # 5 cards already left the defender's hand: 5 + 2 > 6 is "virpiminen"
    assert b.self_attacks[0] == 0 and same(b.hands[0, 1], "♦6 ♦9 ♠2 ♠3")


def test_M15_an_addition_step_adding_nothing_ends_the_round():
    """Rule M-15 of docs/rules/moska.md."""
    e = engine(3, Script(adds=""))
    b = position(e, "♥5 ♦K", "♦2 ♦3", "♠5 ♦Q", stock="♥2 ♥3 ♥4 ♥6", attacker=0, defender=1)
    on_table(b, "♦5", kills=[("♦5", "♦7")])
    b.phase[0] = vector.ADD
    e.addition(b)
    assert b.phase[0] == vector.OPEN and b.turns[0] == 2  # two adders decided; nobody defends again


def test_M16_all_killed_the_defender_refills_and_attacks_next():
    """Rule M-16 of docs/rules/moska.md."""
    e = engine(3)
    b = position(e, "♥5", "♦2", "♠5", stock="♥2 ♥3 ♥4", attacker=0, defender=1)
    on_table(b, "♦5", kills=[("♦5", "♦7")])
    e.end_round(b, ONE)
    assert b.attacker[0] == 1 and count(int(b.hands[0, 1])) == 4 and b.pickups[0] == 0
    b = position(e, "♥5", "", "♠5", attacker=0, defender=1)
    on_table(b, "♦5", kills=[("♦5", "♦7")])
    e.end_round(b, ONE)  # the defender is out: the next seat to the left attacks
    assert b.attacker[0] == 2 and b.out[0] == 0b010


def test_M17_unkilled_cards_are_picked_up_and_the_attack_passes_on():
    """Rule M-17 of docs/rules/moska.md."""
    e = engine(3)
    b = position(e, "♥5", "♦2", "♠5", attacker=0, defender=1)
    on_table(b, "♦5 ♦6", kills=[("♦5", "♦7")])
    e.end_round(b, ONE)
    assert same(b.hands[0, 1], "♦2 ♦6") and b.attacker[0] == 2 and b.pickups[0] == 1


def test_M18_players_without_cards_and_stock_are_out_in_order():
    """Rule M-18 of docs/rules/moska.md."""
    e = engine(4)
    b = position(e, "♥5", "", "♠5", "")
    e.refill(b, ONE, np.array([3]))
    e.refill(b, ONE, np.array([1]))
    assert b.out[0] == 0b1010 and vector.finish_strings(b.finish, 4)[0] == "3,1"


def test_M19_two_players_attacker_plays_last_card_defender_loses_at_once():
    """Rule M-19 of docs/rules/moska.md."""
    e = engine(2, Script(open="♦5"))
    b = position(e, "♦2 ♦3 ♦4", "♦5")
    e.opening(b)
    assert not b.live[0] and b.loser[0] == 0 and b.finish[0] == 2  # seat 1 out, seat 0 loses


def test_M20_everyone_out_at_once_no_loser():
    """Rule M-20 of docs/rules/moska.md."""
    e = engine(3)
    b = position(e, "", "", "")
    e.check_end(b, ONE)
    assert not b.live[0] and b.loser[0] == -1


def test_M21_truncated_at_max_turns_decisions():
    """Rule M-21 of docs/rules/moska.md."""
    e = engine(2, max_turns=7)
    b = position(e, "♦2", "♦5", turns=7)
    e.opening(b)
    assert b.truncated[0] and not b.live[0] and b.turns[0] == 7 and b.loser[0] == -1
