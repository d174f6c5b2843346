"""Musta-Maija ``mc(beliefs=reads)`` (reads.py): what greedy's choices with the stock empty say of its hand.

Both engines read alike (the compiled twin equals ``reads.py``; the states' ``barred`` are compared in
test_compiled.py and test_mc.py, and the differential there seats readers), a read uses only what the table
sees, the reads are true of every seat that plays greedy, and a world meets them as far as the cards go.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import jit
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import reads
from cardsim.games.musta_maija.cards import parse
from cardsim.games.musta_maija.policies import parse_policy

from .states import joined, redealt
from .strategies import setups
from .test_compiled import new_game

WORK = C.new_work()[0]
READER = "mc(determinizations=2, beliefs=reads)"


@pytest.mark.parametrize("text, match", [
    ("mc(beliefs=psychic)", "musta_maija policy mc: beliefs='psychic' must be one of uniform, reads"),
    ("mc(search_stock=3)", "musta_maija policy mc has no parameter 'search_stock'; known: determinizations, base, "
                           "beliefs"),
])
def test_the_parameter_is_checked_in_one_line(text, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(")) as err:
        cardsim.simulate("musta_maija", players=3, games=2, policy=text)
    assert "\n" not in str(err.value)


def test_the_table_marks_the_seats_that_read():
    rows = cpol.table(("mc", "mc(beliefs=reads)", "oracle(beliefs=reads)", "greedy"))
    assert rows[:, cpol.READS].tolist() == [0, 1, 0, 0]
    assert cpol.reads_of(rows) and not cpol.reads_of(cpol.table(("mc", "oracle(beliefs=reads)")))
    assert parse_policy("mc") == parse_policy("mc(beliefs=uniform)")


def test_an_endgame_attack_says_where_the_black_maria_is_not_and_what_of_its_suit_is_left():
    """Greedy with the Black Maria attacks with it; otherwise with the ``cap`` lowest of one suit (reads.py)."""
    hearts = parse("♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥T ♥J ♥Q ♥K ♥A")
    copies = hearts | hearts << 52
    maria = parse("♠Q")
    assert reads.attack(parse("♥5 ♥9"), 3) == (copies & ~parse("♥5 ♥9")) | maria  # fewer than 3: no hearts left
    below = parse("♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8")  # the 2 lowest: no heart below ♥9 but the ♥5 played
    assert reads.attack(parse("♥5 ♥9"), 2) == (below & ~parse("♥5")) | below << 52 | maria
    assert reads.attack(parse("♠Q ♠3"), 2) == parse("♠2") | parse("♠2") << 52  # Maria and the lowest other spade
    assert reads.attack(parse("♠Q"), 1) == 0


def test_an_endgame_defence_that_leaves_a_card_says_no_higher_card_of_its_suit_and_no_trump():
    """Greedy beats with its whole hand once the stock is empty: ♥5 left unbeaten says no ♥6..♥A, and (hearts
    not trump) no trump; ♥9 beat with ♥T is not barred; with ``highest_trump`` not the Black Maria either."""
    table, beaten, beaters, trump = parse("♥5 ♥8"), parse("♥8"), parse("♥T"), 1
    above = parse("♥6 ♥7 ♥8 ♥9 ♥T ♥J ♥Q ♥K ♥A")
    trumps = parse("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8 ♦9 ♦T ♦J ♦Q ♦K ♦A")
    want = ((above | above << 52) | (trumps | trumps << 52)) & ~beaters
    assert reads.defence(table, beaten, beaters, trump, "unbeatable") == want
    assert reads.defence(table, beaten, beaters, trump, "highest_trump") == want | parse("♠Q")
    assert reads.defence(table, table, parse("♥T ♥J"), trump, "unbeatable") == 0  # all beaten: nothing read


def play(rules, players, seed, seats, game=0):
    """Yield the compiled state before each decision of a game with ``seats``, the reads kept; the move is
    made after the caller looked."""
    codes = cpol.table(seats)
    state, m, p = new_game(rules, players, seed, game, codes)
    while C.to_act(state[0]) >= 0:
        C.choose(state[0], p, codes, m[0], WORK)
        yield state, p, m
        C.apply(state[0], p, m[0])


@given(setups(max_players=6))
def test_the_reads_are_true_of_every_greedy_seat_and_the_compiled_twin_reads_as_reads_py(setup):
    rules, players, _, seed = setup
    seats = (READER,) + ("greedy",) * (players - 1)
    maria = "highest_trump" if rules.black_maria == "highest_trump" else "unbeatable"
    for state, p, m in play(rules, players, seed, seats):
        s = state[0]
        for q in range(1, players):
            assert joined(*s["barred"][q]) & joined(*s["hands"][q]) == 0, q
        if C.stock_size(s) == 0:
            if s["phase"] == C.ATTACK:
                want = reads.attack(joined(*m[0]["cards"]), C.hand_size(s, s["defender"]))
            else:
                trump = int(m[0]["declare"]) if m[0]["declare"] >= 0 else int(s["trump"])
                want = reads.defence(joined(*s["table"]), joined(*m[0]["beaten"]), joined(*m[0]["cards"]), trump, maria)
            assert joined(*C.read(s, p, m[0])) == want


def test_reads_are_read_in_most_games():
    """Not vacuous: greedy seats' endgame choices bar cards."""
    games = 0
    for game in range(20):
        read = False
        for state, _, _ in play(cardsim.rules("musta_maija"), 4, 3, (READER,) + ("greedy",) * 3, game):
            read |= bool(state[0]["barred"][1:].any())
        games += read
    assert games >= 15


def endgame(rules, players, seed, seats, stop, game=0):
    """The first state (with its params and the decision made in it) at or after decision ``stop`` with the
    stock empty and something read, or None."""
    for i, (state, p, m) in enumerate(play(rules, players, seed, seats, game)):
        if i >= stop and C.stock_size(state[0]) == 0 and state[0]["barred"].any():
            return state, p, m
    return None


@given(setups(mc=True), st.integers(0, 60), st.integers(0, 2**64 - 1))
def test_a_read_depends_only_on_what_the_table_sees(setup, stop, key):
    """The read of a decision, with what another seat cannot see dealt again (the decider's own hand too): the
    same."""
    rules, players, policy, seed = setup
    seats = cardsim.games.spec("musta_maija").seat_policies(policy, players)
    found = endgame(rules, players, seed, (READER,) + tuple(seats[1:]), stop)
    if found:
        state, p, m = found
        observer = (int(state[0]["seat"]) + 1) % players
        other = redealt(state, observer, key)
        assert joined(*C.read(state[0], p, m[0])) == joined(*C.read(other[0], p, m[0]))


def hidden_of(s, seat) -> int:
    n = C.hidden_cards(s, seat, WORK)
    return n, sum(joined(*C.card_words(int(c))) for c in WORK["hidden"][:n])


@pytest.mark.parametrize("game", range(6))
def test_a_world_meets_the_reads_as_far_as_the_cards_go(game):
    """Seat by seat, a world gives a hand a barred card only when fewer unbarred hidden cards are left than it
    needs (with no reads the worlds are the uniform ones: test_mc.py). Checked where another seat's reads bar
    hidden cards."""
    for state, p, _ in play(cardsim.rules("musta_maija"), 4, 9, (READER,) * 4, game):
        s, seat = state[0], int(state[0]["seat"])
        n, hidden = hidden_of(s, seat)
        if any(joined(*s["barred"][q]) & hidden for q in range(4) if q != seat):
            break
    else:
        pytest.fail("no decision where another seat's reads bar hidden cards")
    for j in range(32):
        world = state.copy()
        C.determinize(world[0], seat, np.uint64(jit.world_key(s["key"], s["turns"], j)), n, WORK)
        dealt = 0
        for q in range(4):
            if q == seat:
                continue
            mine = joined(*world[0]["hands"][q]) & ~joined(*s["known"][q])
            bar = joined(*s["barred"][q])
            free = hidden & ~dealt & ~bar
            need = bin(mine).count("1")
            assert bin(mine & bar).count("1") == max(0, need - bin(free).count("1")), q
            dealt |= mine
