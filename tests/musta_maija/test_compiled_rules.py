"""The rule scenarios of test_rule_scenarios.py on the compiled engine: the same hand-built
positions as compiled states, the same decisions, the same outcomes (``states.both`` checks
the whole state against the reference engine's after each decision)."""
import numpy as np
import pytest

import cardsim
from cardsim.core import jit, rng
from cardsim.core.records import finish_strings
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import policies
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija.cards import DIAMONDS, card_list, mask, parse

from .states import both, defence_move, joined, move, table_view, to_state, view
from .test_rule_scenarios import HEARTS, RULES, c, table

H = parse
WORK = C.new_work()[0]
HOUSE = cardsim.rules("musta_maija", "house")


def compiled_deal(rules, players: int, key: int) -> np.void:
    state = np.zeros(1, C.STATE)
    scratch = np.zeros(C.MAX_CARDS, np.uint64), np.zeros(C.MAX_CARDS, np.int64), np.zeros(C.MAX_CARDS, np.int64), np.zeros(jit.BUCKETS + 1, np.int64)
    C.deal(state[0], C.make_params(rules, players)[0], np.uint64(key), *scratch)
    return state[0]


def test_MM1_MM4_MM6_MM7_the_deal_equals_the_reference_deal():
    """Rules MM-1 (two decks from six players), MM-4 (packets from seat 1), MM-6, MM-7 (turned, spades reshuffled)."""
    reshuffled = 0
    for rules in (RULES, RULES.replace(hand_size=5), RULES.replace(trump="diamonds"), RULES.replace(trump="turned")):
        for players in (2, 4, 6, 8):
            for game in range(25):
                key = rng.game_key(3, game)
                t, s = ref.deal(rules, players, key), compiled_deal(rules, players, key)
                assert view(s)["hands"] == t.hands and view(s)["stock"] == t.stock and s["trump"] == t.trump
                assert s["n_cards"] == len(card_list(players)) and (s["attacker"], s["defender"]) == (1, 2 % players)
                if rules.trump == "turned":
                    codes = card_list(players)
                    deck = [codes[i] for i in rng.permutation(key, rng.Stream.DEAL, len(codes))]
                    dealt = players * rules.hand_size
                    assert s["turned"] == t.stock[-1]
                    reshuffled += t.stock != deck[dealt + 1:] + deck[dealt:dealt + 1]
    assert reshuffled > 0


def test_MM5_a_marriage_is_declared_once_never_spades_and_shows_king_and_queen():
    """Rule MM-5: the declared suit is trump from this decision on; the king and queen shown become known."""
    t = table(["♣2", "♥K ♥Q ♠K ♠Q ♦K ♦Q ♥2", "♣3 ♣4", "♣5"], "♦2 ♦3 ♦4")
    state, p = to_state(t)
    s = state[0]
    assert C.may_declare(s, p, 1) == (1 << DIAMONDS | 1 << HEARTS)
    assert not C.is_legal(s, p, move(declare=3, cards=H("♥2"))[0])  # spades: never
    m = move(declare=HEARTS, cards=H("♥2"))
    assert C.is_legal(s, p, m[0])
    C.apply(s, p, m[0])
    assert (s["trump"], s["declared_turn"]) == (HEARTS, 0) and joined(*s["known"][1]) == H("♥K ♥Q")
    assert C.may_declare(s, p, 2) == 0 and not C.is_legal(s, p, defence_move([], declare=DIAMONDS)[0])


def test_MM9_refill_as_many_as_played_or_to_hand_size():
    """Rule MM-9: ``refill="played"`` draws as many as played (fewer from a short stock); the house rule draws up."""
    for rules, hand, stock, attack in ((RULES, "♥2 ♥3 ♥4 ♣5 ♣6 ♣7 ♣8", "♦4 ♦5 ♦6 ♦7", "♥2 ♥3"),
                                       (RULES, "♥2 ♥3 ♣5", "♦4 ♦5 ♦6 ♦7", "♥2"),
                                       (RULES, "♥2 ♥3 ♥4 ♣5", "♦4 ♦5", "♥2 ♥3 ♥4"),
                                       (HOUSE, "♥2 ♥3 ♥4 ♣5 ♣6 ♣7 ♣8", "♦4", "♥2"),
                                       (HOUSE, "♥2 ♥3 ♣5", "♦4 ♦5 ♦6 ♦7", "♥2")):
        t = table(["♣2", hand, "♦2", "♦3"], stock, rules=rules)
        state, p = to_state(t)
        both(t, state, p, attack=H(attack))
    assert view(state[0])["hands"][1] == H("♥3 ♣5 ♦4 ♦5 ♦6 ♦7")
    t = table(["♣2", "♥2", "♦2", "♦3"], out=[2])
    assert to_state(t)[0][0]["defender"] == 3


def test_MM9_MM13_an_attack_is_one_suit_within_the_cap():
    """Rules MM-9 (one or more cards of one suit, held) and MM-13 (at most the defender's hand, stock empty)."""
    state, p = to_state(table(["♣2", "♥2 ♥3 ♥4 ♣5", "♣6 ♣7", "♣4"]))
    s = state[0]
    assert C.attack_cap(s) == 2
    for cards, legal in (("♥2 ♥3", True), ("♥2 ♥3 ♥4", False), ("♥2 ♣5", False), ("", False), ("♦9", False)):
        assert C.is_legal(s, p, move(cards=H(cards))[0]) == legal
    assert C.attack_cap(to_state(table(["♣2", "♥2", "♣5", "♣4"], "♦7"))[0][0]) == cpol.NO_CAP


def test_MM10_duty_to_beat_every_card_when_possible_free_choice_otherwise():
    """Rule MM-10: bound (an augmenting path is needed here) / not bound / never with ``must_beat="free"``."""
    every = [(c("♥5"), c("♥4")), (c("♦2"), c("♥8"))]
    for rules, partial_legal in ((RULES, False), (HOUSE, True)):
        t = table(["♣2", "♣3", "♥5 ♦2 ♣4", "♣6"], rules=rules, trump=DIAMONDS, on_table="♥4 ♥8")
        state, p = to_state(t)
        assert C.duty_to_beat(state[0], p, DIAMONDS) == (not partial_legal)
        assert C.is_legal(state[0], p, defence_move([(c("♥5"), c("♥4"))])[0]) == partial_legal
        assert C.is_legal(state[0], p, defence_move([])[0]) == partial_legal
        assert not C.is_legal(state[0], p, defence_move([(c("♣4"), c("♥4"))])[0])  # ♣4 beats nothing here
        both(t, state, p, pairs=every)
        assert state[0]["attacker"] == 2
    t = table(["♣2", "♣3", "♥5 ♥9 ♣4", "♣6"], trump=DIAMONDS, on_table="♥4 ♥8 ♥T")
    state, p = to_state(t)
    assert not C.duty_to_beat(state[0], p, DIAMONDS)
    both(t, state, p, pairs=[(c("♥9"), c("♥4"))])
    assert view(state[0])["hands"][2] == H("♥5 ♣4 ♥8 ♥T") and joined(*state[0]["known"][2]) == H("♥8 ♥T")
    t = table(["♣2", "♣3", "♠A ♠K ♣4", "♣6"], on_table="♠Q ♠3")
    state, p = to_state(t)
    assert not C.duty_to_beat(state[0], p, -1)  # nothing beats the Black Maria (MM-2)
    m = np.zeros(1, C.MOVE)
    for key in range(30):  # bound, the random policy beats every card
        t = table(["♣2", "♣3", "♥5 ♦2 ♣4", "♣6"], trump=DIAMONDS, on_table="♥4 ♥8")
        t.key = key
        state, p = to_state(t)
        C.choose(state[0], p, cpol.table(("random",) * 4), m[0], WORK)
        assert joined(*m[0]["beaten"]) == H("♥4 ♥8") and C.is_legal(state[0], p, m[0])


def test_MM11_MM12_discard_pick_up_draw_up_and_the_next_attacker():
    """Rules MM-11 (all beaten: discard, draw up, the defender attacks) and MM-12 (pick up, the next attacks)."""
    t = table(["♣2", "♣3", "♥5 ♥9", "♣4"], "♦7 ♦8 ♦9", on_table="♥4 ♥8")
    state, p = to_state(t)
    both(t, state, p, pairs=[(c("♥5"), c("♥4")), (c("♥9"), c("♥8"))])
    assert state[0]["attacker"] == 2 and state[0]["defender"] == 3
    t = table(["♣2", "♣3", "♥5 ♣6 ♣7 ♣8 ♣9 ♣T", "♣4"], "♦7", on_table="♥4 ♥8 ♥Q")
    state, p = to_state(t)
    both(t, state, p, pairs=[(c("♥5"), c("♥4"))])
    assert state[0]["attacker"] == 3 and view(state[0])["stock"] == [c("♦7")]


def test_MM14_out_in_order_the_last_holder_loses_and_the_record():
    """Rule MM-14: out with no cards once the stock is empty, in order; the loser holds the Black Maria."""
    t = table(["♣2 ♠Q", "♥2", "♥5", "♣4"])
    state, p = to_state(t)
    both(t, state, p, attack=H("♥2"))
    both(t, state, p, pairs=[(c("♥5"), c("♥2"))])
    both(t, state, p, attack=H("♣4"))
    both(t, state, p, pairs=[])
    out = np.zeros(len(C.RECORD), np.int64)
    C.record(state[0], out)
    rec = dict(zip(C.RECORD, out))
    assert state[0]["phase"] == C.OVER and C.to_act(state[0]) == -1
    assert (rec["loser"], rec["black_maria_holder"], rec["truncated"]) == (0, 0, 0)
    assert finish_strings(np.array([rec["finish"]]), 4)[0] == "1,2,3"


def test_MM14_one_deck_unbeatable_the_loser_holds_the_black_maria():
    """Rule MM-14 on compiled games."""
    for players in (2, 3, 4, 5):
        df = cardsim.simulate("musta_maija", players=players, games=2000, seed=9, policy=["random", "greedy"] * 2
                              if players == 4 else "random", engine="compiled")
        done = df[~df.truncated]
        assert len(done) > 1900 and (done.loser == done.black_maria_holder).all() and (done.loser >= 0).all()


def test_MM16_truncation_before_every_decision_even_between_attack_and_defence():
    """Rule MM-16: ``max_turns`` decisions, then truncated (odd limits stop between an attack and its defence)."""
    for limit in (1, 5, 6):
        df = cardsim.simulate("musta_maija", RULES.replace(max_turns=limit), players=4, games=50, seed=0)
        assert df.truncated.all() and (df.turns == limit).all() and (df.loser == -1).all()
        assert (df.rounds == (limit + 1) // 2).all()
    one = RULES.replace(max_turns=1)
    t = table(["♣2", "♥2", "♥5", "♣4 ♣5"], rules=one)  # seat 1 goes out, three still in, then the limit
    state, p = to_state(t)
    both(t, state, p, attack=H("♥2"))
    assert state[0]["phase"] == C.OVER and state[0]["truncated"] and state[0]["loser"] == -1


def test_MM14_MM16_the_limit_reached_with_one_player_left_is_a_finished_game():
    """Rules MM-14, MM-16: the last attack leaves one player in at the limit: not truncated, that player loses
    (the defence never comes; the Black Maria lies on the table)."""
    for engine_rules in (RULES.replace(max_turns=1), RULES.replace(max_turns=1, must_beat="free")):
        t = table(["♣2 ♣3", "♠Q"], rules=engine_rules)
        state, p = to_state(t)
        for _ in ref.play_on(t, ("greedy", "greedy")):
            pass
        C.play_out(state[0], p, cpol.table(("greedy", "greedy")), np.zeros(1, C.MOVE)[0], WORK)
        out = np.zeros(len(C.RECORD), np.int64)
        C.record(state[0], out)
        rec, expected = dict(zip(C.RECORD, out.tolist())), ref.record(t, 0)
        assert (rec["truncated"], rec["loser"], rec["black_maria_holder"], rec["turns"]) == (0, 0, -1, 1)
        assert (expected["truncated"], expected["loser"], expected["black_maria_holder"]) == (False, 0, -1)


@pytest.mark.parametrize("rules", [RULES, HOUSE, RULES.replace(black_maria="highest_trump")])
def test_every_decision_of_a_compiled_game_is_legal_for_the_reference_rules(rules):
    """Rules MM-5, MM-9, MM-10, MM-13 checked by the reference engine on compiled decisions."""
    for game in range(30):
        key = rng.game_key(8, game)
        t = ref.deal(rules, 5, key)
        state, p = to_state(t)
        state[0]["key"] = key
        m = np.zeros(1, C.MOVE)
        codes = cpol.table(("random", "greedy") * 3)
        while C.to_act(state[0]) >= 0:
            C.choose(state[0], p, codes, m[0], WORK)
            if m[0]["declare"] >= 0:
                ref.declare(t, C.to_act(state[0]), int(m[0]["declare"]))
            if t.table:
                beaters, beaten = joined(*m[0]["cards"]), joined(*m[0]["beaten"])
                pairs = policies.beat_with(beaten, beaters, t.trump, rules.black_maria) if beaten else []
                assert mask(b for b, _ in pairs) == beaters and mask(a for _, a in pairs) == beaten
                ref.defend(t, pairs)  # raises on an illegal defence (MM-10, the duty included)
            else:
                ref.attack(t, joined(*m[0]["cards"]))  # raises on an illegal attack (MM-9, MM-13)
            C.apply(state[0], p, m[0])
            assert view(state[0]) == table_view(t)
