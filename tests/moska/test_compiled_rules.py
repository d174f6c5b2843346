"""Scenario tests of the Moska compiled engine: one hand-built state per rule M-1…M-21.

Each test builds a ``STATE`` by hand (``position``), makes the decisions it needs
itself (``decide``: the moves are the test's, not a policy's) or calls one of the
engine's small functions, and checks the exact outcome. (M-22, the loser deals the
next game, concerns series of games; no engine plays one.)
"""
import numpy as np
import pytest

from cardsim.core import jit, rng
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.cards import cards_of, count
from cardsim.core.records import finish_strings
from cardsim.games.moska import compiled as C
from cardsim.games.moska import compiled_policies as pol
from cardsim.games.moska import reference
from cardsim.games.moska.rules import MoskaRules

SUITS = "♣♦♥♠"


def deal_scratch():
    """The draws, permutation and bucket counts `C.deal` writes into."""
    return np.zeros(52, np.uint64), np.zeros(52, np.int64), np.zeros(jit.BUCKETS + 1, np.int64)


def params(players=4, **knobs):
    return C.make_params(MoskaRules().replace(**knobs), players)[0]


def position(*hands, trump="♣", stock="", turned=None, attacker=1, defender=None, out=(), turns=0):
    """A state from card names: hands by seat, the stock front to back (its last card lies under it).

    With ``defender`` a round has begun and the defender is to decide (table empty)."""
    state = np.zeros(1, C.STATE)
    s = state[0]
    pile = [F.parse(c) for c in stock.split()]
    for q, h in enumerate(hands):
        s["hands"][q] = F.hand(h)
    s["stock"][:len(pile)] = pile
    s["stock_size"] = len(pile)
    s["trump"] = SUITS.index(trump)
    s["turned"] = F.parse(turned) if turned else (pile[-1] if pile else F.card(SUITS.index(trump), 12))
    s["attacker"], s["turns"], s["loser"] = attacker, turns, -1
    s["out"] = sum(1 << q for q in out)
    if defender is not None:
        s["defender"], s["start_hand"] = defender, count(F.hand(hands[defender]))
        s["phase"], s["seat"] = C.DEFEND, defender
    return state


def on_table(s, attack="", kills=()):
    """Attack cards on the table; ``kills`` are (attack, killer) pairs among them."""
    s["attack"] |= np.uint64(F.hand(attack))
    s["unkilled"] |= np.uint64(F.hand(attack))
    for a, k in kills:
        s["unkilled"] &= ~np.uint64(F.hand(a))
        s["kills"] |= np.uint64(F.hand(k))
        s["gone"] += 1


def move(cards="", kills=None):
    """A decision: ``cards`` by name, ``kills`` {attack or own card: killer} (the others -1)."""
    m = np.zeros(1, C.MOVE)
    m["killer"] = -1
    m["cards"] = F.hand(cards)
    for a, k in (kills or {}).items():
        m["killer"][0][F.parse(a)] = F.parse(k)
    return m[0]


def decide(s, p, cards="", kills=None):
    """The seat to act makes the decision (which must be legal)."""
    m = move(cards, kills)
    assert C.is_legal(s, p, m), (F.names(int(m["cards"])), kills)
    C.apply(s, p, m)


def same(mask, cards: str) -> bool:
    return int(mask) == F.hand(cards)


def test_M1_kill_table_is_built_on_the_52_card_deck_with_ranks_two_to_ace():
    """Rule M-1 of docs/rules/moska.md."""
    for trump in range(4):
        for a in range(52):
            same_higher = {F.card(F.suit(a), r) for r in range(F.rank(a) + 1, 13)}
            trumps = {F.card(trump, r) for r in range(13)} if F.suit(a) != trump else set()
            assert set(cards_of(int(C.KILL[trump, a]))) == same_higher | trumps
    assert int(C.KILL[0, F.parse("♦A")]) == F.suit_mask(0)  # an ace falls only to trumps


@pytest.mark.parametrize("players", range(2, 9))
def test_M2_M4_deal_one_card_at_a_time_clockwise_from_seat_one(players):
    """Rule M-2 of docs/rules/moska.md."""
    p = params(players)
    state = np.zeros(1, C.STATE)
    s = state[0]
    key = rng.game_key(0, 77)
    C.deal(s, p, np.uint64(key), *deal_scratch())
    want = reference.deal(MoskaRules(), players, key)
    reference.swap_after_deal(want)  # M-6: the trump 2 dealt is swapped at once
    perm = rng.permutation(key, rng.Stream.DEAL, 52)
    assert s["hands"][:players].tolist() == want.hands and not s["hands"][players:].any()
    assert int(s["hands"][1 % players]) >> perm[0] & 1  # the first card goes to seat 1 (M-2 seats)
    assert s["stock"][:s["stock_size"]].tolist() == want.stock
    assert s["attacker"] == 1 % players and s["defender"] == 2 % players  # M-7: seat 1 attacks first
    assert C.to_act(s) == 1 % players and s["phase"] == C.OPEN and s["rounds"] == 1


def test_M3_hand_size_is_refilled_to_and_must_fit_the_deck():
    """Rule M-3 of docs/rules/moska.md."""
    with pytest.raises(ValueError, match="hand_size"):
        params(6, hand_size=9)
    s = position("♦2", "♦3", "", stock="♥2 ♥3 ♥4 ♠5")[0]
    C.refill(s, params(3, hand_size=3), 2)
    assert same(s["hands"][2], "♥2 ♥3 ♥4") and C.stock_left(s) == 1


def test_M5_turned_card_is_trump_and_drawn_last():
    """Rule M-5 of docs/rules/moska.md."""
    p = params(2)
    s = position("", "♦2", trump="♠", stock="♥2 ♥3 ♠9")[0]
    C.refill(s, p, 0)
    assert same(s["hands"][0], "♥2 ♥3 ♠9") and C.stock_left(s) == 0
    assert same(s["known"][0], "♠9")  # the turned card lay face up: everyone knows who holds it
    state = np.zeros(1, C.STATE)
    C.deal(state[0], p, np.uint64(rng.game_key(0, 5)), *deal_scratch())
    assert state[0]["trump"] == state[0]["turned"] // 13
    assert state[0]["stock"][state[0]["stock_size"] - 1] == state[0]["turned"]


def test_M6_trump_two_is_swapped_right_after_the_deal_or_the_draw_that_brought_it():
    """Rule M-6 of docs/rules/moska.md."""
    p = params(4, hand_size=4)
    s = position("♦5", "♦6", "♦7", "♦8", trump="♣", stock="♥2 ♣2 ♥3 ♣K")[0]
    C.refill(s, p, 0)  # draws ♥2, ♣2: swaps at once (the hand keeps its size), then draws ♥3
    assert same(s["hands"][0], "♦5 ♥2 ♥3 ♣K") and s["swaps"] == 1 and same(s["known"][0], "♣K")
    assert C.stock_left(s) == 1 and s["stock"][3] == F.parse("♣2")
    s = position("♣2 ♦5", "♦6", trump="♣", stock="♥2 ♣K")[0]
    C.await_decision(s, p, C.OPEN, 0)
    assert s["swaps"] == 0  # never before a decision: only after the deal or a draw
    s = position("♦5", "♦6", "♦7", "♦8", trump="♣", stock="♥2 ♣2 ♥3 ♣K")[0]
    C.refill(s, params(4, hand_size=4, trump_two_swap=False), 0)
    assert same(s["hands"][0], "♦5 ♥2 ♣2 ♥3") and s["swaps"] == 0  # TARAKI: no swap


def test_M6_the_seat_dealt_the_trump_two_swaps_before_round_one():
    """Rule M-6 of docs/rules/moska.md."""
    game = next(g for g in range(100) if (lambda perm: perm[24] // 13 * 13 in perm[:24] and perm[24] % 13)(
        rng.permutation(rng.game_key(0, g), rng.Stream.DEAL, 52)))
    perm = rng.permutation(rng.game_key(0, game), rng.Stream.DEAL, 52)
    two, turned = perm[24] // 13 * 13, perm[24]
    holder = (1 + list(perm).index(two)) % 4
    state = np.zeros(1, C.STATE)
    s = state[0]
    C.deal(s, params(4), np.uint64(rng.game_key(0, game)), *deal_scratch())
    assert s["swaps"] == 1 and int(s["hands"][holder]) >> turned & 1 and not int(s["hands"][holder]) >> two & 1
    assert s["stock"][s["stock_size"] - 1] == two and s["rounds"] == 1 and s["turns"] == 0


def test_M7_defender_is_the_next_seat_clockwise_still_in_play():
    """Rule M-7 of docs/rules/moska.md."""
    p = params(4)
    s = position("♦2", "♦5 ♦7", "", "♠4", stock="♥2 ♥3", out=(2,))[0]
    C.advance(s, p, C.BEGIN_ROUND)
    assert s["defender"] == 3 and C.to_act(s) == 1 and s["phase"] == C.OPEN
    decide(s, p, "♦5")
    assert same(s["attack"], "♦5") and C.to_act(s) == 3 and s["phase"] == C.DEFEND


def test_M8_openings_are_one_card_or_same_rank_groups_within_the_room():
    """Rule M-8 of docs/rules/moska.md."""
    hand = F.hand("♠6 ♦6 ♣5 ♦5 ♥5 ♠K ♦K ♣2 ♠7 ♦7")
    for ok in ("♠6", "♠6 ♦6", "♣5 ♦5 ♥5 ♠K ♦K", "♣5 ♦5"):
        assert C.is_legal_opening(np.uint64(F.hand(ok)), np.uint64(hand), 6), ok
    for bad in ("♣2 ♠7 ♦7", "♠6 ♠K", "♥A", ""):
        assert not C.is_legal_opening(np.uint64(F.hand(bad)), np.uint64(hand), 6), bad
    assert not C.is_legal_opening(np.uint64(F.hand("♣5 ♦5 ♥5 ♠K ♦K")), np.uint64(hand), 4)  # over the cap
    gen = np.random.default_rng(8)
    for _ in range(3000):  # both policies open legally
        held = np.uint64(F.hand(" ".join(F.name(c) for c in gen.choice(52, gen.integers(1, 12), replace=False))))
        room, trump, head = int(gen.integers(1, 7)), int(gen.integers(0, 4)), np.uint64(gen.integers(2**63))
        for code in (pol.RANDOM, pol.GREEDY):
            assert C.is_legal_opening(pol.open_move(code, head, held, trump, room), held, room)


def test_M9_room_counts_all_attack_cards_or_only_the_unkilled_ones():
    """Rule M-9 of docs/rules/moska.md."""
    s = position("♦2", "♠2 ♠3 ♠4 ♠5", defender=1)[0]
    on_table(s, "♦5 ♦6 ♦7", kills=[("♦5", "♦9")])
    assert C.room(s, params(2)) == 4 - 3  # round: D started with 4 cards, 3 attack cards
    s = position("♦2", "♠2 ♠3 ♠4 ♠5 ♠6", defender=1)[0]
    on_table(s, "♦5 ♦6 ♦7", kills=[("♦5", "♦9")])
    assert C.room(s, params(2, cap_mode="unkilled")) == 5 - 2  # unkilled: D holds 5 now, 2 unkilled
    assert C.room(s, params(2, attack_cap=None, cap_to_defender_hand=False)) == 52 - 3
    s = position("♦2 ♥6", "♠2", stock="♣2 ♣3", defender=1)[0]
    on_table(s, "♦5")
    C.advance(s, params(2), C.BEGIN_ADDITIONS)  # room 0 (the defender began with 1 card, 1 attack card): nobody adds
    assert s["step_room"] == 0 and s["turns"] == 0 and s["pickups"] == 1  # seat 1 picked up ♦5
    assert s["phase"] == C.OPEN and s["attacker"] == 0


def test_M10_kill_same_suit_higher_or_trump_and_a_trump_only_by_a_higher_trump():
    """Rule M-10 of docs/rules/moska.md."""
    p = params(2)
    s = position("♥5", "♦4 ♦9 ♦A ♣7", trump="♣", stock="♥2 ♥3", defender=1)[0]
    on_table(s, "♦5 ♣5")
    assert int(C.KILL[0, F.parse("♣5")]) & int(s["hands"][1]) == F.hand("♣7")  # ♦A cannot kill the trump ♣5
    assert int(C.KILL[0, F.parse("♦5")]) & int(s["hands"][1]) == F.hand("♣7 ♦9 ♦A")
    assert not C.is_legal(s, p, move(kills={"♣5": "♦A"}))
    assert not C.is_legal(s, p, move(kills={"♦5": "♦4"}))
    decide(s, p, kills={"♦5": "♦9"})  # no duty to kill ♣5; seat 0 may add ♥5 now
    assert C.to_act(s) == 0 and s["phase"] == C.ADD
    assert same(s["kills"], "♦9") and same(s["unkilled"], "♣5") and same(s["hands"][1], "♣7 ♦4 ♦A")
    s = position("♦2", "♦4 ♦9 ♣7", trump="♣", defender=1, turned="♣K")[0]
    on_table(s, "♦5 ♣5")
    m = np.zeros(1, C.MOVE)[0]
    # greedy: the cheapest non-trump killer, the trump by the trump
    C.choose(s, p, pol.table(("greedy", "greedy")), m, C.new_work()[0])
    assert m["killer"][F.parse("♦5")] == F.parse("♦9") and m["killer"][F.parse("♣5")] == F.parse("♣7")


@pytest.mark.parametrize("continuation, allowed", [("attack", "♣6 ♦6 ♥6 ♠6"),
                                                   ("attack_and_kill", "♣3 ♦3 ♥3 ♠3 ♣6 ♦6 ♥6 ♠6 ♣9 ♦9 ♥9 ♠9")])
def test_M11_additions_use_attack_ranks_or_also_kill_ranks_worked_example(continuation, allowed):
    """Rule M-11 of docs/rules/moska.md."""
    s = position("", "", "", trump="♣", defender=2)[0]
    on_table(s, "♠6 ♦6", kills=[("♠6", "♦9"), ("♦6", "♣3")])
    assert int(C.allowed(s, params(3, continuation=continuation))) == F.hand(allowed)


def _overplay(**knobs):
    """Room 1 (the defender began with 6, one attack card, cap 2): seat 2 (the attacker) adds ♠5, seat 0 ♥5."""
    p = params(3, attack_cap=2, **knobs)
    s = position("♥5 ♦K", "♦2 ♦3", "♠5 ♦Q", attacker=2, defender=1)[0]
    s["start_hand"] = 6
    on_table(s, "♦5")
    C.advance(s, p, C.BEGIN_ADDITIONS)
    assert C.to_act(s) == 2 and s["phase"] == C.ADD and s["step_room"] == 1
    decide(s, p, "♠5")
    assert C.to_act(s) == 0 and same(s["hands"][2], "♠5 ♦Q")  # chosen cards wait in the hand
    decide(s, p, "♥5")
    return s, p


def test_M12_over_play_defender_chooses_what_goes_back():
    """Rule M-12 of docs/rules/moska.md."""
    s, p = _overplay()
    assert C.to_act(s) == 1 and s["phase"] == C.GIVE_BACK and s["excess"] == 1
    assert s["overplays"] == 0  # counted once the excess is back (issue 28)
    assert not C.is_legal(s, p, move("♦Q")) and not C.is_legal(s, p, move("♠5 ♥5"))
    decide(s, p, "♠5")
    assert s["overplays"] == 1
    assert same(s["attack"], "♦5 ♥5") and same(s["hands"][2], "♠5 ♦Q") and same(s["known"][2], "♠5")
    assert C.to_act(s) == 1 and s["phase"] == C.DEFEND


def test_M12_over_play_last_over_player_takes_back_first():
    """Rule M-12 of docs/rules/moska.md."""
    s, p = _overplay(excess_return="last")  # clockwise from the attacker (seat 2): seat 0 is last
    assert same(s["attack"], "♦5 ♠5") and same(s["hands"][0], "♥5 ♦K") and s["turns"] == 2
    assert s["overplays"] == 1 and C.to_act(s) == 1 and s["phase"] == C.DEFEND


def test_M12_over_play_attacker_chooses_what_goes_back():
    """Rule M-12 of docs/rules/moska.md: ``excess_return="attacker"`` (TARAKI 3.5.4), the round's attacker chooses."""
    s, p = _overplay(excess_return="attacker")
    assert C.to_act(s) == 2 and s["phase"] == C.GIVE_BACK and s["excess"] == 1  # seat 2 opened the round
    decide(s, p, "♥5")
    assert same(s["attack"], "♦5 ♠5") and same(s["hands"][0], "♥5 ♦K") and s["turns"] == 3
    p = params(4, excess_return="attacker")  # an attacker who is out still chooses (choosing needs no cards)
    s = position("♠3 ♦6", "", "♠8 ♠9 ♣2", "♥6 ♣6 ♥3", trump="♦", turned="♦9", defender=2, out=(1,))[0]
    on_table(s, "♠6")
    C.advance(s, p, C.BEGIN_ADDITIONS)
    decide(s, p, "♥6 ♣6")  # seat 3
    decide(s, p, "♦6")  # seat 0
    assert C.to_act(s) == 1 and s["phase"] == C.GIVE_BACK
    decide(s, p, "♣6")
    assert same(s["unkilled"], "♦6 ♥6 ♠6") and same(s["hands"][3], "♣6 ♥3")


def test_M13_adders_refill_at_once_in_clockwise_order_from_the_attacker():
    """Rule M-13 of docs/rules/moska.md."""
    p = params(4)
    s = position("♥5 ♦K ♦J ♦T ♦9 ♦8", "♦2 ♦3 ♥2 ♥3 ♥4 ♥6", "", "♠5 ♦Q ♦7 ♦6 ♦4 ♠A",
                 stock="♣9 ♣K", attacker=3, defender=1)[0]
    on_table(s, "♦5")
    C.advance(s, p, C.BEGIN_ADDITIONS)
    decide(s, p, "♠5")  # seat 3
    decide(s, p, "♥5")  # seat 0
    assert same(s["hands"][3], "♣9 ♦Q ♦7 ♦6 ♦4 ♠A") and same(s["hands"][0], "♣K ♦K ♦J ♦T ♦9 ♦8")
    assert count(int(s["hands"][1])) == 6  # the defender refills only when the round ends


def test_M14_defender_attacks_own_cards_within_the_cap():
    """Rule M-14 of docs/rules/moska.md."""
    p = params(2, defender_self_attack=True, trump_two_swap=False)
    s = position("♠6", "♦6 ♦9 ♠2 ♠3", defender=1, turned="♣K")[0]
    on_table(s, "♥6")
    assert not C.is_legal(s, p, move("♠2", kills={"♠2": "♠3"}))  # a 2 is not an allowed rank
    decide(s, p, "♦6", kills={"♦6": "♦9"})
    assert same(s["attack"], "♦6 ♥6") and same(s["kills"], "♦9") and s["self_attacks"] == 1 and s["gone"] == 2
    assert C.to_act(s) == 0 and s["phase"] == C.ADD  # seat 0 may add ♠6
    s = position("♦2", "♦6 ♦9 ♠2 ♠3", defender=1, turned="♣K")[0]
    on_table(s, "♥6 ♥7 ♥8 ♥9 ♥T", kills=[("♥6", "♥A"), ("♥7", "♥K"), ("♥8", "♥Q"), ("♥9", "♥J"), ("♥T", "♣A")])
    s["start_hand"] = 10
    assert not C.is_legal(s, p, move("♦6", kills={"♦6": "♦9"}))  # 5 left the hand: 5 + 2 > 6 is "virpiminen"
    m = np.zeros(1, C.MOVE)[0]
    C.choose(s, p, pol.table(("random", "random")), m, C.new_work()[0])
    assert m["cards"] == 0


TARAKI = MoskaRules.preset("taraki")


def taraki(players=3, **knobs):
    return C.make_params(TARAKI.replace(**knobs), players)[0]


def test_M14_six_cards_a_seventh_kill_is_refused():
    """Rule M-14 of docs/rules/moska.md (TARAKI 3.5.3): ordinary kills count towards the six cards."""
    p = taraki()
    s = position("♠3", "♠4", "♠9 ♠T ♥7", trump="♣", stock="♣2", defender=2)[0]
    on_table(s, "♦3 ♦4 ♦5 ♦6 ♥3", kills=[("♦3", "♦7"), ("♦4", "♦8"), ("♦5", "♦9"), ("♦6", "♦T"), ("♥3", "♥5")])
    s["gone"] = 6  # four kills and a self-attack pair have left the defender's hand
    on_table(s, "♠7")
    assert not C.is_legal(s, p, move(kills={"♠7": "♠9"}))
    for policy in ("random", "greedy"):
        m = np.zeros(1, C.MOVE)[0]
        C.choose(s, p, pol.table((policy,) * 3), m, C.new_work()[0])
        assert m["killer"][F.parse("♠7")] == -1
    s["gone"] = 5
    assert C.is_legal(s, p, move(kills={"♠7": "♠9"}))
    assert taraki(attack_cap=None)["leave_limit"] == 6  # attack_cap=None: still six
    assert params(3, attack_cap=None)["leave_limit"] == 52  # without M-14 no such limit


def test_M14_no_virpiminen_self_attack_needs_room_for_two():
    """Rule M-14 of docs/rules/moska.md (TARAKI glossary): no self-attack when the table is full or one short."""
    p = taraki()
    s = position("♠3", "♠4", "♦7 ♦9 ♥7 ♥A", trump="♣", stock="♣2", defender=2)[0]
    on_table(s, "♠7 ♥8 ♦8 ♠8", kills=[("♠7", "♠T"), ("♥8", "♥T"), ("♦8", "♦T"), ("♠8", "♠J")])
    s["start_hand"] = 6  # cap 6, four attack cards: room 2, and 4 + 2 cards may leave
    assert C.room(s, p) == 2 and C.is_legal(s, p, move("♦7", kills={"♦7": "♦9"}))
    s["start_hand"] = 5  # room 1: one short
    assert C.room(s, p) == 1 and not C.is_legal(s, p, move("♦7", kills={"♦7": "♦9"}))
    m = np.zeros(1, C.MOVE)[0]
    C.choose(s, p, pol.table(("greedy",) * 3), m, C.new_work()[0])
    assert m["cards"] == 0
    s["start_hand"], s["gone"] = 6, 5  # room 2, but the pair would make seven cards leave
    assert not C.is_legal(s, p, move("♦7", kills={"♦7": "♦9"}))


def test_M14_unkilled_mode_the_pair_leaves_a_hand_that_covers_the_unkilled_cards():
    """Rule M-14 of docs/rules/moska.md: in cap_mode="unkilled" M-9 still holds after the pair leaves."""
    p = taraki(cap_mode="unkilled", cap_to_defender_hand=False)
    s = position("♠3", "♠4", "♦7 ♦9 ♠2 ♠3", trump="♣", stock="♣2", defender=2)[0]
    on_table(s, "♥7 ♥8 ♠7")  # three unkilled: room 6 - 3 = 3, but 4 - 2 cards would not cover them
    assert C.room(s, p) == 3 and not C.is_legal(s, p, move("♦7", kills={"♦7": "♦9"}))
    s["unkilled"] = F.hand("♥7 ♥8")
    assert C.is_legal(s, p, move("♦7", kills={"♦7": "♦9"}))  # 4 - 2 >= 2


def _closing_round(**knobs):
    """Seat 1 opens ♠6 at seat 2, who can kill it with ♠9; seat 0 holds a 6 to add."""
    p = params(3, **knobs)
    s = position("♥6 ♥8", "♠6 ♠K", "♠9 ♥9 ♣2 ♣3", trump="♦", stock="♣4 ♣5 ♣7 ♣8 ♣9 ♣T ♣J")[0]
    C.advance(s, p, C.BEGIN_ROUND)
    decide(s, p, "♠6")
    return s, p


def test_M14b_defender_closes_the_round_after_killing_everything():
    """Rule M-14b of docs/rules/moska.md (TARAKI 3.6.4): ``defender_closes``."""
    s, p = _closing_round(defender_closes=True)
    decide(s, p, kills={"♠6": "♠9"})
    assert s["turns"] == 2 and s["rounds"] == 2 and s["attacker"] == 2 and same(s["discard"], "♠6 ♠9")
    s, p = _closing_round(defender_closes=False)
    decide(s, p, kills={"♠6": "♠9"})
    assert C.to_act(s) == 0 and s["phase"] == C.ADD  # M-15: additions follow
    s, p = _closing_round(defender_closes=True)
    decide(s, p)  # ♠6 left unkilled: the round goes on
    assert C.to_act(s) == 0 and s["phase"] == C.ADD


def _empty_handed_defender(stock):
    """Pyhäselkä, hand size 2: seat 1 opens ♠6 ♦6, seat 2 kills them with its last two cards."""
    p = C.make_params(MoskaRules.preset("pyhaselka").replace(hand_size=2), 3)[0]
    s = position("♥6 ♥9", "♠6 ♦6", "♠9 ♦9", trump="♣", stock=stock, turned=None if stock else "♣A")[0]
    C.advance(s, p, C.BEGIN_ROUND)
    decide(s, p, "♠6 ♦6")
    decide(s, p, kills={"♠6": "♠9", "♦6": "♦9"})
    return s, p


def test_M15_a_defender_who_killed_with_the_last_card_is_given_additions_while_the_stock_lasts():
    """Rule M-15 of docs/rules/moska.md: not out while the stock holds cards; picks the additions up."""
    s, p = _empty_handed_defender("♣4 ♣5 ♣7 ♣8 ♣T ♣J ♣Q")
    assert C.to_act(s) == 0 and s["phase"] == C.ADD and s["step_room"] == 52 - 2
    decide(s, p, "♥6 ♥9")  # the empty-handed defender makes no decision; nobody can add more
    assert s["turns"] == 3 and s["pickups"] == 1 and same(s["hands"][2], "♥6 ♥9") and same(s["known"][2], "♥6 ♥9")
    assert s["attacker"] == 0 and s["phase"] == C.OPEN
    s, p = _empty_handed_defender("")  # stock empty: the defender is out, the round ends at once
    assert C.to_act(s) == -1 and s["loser"] == 0 and finish_strings(np.array([s["finish"]]), 3)[0] == "1,2"


def test_M15_the_defenders_unkilled_cards_count_as_held_in_the_end_check():
    """Rules M-15 and M-19 of docs/rules/moska.md: a defender with cards to pick up has neither lost nor gone out."""
    p = C.make_params(MoskaRules.preset("pyhaselka").replace(hand_size=2), 2)[0]
    s = position("♠9 ♥9", "♠6 ♥6", trump="♣", stock="♦6 ♦3 ♣4")[0]
    C.advance(s, p, C.BEGIN_ROUND)
    decide(s, p, "♠6 ♥6")
    decide(s, p, kills={"♠6": "♠9", "♥6": "♥9"})
    decide(s, p, "♦6")  # seat 1 adds ♦6 and draws the last card while seat 0 holds none
    assert s["loser"] == -1 and s["finish"] == 0 and C.stock_left(s) == 0
    assert same(s["hands"][0], "♦6") and s["pickups"] == 1 and s["attacker"] == 1 and C.to_act(s) == 1


def test_M15_an_addition_step_adding_nothing_ends_the_round():
    """Rule M-15 of docs/rules/moska.md."""
    p = params(3)
    s = position("♥5 ♦K", "♦2 ♦3", "♠5 ♦Q", stock="♥2 ♥3 ♥4 ♥6", attacker=0, defender=1)[0]
    on_table(s, "♦5", kills=[("♦5", "♦7")])
    C.advance(s, p, C.BEGIN_ADDITIONS)
    decide(s, p)  # seat 0 adds nothing
    decide(s, p)  # seat 2 adds nothing
    assert s["phase"] == C.OPEN and s["turns"] == 2 and s["rounds"] == 1  # nobody defends again: a new round
    assert s["attacker"] == 1 and same(s["discard"], "♦5 ♦7")


def test_M16_all_killed_the_defender_refills_and_attacks_next():
    """Rule M-16 of docs/rules/moska.md."""
    p = params(3)
    s = position("♥5", "♦2", "♠5", stock="♥2 ♥3 ♥4", attacker=0, defender=1)[0]
    on_table(s, "♦5", kills=[("♦5", "♦7")])
    C.end_round(s, p)
    assert s["attacker"] == 1 and count(int(s["hands"][1])) == 4 and s["pickups"] == 0
    s = position("♥5", "", "♠5", attacker=0, defender=1)[0]
    on_table(s, "♦5", kills=[("♦5", "♦7")])
    C.end_round(s, p)  # the defender is out: the next seat to the left attacks
    assert s["attacker"] == 2 and s["out"] == 0b010


def test_M17_unkilled_cards_are_picked_up_and_the_attack_passes_on():
    """Rule M-17 of docs/rules/moska.md."""
    s = position("♥5", "♦2", "♠5", attacker=0, defender=1)[0]
    on_table(s, "♦5 ♦6", kills=[("♦5", "♦7")])
    C.end_round(s, params(3))
    assert same(s["hands"][1], "♦2 ♦6") and same(s["known"][1], "♦6") and s["attacker"] == 2 and s["pickups"] == 1


def test_M18_players_without_cards_and_stock_are_out_in_order():
    """Rule M-18 of docs/rules/moska.md."""
    p = params(4)
    s = position("♥5", "", "♠5", "")[0]
    C.refill(s, p, 3)
    C.refill(s, p, 1)
    assert s["out"] == 0b1010 and finish_strings(np.array([s["finish"]]), 4)[0] == "3,1"


def test_M19_two_players_attacker_plays_last_card_defender_loses_at_once():
    """Rule M-19 of docs/rules/moska.md."""
    p = params(2)
    s = position("♦2 ♦3 ♦4", "♦5")[0]
    C.advance(s, p, C.BEGIN_ROUND)
    decide(s, p, "♦5")
    assert C.to_act(s) == -1 and s["loser"] == 0 and s["finish"] == 2  # seat 1 out, seat 0 loses


def test_M20_everyone_out_at_once_no_loser():
    """Rule M-20 of docs/rules/moska.md."""
    s = position("", "", "")[0]
    assert C.game_over(s, params(3))
    assert C.to_act(s) == -1 and s["loser"] == -1


def test_M21_truncated_at_max_turns_decisions():
    """Rule M-21 of docs/rules/moska.md."""
    s = position("♦2", "♦5", turns=7)[0]
    C.advance(s, params(2, max_turns=7), C.BEGIN_ROUND)
    assert s["truncated"] and C.to_act(s) == -1 and s["turns"] == 7 and s["loser"] == -1 and s["rounds"] == 1


def test_the_deal_is_the_permutation_of_core_rng():
    key = rng.game_key(3, 14)
    u, perm, count = np.zeros(52, np.uint64), np.zeros(52, np.int64), np.zeros(jit.BUCKETS + 1, np.int64)
    jit.permutation_into(np.uint64(key), jit.DEAL, 0, 52, u, perm, count)
    assert perm.tolist() == list(rng.permutation(key, rng.Stream.DEAL, 52))
