"""The policies' scalar and compiled twins choose the same move from the same position, and a
defender bound by MM-10's duty to beat beats every card."""
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import policies
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija.cards import BLACK_MARIA, SPADES, card_list, cards, mask, suit, suit_cards

M52 = (1 << 52) - 1
POLICY = st.sampled_from(policies.POLICIES)
TRUMP = st.sampled_from([-1, 0, 1, 2])
BLACK = st.sampled_from(["unbeatable", "highest_trump"])


def words(hand: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(hand & M52), np.uint64(hand >> 52)


def joined(lo: np.uint64, hi: np.uint64) -> int:
    return int(lo) | int(hi) << 52


@st.composite
def hands(draw, min_size=1):
    """A hand from the 103-card game (two decks less one ♠Q)."""
    return mask(draw(st.lists(st.sampled_from(card_list(8)), min_size=min_size, max_size=14, unique=True)))


@st.composite
def positions(draw):
    """A defender's hand and a one-suit attack from the other cards."""
    hand = draw(hands())
    s = draw(st.integers(0, 3))
    rest = [c for c in card_list(8) if suit(c) == s and not hand >> c & 1]
    table = mask(draw(st.lists(st.sampled_from(rest), min_size=1, max_size=6, unique=True)))
    return hand, table


KEY = st.integers(0, 2**64 - 1)
TURN = st.integers(0, 10_000)


@given(POLICY, hands(), st.lists(st.sampled_from([0, 1, 2]), unique=True), KEY, TURN)
def test_declaration_twins_agree(policy, hand, options, key, turn):
    options = sorted(options)
    bits = sum(1 << s for s in options)
    got = cpol.declaration(cpol.CODES[policy], *words(hand), bits, np.uint64(key), turn)
    assert got == policies.declaration(policy, hand, options, key, turn)


@given(hands())
def test_marriage_options_twin_agrees(hand):
    """MM-5: king and queen of a suit other than spades, either copy."""
    t = ref.Table(ref.MustaMaijaRules(), 8, 0, [0, hand], [])
    assert cpol.marriage_options(*words(hand)) == sum(1 << s for s in ref.marriages(t, 1))


@given(POLICY, hands(), TRUMP, st.one_of(st.none(), st.integers(1, 8)), KEY, TURN)
def test_attack_twins_agree(policy, hand, trump, cap, key, turn):
    move = policies.attack(policy, hand, trump, cap, key, turn)
    chosen = cards(move)
    assert chosen and move & ~hand == 0 and len({suit(c) for c in chosen}) == 1
    got = cpol.attack(cpol.CODES[policy], *words(hand), trump, cpol.NO_CAP if cap is None else cap, np.uint64(key),
                      turn)
    assert joined(*got) == move


@given(POLICY, positions(), TRUMP, BLACK, st.booleans(), st.booleans(), KEY, TURN)
def test_defence_twins_agree(policy, position, trump, black_maria, endgame, duty, key, turn):
    hand, table = position
    must = duty and ref.can_beat_all(hand, table, trump, black_maria)
    pairs = policies.defence(policy, hand, table, trump, black_maria, endgame, must, key, turn)
    beaters, beaten = mask(b for b, _ in pairs), mask(a for _, a in pairs)
    got = cpol.defence(cpol.CODES[policy], *words(hand), *words(table), trump, black_maria == "highest_trump",
                       endgame, must, np.uint64(key), turn)
    assert joined(*got[:2]) == beaters and joined(*got[2:]) == beaten


@given(POLICY, positions(), TRUMP, BLACK, st.booleans(), KEY, TURN)
def test_MM10_a_policy_bound_by_the_duty_beats_every_card_and_greedy_is_never_changed_by_it(
        policy, position, trump, black_maria, endgame, key, turn):
    """Rule MM-10: under the duty (a complete assignment exists) both policies beat every card;
    greedy already does whenever it can; random keeps its own choice when that beats all."""
    hand, table = position
    table = mask(a for _, a in policies.beat_with(table, hand, trump, black_maria))  # what can all be beaten
    assume(table)
    assert ref.can_beat_all(hand, table, trump, black_maria)
    free = policies.defence(policy, hand, table, trump, black_maria, endgame, False, key, turn)
    bound = policies.defence(policy, hand, table, trump, black_maria, endgame, True, key, turn)
    assert ref.is_legal_defence(hand, table, bound, trump, black_maria, must=True)
    assert bound == free or (policy == "random" and bound == policies.beat_with(table, hand, trump, black_maria))


@given(positions(), TRUMP, BLACK)
def test_beat_with_the_whole_hand_beats_every_card_exactly_when_a_complete_assignment_exists(
        position, trump, black_maria):
    """Rule MM-10: the sweep of ``beat_with`` is a largest assignment (the policies' fall-back under the duty)."""
    hand, table = position
    complete = len(policies.beat_with(table, hand, trump, black_maria)) == len(cards(table))
    assert complete == ref.can_beat_all(hand, table, trump, black_maria)
    beaten = cpol.beat_with(*words(table), *words(hand), trump, black_maria == "highest_trump")[2:]
    assert (joined(*beaten) == table) == complete


@given(positions(), TRUMP, BLACK)
def test_beats_any_is_whether_beat_with_beats_a_card(position, trump, black_maria):
    """``beats_any`` (``learned``'s defence of one candidate: the hand beats nothing) answers without assigning
    beaters what ``beat_with`` answers by assigning them."""
    hand, table = position
    maria_trump = black_maria == "highest_trump"
    beaten = cpol.beat_with(*words(table), *words(hand), trump, maria_trump)[2:]
    assert cpol.beats_any(*words(table), *words(hand), trump, maria_trump) == (joined(*beaten) != 0)


@given(positions(), TRUMP)
def test_beat_with_never_beats_the_black_maria_and_uses_it_only_as_highest_trump(position, trump):
    hand, table = position
    for black_maria in ("unbeatable", "highest_trump"):
        with_maria = suit_cards(table, SPADES) and not hand >> BLACK_MARIA & 1
        pairs = policies.beat_with(table | with_maria << BLACK_MARIA, hand, trump, black_maria)
        assert all(a != BLACK_MARIA for _, a in pairs)
        assert black_maria == "highest_trump" or all(b != BLACK_MARIA for b, _ in pairs)
