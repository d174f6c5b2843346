"""One scenario per rule of docs/rules/musta_maija.md: a position built by hand, a rule
applied, the exact outcome checked (plus the knobs, presets and their errors)."""
import pytest

import cardsim
from cardsim.core import rng
from cardsim.games.musta_maija import policies
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija.cards import BLACK_MARIA, DIAMONDS, SPADES, card_list, copy, parse, suit
from cardsim.games.musta_maija.rules import MustaMaijaRules

H = parse
RULES = MustaMaijaRules()
HEARTS, CLUBS = 2, 0


def c(name: str) -> int:
    """The code of one card, e.g. ``c("♥7")``."""
    return H(name).bit_length() - 1


def table(hands, stock="", *, rules=RULES, attacker=1, trump=-1, on_table="", out=()):
    """A position by hand: hands by seat, the stock top first, the attack on the table."""
    t = ref.Table(rules, len(hands), key=0, hands=[H(h) for h in hands], stock=[c(n) for n in stock.split()],
                  trump=trump, attacker=attacker, table=H(on_table))
    t.out = list(out)
    return t


def test_MM1_two_decks_and_one_black_maria_from_six_players():
    """Rule MM-1 of docs/rules/musta_maija.md."""
    assert len(card_list(5)) == 52 and len(card_list(6)) == 103 == len(set(card_list(8)))
    queens = [c for c in card_list(8) if c % 52 == BLACK_MARIA]
    assert queens == [BLACK_MARIA]
    t = ref.deal(RULES, 6, rng.game_key(0, 3))
    every = sum(t.hands) | ref.mask(t.stock)
    assert every == ref.mask(card_list(6)) and any(copy(c) for c in ref.cards(every))
    with pytest.raises(ValueError, match="2 to 8 players"):
        cardsim.simulate("musta_maija", players=9, games=1)


def test_MM2_black_maria_is_never_beaten_and_never_beats_and_attacks_as_a_spade():
    """Rule MM-2 of docs/rules/musta_maija.md."""
    bm, spade_ace, spade_two = BLACK_MARIA, c("♠A"), c("♠2")
    assert not ref.beats(spade_ace, bm, SPADES, "unbeatable")
    assert not ref.beats(c("♥2"), bm, HEARTS, "unbeatable")
    assert not ref.beats(bm, spade_two, -1, "unbeatable")
    assert ref.is_legal_attack(H("♠Q ♠3 ♥4"), H("♠Q ♠3"), None)
    assert not ref.is_legal_attack(H("♠Q ♥4"), H("♠Q ♥4"), None)
    t = table(["♣2", "♠Q ♠3", "♠A ♠K ♥A ♥K ♥Q ♥J"], trump=HEARTS)
    ref.attack(t, H("♠Q ♠3"))
    assert policies.beat_with(t.table, t.hands[2], HEARTS, "unbeatable") == [(c("♠K"),
                                                                               c("♠3"))]


def test_MM3_highest_trump_black_maria_beats_anything_even_before_a_trump():
    """Rule MM-3 of docs/rules/musta_maija.md."""
    bm = BLACK_MARIA
    assert ref.beats(bm, c("♥A"), HEARTS, "highest_trump")
    assert ref.beats(bm, c("♣5"), -1, "highest_trump")
    assert not ref.beats(c("♠A"), bm, -1, "highest_trump")
    pairs = policies.beat_with(H("♣5"), H("♠Q ♥2"), -1, "highest_trump")
    assert pairs == [(bm, c("♣5"))]


def test_MM4_deal_three_at_a_time_clockwise_from_seat_one():
    """Rule MM-4 of docs/rules/musta_maija.md."""
    assert ref.packets(6) == [3, 3] and ref.packets(5) == [3, 2]
    assert ref.deal_order(3, 5) == [1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 2, 2, 0, 0]
    key = rng.game_key(4, 11)
    order = rng.permutation(key, rng.Stream.DEAL, 52)
    t = ref.deal(RULES.replace(hand_size=5), 3, key)
    assert t.hands[1] == ref.mask([order[0], order[1], order[2], order[9], order[10]])
    assert t.stock == list(order[15:]) and all(len(ref.cards(h)) == 5 for h in t.hands)


def test_MM5_marriage_declares_trump_once_never_spades():
    """Rule MM-5 of docs/rules/musta_maija.md."""
    t = table(["♣2", "♥K ♥Q ♠K ♠Q ♦K ♦Q'", "♣3"], rules=RULES)
    t.hands[1] = H("♥K ♥Q ♠K ♠Q ♦K")
    assert ref.marriages(t, 1) == [HEARTS]
    t.hands[1] |= H("♦Q'")
    assert ref.marriages(t, 1) == [DIAMONDS, HEARTS]  # either copy counts
    ref.declare(t, 1, HEARTS)
    assert (t.trump, t.declared_turn) == (HEARTS, 0)
    assert ref.marriages(t, 1) == []
    with pytest.raises(ValueError):
        ref.declare(t, 1, DIAMONDS)
    assert ref.marriages(table(["♣2", "♥K ♥Q"], rules=RULES.replace(trump="diamonds")), 1) == []


def test_MM5_greedy_declares_at_first_chance_and_the_record_says_when():
    """Rule MM-5 of docs/rules/musta_maija.md."""
    rec = cardsim.simulate("musta_maija", "musta_maija", players=4, games=200, seed=2, policy="greedy")
    declared = rec[rec.trump_declared_turn >= 0]
    assert len(declared) > 0 and (declared.trump_suit != SPADES).all() and (declared.trump_suit >= 0).all()
    assert (rec[rec.trump_declared_turn < 0].trump_suit == -1).all()


def test_MM6_diamonds_are_always_trump():
    """Rule MM-6 of docs/rules/musta_maija.md."""
    t = ref.deal(RULES.replace(trump="diamonds"), 4, rng.game_key(0, 0))
    assert t.trump == DIAMONDS and ref.marriages(t, 1) == []


def test_MM7_turned_card_is_trump_goes_under_the_stock_and_spades_are_reshuffled():
    """Rule MM-7 of docs/rules/musta_maija.md."""
    r = RULES.replace(trump="turned")
    reshuffled = 0
    for game in range(60):
        key = rng.game_key(1, game)
        order = rng.permutation(key, rng.Stream.DEAL, 52)
        t = ref.deal(r, 4, key)
        assert t.trump == suit(t.stock[-1]) != SPADES
        if suit(order[24]) == SPADES:
            reshuffled += 1
            assert sorted(t.stock) == sorted(order[24:])
        else:
            assert t.stock == list(order[25:]) + [order[24]]
    assert reshuffled > 0


def test_MM8_trump_beats_non_trump_and_only_a_higher_trump_beats_a_trump():
    """Rule MM-8 of docs/rules/musta_maija.md."""
    assert ref.beats(c("♥2"), c("♣A"), HEARTS, "unbeatable")
    assert not ref.beats(c("♣A"), c("♥2"), HEARTS, "unbeatable")
    assert ref.beats(c("♥3"), c("♥2"), HEARTS, "unbeatable")
    assert not ref.beats(c("♦A"), c("♥2"), HEARTS, "unbeatable")
    assert not ref.beats(c("♥2"), c("♣A"), -1, "unbeatable")


def test_MM9_attack_one_suit_seat_one_first_out_players_skipped():
    """Rule MM-9 of docs/rules/musta_maija.md."""
    t = ref.deal(RULES, 4, rng.game_key(0, 0))
    assert t.attacker == 1 and ref.defender(t) == 2
    t = table(["♣2", "♥2 ♥3 ♥4 ♣5 ♣6 ♣7", "♦2", "♦3"], "♦4 ♦5 ♦6 ♦7")
    assert not ref.is_legal_attack(t.hands[1], H("♥2 ♣5"), None)
    assert not ref.is_legal_attack(t.hands[1], 0, None)
    t = table(["♣2", "♥2", "♦2", "♦3"], out=[2])
    assert ref.defender(t) == 3


def test_MM9_refill_as_many_as_played_fewer_when_the_stock_runs_out():
    """Rule MM-9 of docs/rules/musta_maija.md: ``refill="played"`` (the default, the seed)."""
    assert RULES.refill == "played"
    t = table(["♣2", "♥2 ♥3 ♥4 ♣5 ♣6 ♣7 ♣8", "♦2", "♦3"], "♦4 ♦5 ♦6 ♦7")
    ref.attack(t, H("♥2 ♥3"))  # holds 7 (picked up before): draws 2 all the same
    assert t.hands[1] == H("♥4 ♣5 ♣6 ♣7 ♣8 ♦4 ♦5") and t.stock == [c("♦6"), c("♦7")]
    t = table(["♣2", "♥2 ♥3 ♣5", "♦2", "♦3"], "♦4 ♦5 ♦6 ♦7")
    ref.attack(t, H("♥2"))  # holds 3: draws 1, not up to 6
    assert t.hands[1] == H("♥3 ♣5 ♦4") and t.stock == [c("♦5"), c("♦6"), c("♦7")]
    t = table(["♣2", "♥2 ♥3 ♥4 ♣5", "♦2", "♦3"], "♦4 ♦5")
    ref.attack(t, H("♥2 ♥3 ♥4"))  # played 3, the stock holds 2
    assert t.hands[1] == H("♣5 ♦4 ♦5") and t.stock == [] and t.out == []


def test_MM9_refill_to_hand_size_the_house_rule():
    """Rule MM-9 of docs/rules/musta_maija.md: ``refill="to_hand_size"`` (the ``house`` preset)."""
    house = cardsim.rules("musta_maija", "house")
    assert house.refill == "to_hand_size"
    t = table(["♣2", "♥2 ♥3 ♥4 ♣5 ♣6 ♣7", "♦2", "♦3"], "♦4 ♦5 ♦6 ♦7", rules=house)
    ref.attack(t, H("♥2 ♥3"))
    assert t.hands[1] == H("♥4 ♣5 ♣6 ♣7 ♦4 ♦5") and t.stock == [c("♦6"), c("♦7")]
    t = table(["♣2", "♥2 ♥3 ♥4 ♣5 ♣6 ♣7 ♣8", "♦2", "♦3"], "♦4", rules=house)
    ref.attack(t, H("♥2"))
    assert len(ref.cards(t.hands[1])) == 6 and t.stock == [c("♦4")]  # holds 6: draws nothing
    t = table(["♣2", "♥2 ♥3 ♣5", "♦2", "♦3"], "♦4 ♦5 ♦6 ♦7", rules=house)
    ref.attack(t, H("♥2"))
    assert t.hands[1] == H("♥3 ♣5 ♦4 ♦5 ♦6 ♦7") and t.stock == []


def test_MM10_each_attack_card_beaten_by_a_higher_same_suit_card_or_a_trump():
    """Rule MM-10 of docs/rules/musta_maija.md: what beats what, one card per card."""
    t = table(["♣2", "♣3", "♥5 ♥9 ♦2 ♣4"], trump=DIAMONDS, on_table="♥4 ♥8")
    pairs = [(c("♥5"), c("♥4")), (c("♦2"), c("♥8"))]
    assert ref.is_legal_defence(t.hands[2], t.table, pairs, DIAMONDS, "unbeatable")
    assert not ref.is_legal_defence(t.hands[2], t.table, [(c("♣4"), c("♥4"))], DIAMONDS, "unbeatable")
    assert not ref.is_legal_defence(t.hands[2], t.table, [(c("♥9"), c("♥4")), (c("♥9"), c("♥8"))], DIAMONDS,
                                    "unbeatable")


def test_MM10_duty_to_beat_every_card_when_the_defender_can():
    """Rule MM-10 of docs/rules/musta_maija.md: ``must_beat="all_if_possible"`` (the default, the seed)."""
    assert RULES.must_beat == "all_if_possible"
    # ♥5 must take ♥4 so that the trump ♦2 is free for ♥8: found by an augmenting path
    t = table(["♣2", "♣3", "♥5 ♦2 ♣4", "♣6"], trump=DIAMONDS, on_table="♥4 ♥8")
    assert ref.can_beat_all(t.hands[2], t.table, DIAMONDS, "unbeatable") and ref.duty_to_beat(t)
    some, every = [(c("♥5"), c("♥4"))], [(c("♥5"), c("♥4")), (c("♦2"), c("♥8"))]
    assert not ref.is_legal_defence(t.hands[2], t.table, [], DIAMONDS, "unbeatable", must=True)
    assert not ref.is_legal_defence(t.hands[2], t.table, some, DIAMONDS, "unbeatable", must=True)
    with pytest.raises(ValueError, match="must beat every card"):
        ref.defend(t, some)
    picked_up = 0  # the random policy picks up some cards when free, never when bound
    for key in range(40):
        for must in (False, True):
            pairs = policies.defence("random", t.hands[2], t.table, DIAMONDS, "unbeatable", False, must, key, 0)
            assert ref.is_legal_defence(t.hands[2], t.table, pairs, DIAMONDS, "unbeatable", must)
            picked_up += len(pairs) < 2
    assert picked_up > 0
    ref.defend(t, every)
    assert t.attacker == 2 and t.discard == H("♥4 ♥8 ♥5 ♦2")
    # the Black Maria under highest_trump counts as a beater, even before any trump exists
    assert ref.can_beat_all(H("♠Q ♥5"), H("♥4 ♣9"), -1, "highest_trump")
    assert not ref.can_beat_all(H("♠Q ♥5"), H("♥4 ♣9"), -1, "unbeatable")


def test_MM10_free_choice_when_not_every_card_can_be_beaten():
    """Rule MM-10 of docs/rules/musta_maija.md: a defender who cannot beat them all chooses freely."""
    t = table(["♣2", "♣3", "♥5 ♥9 ♣4", "♣6"], trump=DIAMONDS, on_table="♥4 ♥8 ♥T")
    assert not ref.can_beat_all(t.hands[2], t.table, DIAMONDS, "unbeatable") and not ref.duty_to_beat(t)
    for pairs in ([], [(c("♥9"), c("♥8"))], [(c("♥5"), c("♥4")), (c("♥9"), c("♥8"))]):
        assert ref.is_legal_defence(t.hands[2], t.table, pairs, DIAMONDS, "unbeatable", must=False)
    ref.defend(t, [(c("♥9"), c("♥4"))])  # keeps ♥5, picks up ♥8 ♥T
    assert t.hands[2] == H("♥5 ♣4 ♥8 ♥T") and t.attacker == 3
    # nothing beats the Black Maria (MM-2): attacked with it, a defender is never bound
    t = table(["♣2", "♣3", "♠A ♠K ♣4", "♣6"], on_table="♠Q ♠3")
    assert not ref.duty_to_beat(t)
    ref.defend(t, [])
    assert t.hands[2] == H("♠A ♠K ♣4 ♠Q ♠3")


def test_MM10_no_duty_with_must_beat_free_the_house_rule():
    """Rule MM-10 of docs/rules/musta_maija.md: ``must_beat="free"`` (the ``house`` preset)."""
    house = cardsim.rules("musta_maija", "house")
    t = table(["♣2", "♣3", "♥5 ♦2 ♣4", "♣6"], rules=house, trump=DIAMONDS, on_table="♥4 ♥8")
    assert ref.can_beat_all(t.hands[2], t.table, DIAMONDS, "unbeatable") and not ref.duty_to_beat(t)
    ref.defend(t, [])
    assert t.hands[2] == H("♥5 ♦2 ♣4 ♥4 ♥8") and t.attacker == 3


def test_MM11_all_beaten_discard_draw_up_and_the_defender_attacks_next():
    """Rule MM-11 of docs/rules/musta_maija.md."""
    t = table(["♣2", "♣3", "♥5 ♥9", "♣4"], "♦7 ♦8 ♦9", on_table="♥4 ♥8")
    ref.defend(t, [(c("♥5"), c("♥4")), (c("♥9"), c("♥8"))])
    assert t.discard == H("♥4 ♥8 ♥5 ♥9") and t.hands[2] == H("♦7 ♦8 ♦9") and t.attacker == 2
    assert ref.defender(t) == 3


def test_MM12_not_all_beaten_pick_up_no_draw_above_hand_size_next_attacker_is_left_of_defender():
    """Rule MM-12 of docs/rules/musta_maija.md."""
    t = table(["♣2", "♣3", "♥5 ♣6 ♣7 ♣8 ♣9 ♣T", "♣4"], "♦7", on_table="♥4 ♥8 ♥Q")
    ref.defend(t, [(c("♥5"), c("♥4"))])
    assert t.hands[2] == H("♣6 ♣7 ♣8 ♣9 ♣T ♥8 ♥Q") and t.stock == [c("♦7")]
    assert t.discard == H("♥4 ♥5") and t.attacker == 3


def test_MM13_endgame_attack_no_bigger_than_the_defenders_hand():
    """Rule MM-13 of docs/rules/musta_maija.md."""
    t = table(["♣2", "♥2 ♥3 ♥4", "♣5 ♣6", "♣4"])
    assert ref.attack_cap(t) == 2
    assert ref.is_legal_attack(t.hands[1], H("♥2 ♥3"), 2) and not ref.is_legal_attack(t.hands[1], H("♥2 ♥3 ♥4"), 2)
    with pytest.raises(ValueError, match="illegal attack"):
        ref.attack(t, H("♥2 ♥3 ♥4"))
    assert ref.attack_cap(table(["♣2", "♥2", "♣5", "♣4"], "♦7")) is None
    assert policies.attack("greedy", H("♥2 ♥3 ♥4"), -1, 2, 0, 0) == H("♥2 ♥3")


def test_MM14_out_when_empty_with_an_empty_stock_last_holder_loses():
    """Rule MM-14 of docs/rules/musta_maija.md."""
    t = table(["♣2", "♥2", "♣5 ♣6", "♣4"])
    ref.attack(t, H("♥2"))
    assert t.out == [1]
    ref.defend(t, [])
    assert t.attacker == 3 and not ref.finished(t)  # seat 1 is out: skipped
    t = table(["♣2", "♥2", "♥5", "♥9"], "♦2")
    ref.attack(t, H("♥2"))
    assert t.out == []  # the stock was not empty: drew a card instead
    two = table(["♣2 ♠Q", "♥2"])
    ref.attack(two, H("♥2"))
    ref.defend(two, [])
    rec = ref.record(two, 0)
    assert ref.finished(two) and rec["loser"] == 0 == rec["black_maria_holder"] and rec["first_out"] == 1


def test_MM14_one_deck_unbeatable_the_loser_holds_the_black_maria():
    """Rule MM-14 of docs/rules/musta_maija.md."""
    for players in (2, 3, 4, 5):
        df = cardsim.simulate("musta_maija", players=players, games=300, seed=9, policy=["random", "greedy"] * 2
                              if players == 4 else "random")
        done = df[~df.truncated]
        assert len(done) > 0 and (done.loser == done.black_maria_holder).all() and (done.loser >= 0).all()


def test_MM14_finish_order_records_every_seat_in_the_order_it_went_out():
    """Rule MM-14 of docs/rules/musta_maija.md: the whole ``finish_order``, the loser not in it."""
    t = table(["♣2 ♠Q", "♥2", "♥5", "♣4"])
    ref.attack(t, H("♥2"))  # seat 1 empties its hand: out before its defender
    ref.defend(t, [(c("♥5"), c("♥2"))])  # bound to beat it (MM-10), and out too
    assert t.out == [1, 2] and t.attacker == 3 and not ref.finished(t)
    ref.attack(t, H("♣4"))
    ref.defend(t, [])  # seat 0 cannot beat ♣4: picks it up and loses
    rec = ref.record(t, 0)
    assert rec["finish_order"] == "1,2,3" and rec["first_out"] == 1 and rec["loser"] == 0
    rec = cardsim.replay("musta_maija", players=5, seed=3, game=4, policy="greedy").record
    order = [int(s) for s in rec["finish_order"].split(",")]
    assert sorted(order + [rec["loser"]]) == list(range(5)) and order[0] == rec["first_out"]


def test_MM15_policies_see_hand_sizes_not_hidden_cards():
    """Rule MM-15 of docs/rules/musta_maija.md."""
    a = table(["♣2 ♣3", "♥2 ♥3 ♦4", "♣5 ♣6", "♣4"])
    b = table(["♦9 ♦T", "♥2 ♥3 ♦4", "♥5 ♠6", "♣4"])
    for policy in ("random", "greedy"):
        moves = [policies.attack(policy, t.hands[1], t.trump, ref.attack_cap(t), 7, 3) for t in (a, b)]
        assert moves[0] == moves[1]


def test_MM16_truncation_after_max_turns_decisions():
    """Rule MM-16 of docs/rules/musta_maija.md."""
    r = RULES.replace(max_turns=5)
    rec = ref.play(r, 4, 0, 0, ("random",) * 4).record
    assert rec["turns"] == 5 and rec["truncated"] and rec["loser"] == -1 and rec["rounds"] == 3
    df = cardsim.simulate("musta_maija", r, players=4, games=50, seed=0)
    assert df.truncated.all() and (df.turns == 5).all() and (df.loser == -1).all()


def test_MM17_every_player_but_the_loser_scores_one_point():
    """Rule MM-17 of docs/rules/musta_maija.md."""
    assert ref.scores(2, 4) == [1, 1, 0, 1]
    assert ref.scores(-1, 3) == [1, 1, 1]


def test_knobs_presets_and_errors():
    assert set(cardsim.presets("musta_maija")) == {"musta_maija", "diamonds", "turned", "black_trump", "five_cards",
                                                   "house"}
    assert cardsim.rules("musta_maija", "house") == RULES.replace(refill="to_hand_size", must_beat="free")
    with pytest.raises(ValueError, match="refill='all' is invalid"):
        cardsim.rules("musta_maija", refill="all")
    with pytest.raises(ValueError, match="must_beat=True is invalid"):
        cardsim.rules("musta_maija", must_beat=True)
    assert cardsim.rules("musta_maija", "five_cards").hand_size == 5
    assert cardsim.rules("musta_maija", "black_trump").black_maria == "highest_trump"
    with pytest.raises(ValueError, match="trump='clubs' is invalid"):
        cardsim.rules("musta_maija", trump="clubs")
    with pytest.raises(ValueError, match="hand_size=14 needs 112 cards"):
        cardsim.simulate("musta_maija", cardsim.rules("musta_maija", hand_size=14), players=8, games=1)
    with pytest.raises(ValueError, match="trump='turned' needs a stock"):
        cardsim.simulate("musta_maija", "turned(hand_size=10)", players=4, games=1)
    with pytest.raises(ValueError, match="takes no parameters"):
        cardsim.simulate("musta_maija", players=4, games=1, policy="greedy(bluff=0.1)")
    with pytest.raises(ValueError, match="unknown musta_maija policy"):
        cardsim.simulate("musta_maija", players=4, games=1, policy="smart")

