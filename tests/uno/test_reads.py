"""What the table reads from a seat's choices (``reference.State.barred``), for ``mc``'s worlds: a draw for the
turn bars the legal kinds (U-7), a played card bars what greedy would have played first, reads age with the
hand (cards played, swaps, shuffles, deals), both engines read alike, worlds deal what was read, and ``mc``
uses it. The compiled reads equal the reference's after every decision: ``test_compiled``."""
import numpy as np
import pytest

from cardsim.games.uno import compiled as C
from cardsim.games.uno import policies as pol
from cardsim.games.uno import reference as ref
from cardsim.games.uno.cards import COLOURS, GREEDY_WILDS, K, LEGAL, WD4, counts_of, names, parse
from cardsim.games.uno.reference import Fixed
from cardsim.games.uno.rules import UnoRules

from .test_mc import position, search


def bits(kinds_barred) -> int:
    """A read's mask (bit ``k``: kind ``k``) from one flag per kind."""
    return sum(1 << k for k, barred in enumerate(kinds_barred) if barred)


def kinds(mask) -> str:
    """The kinds of a mask (bits) or of one flag per kind, by name."""
    flags = [mask >> k & 1 for k in range(K)] if isinstance(mask, int) else [int(b) for b in mask]
    return names(flags)


def layers(s, holder):
    """``holder``'s reads, newest first: (kinds barred, cards)."""
    return [(kinds(mask), cards) for mask, cards in s.barred[holder]]


def greedy_order_passes_over(colour, top, kind):
    """The kinds greedy plays before ``kind``, from its order in words (``policies.py``): a higher symbol of the
    current colour before a lower; any card of the current colour before another colour's; a number or symbol
    match before a wild; the wilds in ``GREEDY_WILDS`` order. A Wild Draw Four may be a bluff: nothing."""
    if kind == WD4:
        return 0
    if kind < 52 and kind // 13 == colour:
        return bits(kind < k < colour * 13 + 13 for k in range(K))
    passed = [colour * 13 <= k < colour * 13 + 13 for k in range(K)]
    if kind >= 52:
        for k in range(K):
            passed[k] |= top < 52 and k < 52 and k % 13 == top % 13
        for k in GREEDY_WILDS[:GREEDY_WILDS.index(kind)]:
            passed[k] = True
    return bits(passed)


def test_greedy_passes_over_follows_greedys_order_in_words():
    """The table both engines read (``policies.GREEDY_PASSES_OVER``, from greedy's scores) says what greedy's
    order in words says, for every legal (colour, top, kind)."""
    for colour in range(4):
        for top in range(K):
            for kind in np.flatnonzero(LEGAL[colour, top]):
                assert pol.greedy_passes_over(colour, top, kind) == greedy_order_passes_over(colour, top, kind), \
                    (colour, top, kind)


def test_greedy_would_have_played_every_kind_it_passes_over():
    """Holding ``kind`` and one kind it passes over, greedy never plays ``kind``; a Wild Draw Four bars nothing
    (it may be a bluff, U-13); the current colour's highest symbol, and a wild on a wild top, bar only kinds
    that rank above them."""
    for colour in range(4):
        for top in range(K):
            legal = [bool(b) for b in LEGAL[colour, top]]
            for kind in np.flatnonzero(legal):
                passed = pol.greedy_passes_over(colour, top, kind)
                for other in [k for k in range(K) if passed >> k & 1]:
                    hand = counts_of(names([int(k == kind or k == other) for k in range(K)]))
                    assert pol.greedy_card(hand, legal, colour, top) == other
    assert pol.greedy_passes_over(0, parse("R3"), WD4) == 0
    assert kinds(pol.greedy_passes_over(0, parse("R3"), parse("R9"))) == "RS RR R+2"
    assert kinds(pol.greedy_passes_over(0, parse("R3"), parse("G3"))) == \
        "R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RS RR R+2"
    assert kinds(pol.greedy_passes_over(0, parse("R3"), parse("W"))) == \
        "R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RS RR R+2 Y3 G3 B3 W+4"
    assert GREEDY_WILDS[0] == WD4


def test_U7_a_draw_for_the_turn_reads_that_nothing_kept_could_be_played():
    """Rule U-7 of docs/rules/uno.md, every policy here playing when it can: P1 draws on R3 and keeps an
    unplayable B9; all three of its cards are none of the legal kinds (red, the 3s, the wilds)."""
    s = position(4, ["R1", "G5 B7", "Y1", "Y2"], "R3", current=1, key=3)
    s.pile = [parse("B9")] + s.pile
    ref.normal_turn(s, pol.parse_policy("greedy"))
    assert layers(s, 1) == [(kinds(LEGAL[0, parse("R3")]), 3)]
    assert all(not layers(s, q) for q in (0, 2, 3))


def test_U7_a_playable_drawn_card_is_played_and_the_cards_kept_are_read():
    s = position(4, ["R1", "G5 B7", "Y1", "Y2"], "R3", current=1, key=3)
    s.pile = [parse("R8")] + s.pile
    ref.normal_turn(s, pol.parse_policy("greedy"))
    assert s.top == parse("R8") and layers(s, 1) == [(kinds(LEGAL[0, parse("R3")]), 2)]


def test_a_play_reads_what_greedy_would_have_played_first_and_reads_age_with_the_hand():
    """P1 plays R9 on R3: its other cards hold no red Skip, Reverse or Draw Two. Then it draws on G5 and keeps
    Y4: the old cards hold no green, 5 or wild either (the older layer bars both), the kept Y4 only the new
    kinds. A card played that a layer does not bar may have been one of its cards: that layer counts one less."""
    s = position(4, ["R1", "R9 G2 B4", "G5", "Y1"], "R3", current=1, key=3)
    ref.normal_turn(s, pol.parse_policy("greedy"))
    assert layers(s, 1) == [("RS RR R+2", 2)]
    s.current, s.top, s.colour = 1, parse("G6"), COLOURS.index("G")
    s.hands[1], s.held[1] = counts_of("B4 Y9"), 2  # G2 was played unseen by this test
    s.pile = [parse("Y4")] + s.pile
    ref.normal_turn(s, pol.parse_policy("greedy"))
    drew_on_g6 = kinds(LEGAL[2, parse("G6")])
    older = kinds(pol.greedy_passes_over(0, parse("R3"), parse("R9")) | bits(LEGAL[2, parse("G6")]))
    assert layers(s, 1) == [(drew_on_g6, 3), (older, 2)]
    ref.leaves_hand(s, 1, parse("Y4"))  # barred by neither layer: either may have lost it
    assert [cards for _, cards in layers(s, 1)] == [2, 1]
    ref.leaves_hand(s, 1, parse("G9"))  # green is barred by both: it came after them
    assert [cards for _, cards in layers(s, 1)] == [2, 1]


def test_reads_keep_the_newest_layers_and_an_empty_read_tells_nothing():
    s = position(2, ["R1", "G2"], "R3")
    for k in range(ref.READ_LAYERS + 2):
        ref.read(s, 1, 1 << k, 10 + k)
    assert [cards for _, cards in layers(s, 1)] == [15, 14, 13, 12]
    assert kinds(s.barred[1][-1][0]) == names([int(2 <= j <= 5) for j in range(K)])
    ref.read(s, 1, 0, 99)
    assert len(s.barred[1]) == ref.READ_LAYERS and s.barred[1][0][1] == 15


def test_U15_U16_reads_follow_a_swapped_hand_and_a_shuffle_forgets_them():
    """Rules U-15 and U-16 of docs/rules/uno.md."""
    rules = UnoRules(deck="2018", custom_wild="swap_hands")
    s = position(3, ["CW R5", "G1 G2", "B1 B2"], "R3", rules=rules)
    ref.read(s, 1, bits(k < 13 for k in range(K)), 2)
    s.current = 0
    ref.play_card(s, parse("CW"), Fixed(colour="Y", target=1))
    assert layers(s, 0) == [("R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RS RR R+2", 2)] and not layers(s, 1)
    s = position(3, ["SH R5", "G1 G2", "B1 B2"], "R3", rules=rules)
    ref.read(s, 1, bits(k < 13 for k in range(K)), 2)
    s.current = 0
    ref.play_card(s, parse("SH"), Fixed(colour="Y"))
    assert not any(s.barred)


@pytest.mark.parametrize("key", range(40))
def test_worlds_deal_every_read_hand_what_was_read(key):
    """P0's view: P1's three cards are none of red or the wilds (an older read: two of them none of blue
    either); P2 was shown one card, its other card is no green. Every world meets the reads."""
    r = position(3, ["R1 R2 Y5", "G3 Y7 Y8", "B4 B6"], "R9", current=0, key=11)
    r.turns = r.hand_turns = 4
    red_or_wild = [k < 13 or k >= 52 for k in range(K)]
    ref.read(r, 1, bits(13 * 3 <= k < 13 * 4 for k in range(K)), 2)
    ref.read(r, 1, bits(red_or_wild), 3)
    ref.read(r, 2, bits(26 <= k < 39 for k in range(K)), 2)
    r.shown[2][0] = counts_of("B4")
    state, work = C.state_from(r, C.CARD), C.new_work(r.rules)
    s, w = state[0], work[0]
    C.hidden_cards(s, w)
    world = np.zeros(1, C.STATE)
    world[0] = s
    C.determinize(world[0], np.uint64(key * 7919 + 1), w)
    hand = lambda q: world[0]["hands"][q]  # noqa: E731
    assert names(hand(0)) == "R1 R2 Y5" and [hand(q).sum() for q in (1, 2)] == [3, 2]
    assert not any(hand(1)[k] for k in range(K) if red_or_wild[k])
    assert sum(hand(1)[k] for k in range(K) if 39 <= k < 52) <= 1
    assert hand(2)[parse("B4")] >= 1 and not hand(2)[26:39].any()
    in_play = hand(0) + hand(1) + hand(2) + np.bincount(world[0]["pile"][world[0]["ptr"]:world[0]["end"]], minlength=K)
    assert (in_play + s["discard"] + np.eye(K, dtype=int)[s["top"]] == w["copies"]).all()


@pytest.mark.parametrize("key", [17, 3, 5])
def test_mc_switches_to_the_colour_the_next_hand_was_read_not_to_hold(key):
    """P1, one card left, drew on red: its card is no red (nor a 4 or a wild). P0 may play R9 or B9 on G9:
    greedy switches to blue (three blues held); with the read mc plays red, which P1 cannot answer, in every
    search. Without it the worlds give P1 red as often as blue (game 17: mc keeps greedy's blue)."""
    r = position(2, ["R9 B9 B2 B5 Y6", "Y3"], "G9", colour="G", current=0, key=key)
    r.turns = r.hand_turns = 12
    choice, options = search(r, C.CARD)
    assert options[0] == parse("B9") and (key != 17 or choice == parse("B9"))
    ref.read(r, 1, bits(LEGAL[0, parse("R4")]), 1)
    assert search(r, C.CARD)[0] == parse("R9")
