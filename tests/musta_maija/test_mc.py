"""The ``mc`` policy (docs/design.md#the-mc-policy; specified in policies.py, searched in compiled.py): its candidates,
its worlds (dealt from the deciding seat's view only), its choice (the best total of the
play-outs, ties to greedy's), its parameters, and the same decisions on both engines."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cardsim
from cardsim.core import rng
from cardsim.core.records import frame
from cardsim.games import spec
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija import seating
from cardsim.games.musta_maija.cards import card_list, mask, parse, suit, suit_cards
from cardsim.games.musta_maija.policies import parse_policy

from .states import joined, redealt, to_state
from .strategies import setups
from .test_compiled import new_game
from .test_rule_scenarios import HEARTS, RULES, table

GAME = spec("musta_maija")
WORK = C.new_work()[0]


def position(setup, stop: int):
    """The compiled state after ``stop`` decisions of a game of ``setup`` (search-free seats), or before the
    decision that ends it if it ends sooner (so that a seat is to act: short ``max_turns`` end most games
    within ``stop``, and filtering those out tripped Hypothesis's health check), and params."""
    rules, players, policy, seed = setup
    codes = cpol.table(GAME.seat_policies(policy, players))
    state, m, p = new_game(rules, players, seed, 2, codes)
    for _ in range(stop):
        if C.to_act(state[0]) < 0:
            break
        before = state.copy()
        C.choose(state[0], p, codes, m[0], WORK)
        C.apply(state[0], p, m[0])
        if C.to_act(state[0]) < 0:
            return before, p
    return state, p


def decide(state: np.ndarray, p: np.void, policy: str) -> np.ndarray:
    """The decision of the seat to act by ``policy`` (a fresh WORK record)."""
    m = np.zeros(1, C.MOVE)
    C.choose(state[0], p, cpol.table((policy,) * int(state[0]["players"])), m[0], C.new_work()[0])
    return m


def candidate_list(state: np.ndarray, p: np.void) -> list[tuple]:
    n = C.candidates(state[0], p, WORK)
    return [(int(c["declare"]), joined(*c["cards"]), joined(*c["beaten"])) for c in WORK["candidates"][:n]]


@given(setups(), st.integers(0, 60), st.integers(0, 2**64 - 1),
       st.sampled_from(["mc(determinizations=4)", "mc(determinizations=3, base=random)"]))
def test_the_information_set_mc_decides_alike_on_states_with_the_same_view(setup, stop, shuffle_key, policy):
    """The information-set test of docs/design.md#the-mc-policy: a state whose hidden cards (the other hands' unknown cards, the
    stock's order, the deck's history) are dealt again gives ``mc`` the same worlds and the same decision."""
    state, p = position(setup, stop)
    seat = C.to_act(state[0])
    assume(seat >= 0)
    other = redealt(state, seat, shuffle_key)
    assert decide(state, p, policy).tobytes() == decide(other, p, policy).tobytes()
    n, w2 = C.hidden_cards(state[0], seat, WORK), C.new_work()[0]
    assert C.hidden_cards(other[0], seat, w2) == n and (WORK["hidden"][:n] == w2["hidden"][:n]).all()
    for j in range(3):
        key = np.uint64(rng.world_key(int(state[0]["key"]), int(state[0]["turns"]), j))
        worlds = state.copy(), other.copy()
        C.determinize(worlds[0][0], seat, key, n, WORK)
        C.determinize(worlds[1][0], seat, key, n, w2)
        a, b = worlds[0][0], worlds[1][0]
        top = int(a["top"])
        assert (a["hands"] == b["hands"]).all() and (a["deck"][top:] == b["deck"][top:]).all()


@given(setups(), st.integers(0, 80), st.integers(0, 7))
def test_a_world_keeps_everything_the_seat_can_see(setup, stop, j):
    """A world (docs/design.md#the-mc-policy, step 2): the seat's own hand, the table, the discard, every hand's size and known
    cards (picked up, a marriage's king and queen, the turned card drawn), the stock's size and the
    turned card at its bottom stay; the hidden cards are dealt again, every card in one place; its key is
    the world key, ``rng.world_key(key, turns, j)``."""
    state, p = position(setup, stop)
    s = state[0]
    seat = C.to_act(s)
    assume(seat >= 0)
    players = int(s["players"])
    n = C.hidden_cards(s, seat, WORK)
    hidden = [int(c) for c in WORK["hidden"][:n]]
    unknown = [c for q in range(players) if q != seat
               for c in ref.cards(joined(*s["hands"][q]) & ~joined(*s["known"][q]))]
    stock = [int(c) for c in s["deck"][s["top"]:s["n_cards"]]]
    turned_under = s["turned"] >= 0 and len(stock) > 0
    assert sorted(hidden) == hidden == sorted(unknown + (stock[:-1] if turned_under else stock))
    key = rng.world_key(int(s["key"]), int(s["turns"]), j)
    world = state.copy()
    C.determinize(world[0], seat, np.uint64(key), n, WORK)
    w = world[0]
    assert int(w["key"]) == key
    for q in range(players):
        assert C.hand_size(w, q) == C.hand_size(s, q)
        assert joined(*w["known"][q]) == joined(*s["known"][q])
        assert joined(*w["known"][q]) & ~joined(*w["hands"][q]) == 0
    assert joined(*w["hands"][seat]) == joined(*s["hands"][seat])
    for field in ("table", "discard", "top", "turned", "trump", "seat", "phase", "turns", "out"):
        assert (w[field] == s[field]).all()
    if turned_under:
        assert w["deck"][s["n_cards"] - 1] == s["turned"]
    held = [joined(*w["hands"][q]) for q in range(players)]
    parts = held + [mask(int(c) for c in w["deck"][w["top"]:w["n_cards"]]), joined(*w["table"]), joined(*w["discard"])]
    assert sum(parts) == mask(card_list(players))
    dealt = [c for q in range(players) if q != seat for c in ref.cards(held[q] & ~joined(*w["known"][q]))]
    dealt += [int(c) for c in w["deck"][w["top"]:w["n_cards"] - (1 if turned_under else 0)]]
    assert sorted(dealt) == hidden


def test_worlds_differ_from_one_another_and_from_the_real_deal():
    state, p = position((RULES, 4, "greedy", 5), 6)
    seat, s = C.to_act(state[0]), state[0]
    n = C.hidden_cards(s, seat, WORK)
    others = set()
    for j in range(20):
        world = state.copy()
        C.determinize(world[0], seat, np.uint64(rng.world_key(int(s["key"]), int(s["turns"]), j)), n, WORK)
        others.add(tuple(joined(*world[0]["hands"][q]) for q in range(4)))
    assert len(others) == 20 and tuple(joined(*s["hands"][q]) for q in range(4)) not in others


@given(setups(), st.integers(0, 80))
def test_the_candidates_are_legal_distinct_and_greedys_decision_comes_first(setup, stop):
    """docs/design.md#the-mc-policy step 1 and policies.py's candidate sets: greedy's decision first, no duplicates, every one
    legal (MM-5, MM-9, MM-10 with the duty to beat, MM-13); an attack offers every card alone (one of
    two equal copies) and the whole of every suit held (its ``cap`` lowest in the endgame); a defence
    offers beating what the whole hand can, and beating nothing unless bound to beat every card; every
    suit it may declare is offered."""
    state, p = position(setup, stop)
    s = state[0]
    seat = C.to_act(s)
    assume(seat >= 0)
    cands = candidate_list(state, p)
    assert len(cands) == len(set(cands)) <= C.MAX_CANDIDATES
    greedy = decide(state, p, "greedy")[0]
    assert cands[0] == (int(greedy["declare"]), joined(*greedy["cards"]), joined(*greedy["beaten"]))
    for d, cards, beaten in cands:
        assert C.is_legal(s, p, to_move(d, cards, beaten)[0])
    hand = joined(*s["hands"][seat])
    declared = {d for d, _, _ in cands}
    options = C.may_declare(s, p, seat)
    assert declared == ({-1} if options == 0 else {-1} | {x for x in range(4) if options >> x & 1})
    for d in declared:
        mine = [(cards, beaten) for dd, cards, beaten in cands if dd == d]
        if s["phase"] == C.ATTACK:
            cap = C.attack_cap(s)
            for c in ref.cards(hand):
                assert (1 << c, 0) in mine or (c >= 52 and (1 << (c - 52), 0) in mine)
            for x in {suit(c) for c in ref.cards(hand)}:
                whole = ref.cards(suit_cards(hand, x))
                assert (mask(whole if cap == cpol.NO_CAP else whole[:cap]), 0) in mine
        else:
            trump = d if d >= 0 else int(s["trump"])
            must = C.duty_to_beat(s, p, trump)
            assert ((0, 0) in mine) == (not must)
            assert all(beaten == joined(*s["table"]) for _, beaten in mine) or not must


def to_move(declare: int, cards: int, beaten: int) -> np.ndarray:
    m = np.zeros(1, C.MOVE)
    m[0]["declare"], m[0]["cards"], m[0]["beaten"] = declare, C.words(cards), C.words(beaten)
    return m


def test_MM10_under_the_duty_every_defence_candidate_beats_every_card():
    """Rule MM-10 (``must_beat="all_if_possible"``): bound, mc chooses only among complete defences (all
    hearts, or the low heart and the low trump, keeping the king); free (``"free"``), beating with the
    low cards only and beating nothing are offered too."""
    hand = "♥9 ♥K ♦2 ♦A ♣3"
    full, trumps_too = (-1, parse("♥9 ♥K"), parse("♥4 ♥8")), (-1, parse("♥9 ♦2"), parse("♥4 ♥8"))
    for rules, bound in ((RULES, True), (RULES.replace(must_beat="free"), False)):
        t = table(["♣2", "♣4", hand, "♣6"], trump=1, on_table="♥4 ♥8", rules=rules)
        state, p = to_state(t)
        cands = candidate_list(state, p)
        low_only, nothing = (-1, parse("♥9"), parse("♥4")), (-1, 0, 0)
        assert cands == ([full, trumps_too] if bound else [full, low_only, trumps_too, nothing])


def test_MM5_mc_weighs_declaring_each_marriage_against_not_declaring():
    """Rule MM-5: with two marriages in hand and no trump yet, the candidates declare hearts, diamonds or
    nothing; greedy's choice (the suit with more cards) first."""
    t = table(["♣2", "♥K ♥Q ♥3 ♦K ♦Q ♣9", "♣3 ♣4", "♣5"], "♦2 ♦3 ♦4")
    state, p = to_state(t)
    cands = candidate_list(state, p)
    assert cands[0][0] == HEARTS and {d for d, _, _ in cands} == {HEARTS, 1, -1}
    assert cands.index((-1, parse("♣9"), 0)) < cands.index((1, parse("♣9"), 0))


def test_one_candidate_is_taken_without_a_play_out():
    """docs/design.md#the-mc-policy step 1: with one candidate (one card to attack with; nothing the defender can beat) mc
    takes it, greedy's decision, and plays nothing out: its world scratch is untouched."""
    for t in (table(["♣2", "♥2", "♥5 ♣7", "♣4"], "♦7 ♦8"),
              table(["♣2", "♣3", "♣5 ♣7", "♣4"], "♦7 ♦8", on_table="♥4 ♥8")):
        state, p = to_state(t)
        w = C.new_work()[0]
        w["worlds"] = np.frombuffer(b"\xab" * w["worlds"].nbytes, dtype=w["worlds"].dtype).reshape(2)
        before = w["worlds"].tobytes()
        m = np.zeros(1, C.MOVE)
        C.choose(state[0], p, cpol.table(("mc",) * 4), m[0], w)
        assert C.candidates(state[0], p, C.new_work()[0]) == 1 and w["worlds"].tobytes() == before
        assert m.tobytes() == decide(state, p, "greedy").tobytes()


@given(setups(max_players=6), st.integers(0, 60), st.sampled_from(["random", "greedy"]), st.integers(1, 4))
def test_mc_takes_the_candidate_with_the_most_play_outs_not_lost_ties_to_the_first(setup, stop, base, worlds):
    """docs/design.md#the-mc-policy steps 2-4 recomputed here: in world ``j`` (key ``rng.world_key(key, turns, j)``) every
    candidate is applied to a copy and played out with ``base`` in every seat; 1 when the seat does not
    lose (a truncated play-out too); the largest total, ties to the lowest index."""
    state, p = position(setup, stop)
    s = state[0]
    seat = C.to_act(s)
    assume(seat >= 0)
    policy = f"mc(determinizations={worlds}, base={base})"
    n = C.candidates(s, p, WORK)
    cands = WORK["candidates"][:n].copy()
    scores = [0] * n
    h = C.hidden_cards(s, seat, WORK)
    for j in range(worlds):
        world = state.copy()
        C.determinize(world[0], seat, np.uint64(rng.world_key(int(s["key"]), int(s["turns"]), j)), h, WORK)
        for i in range(n):
            trial = world.copy()
            C.apply(trial[0], p, cands[i])
            C.roll_out(trial[0], p, cpol.table((policy,))[0], seat, np.zeros(1, C.MOVE)[0], WORK)
            scores[i] += int(trial[0]["loser"] != seat)
    assert decide(state, p, policy).tobytes() == cands[scores.index(max(scores))].tobytes()


@pytest.mark.parametrize("text, message", [
    ("mc(depth=3)", "musta_maija policy mc has no parameter 'depth'; known: determinizations, base"),
    ("mc(determinizations=0)", "musta_maija policy mc: determinizations=0 must be an integer from 1 to 1024"),
    ("mc(determinizations=2000)", "determinizations=2000 must be an integer from 1 to 1024"),
    ("mc(base=mc)", "base='mc' must be one of random, greedy"),
    ("greedy(determinizations=2)", "musta_maija policy 'greedy' takes no parameters"),
])
def test_mc_parameters_are_checked_on_both_engines_in_one_line(text, message):
    for engine in ("compiled", "reference"):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
            cardsim.simulate("musta_maija", players=3, games=2, policy=[text, "greedy", "greedy"], engine=engine)
        assert "\n" not in str(err.value)


def test_mc_alone_means_the_defaults():
    assert parse_policy("mc") == parse_policy("mc()") == parse_policy("mc(determinizations=32, base=greedy)")
    assert (cpol.table(("mc", "mc(base=random, determinizations=5)", "oracle"))[:, :4] == [[cpol.MC, 32, cpol.GREEDY, 0],
                                                                                    [cpol.MC, 5, cpol.RANDOM, 0],
                                                                                    [cpol.MC, 32, cpol.GREEDY, 1]]).all()
    runs = [cardsim.simulate("musta_maija", players=3, games=5, seed=4, policy=[text, "greedy", "random"])
            for text in ("mc", "mc()", "mc(base=greedy, determinizations=32)")]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    pd.testing.assert_frame_equal(runs[0], runs[2])


def test_state_from_a_reference_table_is_the_compiled_state_at_every_decision():
    """``compiled.state_from`` (the reference engine's ``mc`` searches on it) equals the compiled engine's
    own state before each decision, the history part of the deck (``deck[:top]``) aside."""
    for preset, players, seats in (("turned", 4, ("mc(determinizations=2)", "greedy", "random", "greedy")),
                                   ("musta_maija", 6, ("random", "greedy") * 3),
                                   ("black_trump", 3, ("greedy", "mc(determinizations=2, beliefs=reads)", "greedy"))):
        rules = cardsim.rules("musta_maija", preset)
        codes = cpol.table(seats)
        state, m, p = new_game(rules, players, 3, 0, codes)
        decisions = 0
        for t in seating.play_states(rules, players, 3, 0, seats):
            if decisions:
                C.choose(state[0], p, codes, m[0], WORK)
                C.apply(state[0], p, m[0])
            if C.to_act(state[0]) < 0:
                break
            mine, theirs = state.copy(), C.state_from(t)
            top = int(mine[0]["top"])
            mine[0]["deck"][:top] = theirs[0]["deck"][:top] = 0
            assert mine.tobytes() == theirs.tobytes()
            decisions += 1
        assert decisions > 30


def differential(cases: list[tuple[str, int, tuple[str, ...]]], games: int, seed: int) -> int:
    """Compiled vs reference records (and replays) of mc games; how many games differ."""
    mismatches = 0
    for i, (preset, players, seats) in enumerate(cases):
        rules = GAME.rules.preset(preset)
        ids = np.arange(games, dtype=np.int64) + 100 * i
        v = frame(GAME.compiled(rules, players, seed, ids, seats), GAME.columns)
        r = frame([GAME.play(rules, players, seed, int(g), seats).record for g in ids], GAME.columns)
        mismatches += int((v != r).any(axis=1).sum())
    return mismatches


MIXES = [
    ("musta_maija", 4, ("mc(determinizations=4)", "greedy", "greedy", "greedy")),
    ("house", 3, ("random", "mc(determinizations=3, base=random)", "greedy")),
    ("turned", 6, ("greedy", "random", "mc(determinizations=2)", "greedy", "random", "greedy")),
    ("black_trump", 2, ("mc(determinizations=4)", "random")),
    ("diamonds", 5, ("greedy", "greedy", "greedy", "random", "mc(determinizations=2, base=random)")),
    ("five_cards", 8, ("greedy",) * 7 + ("mc(determinizations=2)",)),
    ("musta_maija", 3, ("greedy", "mc(determinizations=3, beliefs=reads)", "greedy")),
    ("black_trump", 4, ("mc(determinizations=2, beliefs=reads)", "random", "greedy", "greedy")),
    ("turned", 7, ("greedy",) * 5 + ("mc(determinizations=2, beliefs=reads)", "random")),
]


def test_compiled_equals_reference_on_mc_games():
    """docs/design.md#the-mc-policy: the engines agree: 240 games, one mc seat among greedy and random seats, every preset, 2-8 players;
    and the default ``mc`` on a few 4-player games; ``cardsim.replay`` gives the batch row."""
    assert differential(MIXES, games=40, seed=21) == 0
    assert differential([("musta_maija", 4, ("greedy", "mc", "random", "greedy"))], games=5, seed=22) == 0
    seats = ["greedy", "mc", "random", "greedy"]
    row = cardsim.simulate("musta_maija", players=4, seed=22, games=1, first_game=3, policy=seats).iloc[0]
    assert cardsim.replay("musta_maija", players=4, seed=22, game=3, policy=seats).record == row.to_dict()


@pytest.mark.slow
def test_compiled_equals_reference_on_mc_games_slow(scaled):
    games = -(-scaled(3000) // len(MIXES))
    mismatches = differential(MIXES, games=games, seed=23)
    print(f"musta_maija mc differential: {games * len(MIXES)} games, {mismatches} mismatches")
    assert mismatches == 0


def test_mc_self_play_and_the_black_maria():
    """Whole ``mc`` self-play games end with one loser holding the Black Maria (MM-14, one deck,
    ``unbeatable``), on both engines alike."""
    df = cardsim.simulate("musta_maija", players=3, games=6, seed=8, policy="mc(determinizations=3)")
    assert (df.loser >= 0).all() and (df.loser == df.black_maria_holder).all()
    ref_df = cardsim.simulate("musta_maija", players=3, games=6, seed=8, policy="mc(determinizations=3)",
                              engine="reference")
    pd.testing.assert_frame_equal(df, ref_df)
