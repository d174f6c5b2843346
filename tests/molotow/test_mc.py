"""The ``mc`` policy (docs/design.md#the-mc-policy; specified in policies.py): its parameters, legal cards only, a forced card without
play-outs, worlds that keep the seat's view (hand sizes, ``ruled_out``) and change only what it cannot see,
the information-set test, replays, and compiled = reference on mc games."""
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardsim
from cardsim.core import rng
from cardsim.core.cards import cards_of
from cardsim.core.search import MonteCarlo
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow import reference, seating
from cardsim.games.molotow.policies import parse_policy
from cardsim.games.molotow.rules import MolotowRules

from .states import played_to
from .strategies import rules_and_players
from .test_differential import mismatches

ALL = (1 << 36) - 1
HIDDEN_FIELDS = {"held", "key", "policy_draws", "draws", "tops", "ranks"}
"""What a world may change: the other hands, the key standing in for the game's (and its policy draws), the
deal's scratch."""
RULES = [("molotow", 4), ("swiss", 4), ("molotow(undertrump='allowed')", 4), ("mittlere", 3)]


def world_of(state, seat: int, j: int):
    """World ``j`` of ``state`` as ``seat`` sees it (a new 1-element state)."""
    out = C.new_state()
    C.copy_state(out, state)
    key = rng.world_key(int(state[0]["key"]), int(state[0]["turn"]), j)
    C.determinize(out[0], seat, np.uint64(key), C.new_work()[0])
    return out


def check_world(state, world, seat: int) -> None:
    """The world keeps ``seat``'s view and deals exactly the cards it cannot see, none to a seat that showed
    it does not hold it."""
    s, w = state[0], world[0]
    for name in C.STATE.names:
        if name not in HIDDEN_FIELDS:
            assert np.array_equal(s[name], w[name]), name
    n = int(s["players"])
    hidden = ALL & ~int(s["held"][seat]) & ~int(s["played"])
    dealt = 0
    for q in range(C.SEATS):
        held = int(w["held"][q])
        assert bin(held).count("1") == bin(int(s["held"][q])).count("1")        # every hand keeps its size
        if q == seat or q >= n:
            assert held == int(s["held"][q])
            continue
        assert held & int(s["ruled_out"][q]) == 0                               # MJ-7, MJ-10, MJ-11 shown
        assert held & dealt == 0
        dealt |= held
    assert dealt == hidden
    assert w["policy_draws"].tolist() == [rng.draw(int(w["key"]), rng.Stream.POLICY, t, 0)
                                          for t in range(36 * int(s["hand_no"]), 36 * int(s["hand_no"]) + 36)]


def decisions_of(rules: str, players: int, policy, games: int, step: int):
    """Copies of the states of compiled games at every ``step``-th decision: (state, params, table)."""
    r = cardsim.rules("molotow", rules)
    seats = (policy,) * players if isinstance(policy, str) else tuple(policy)
    for game in range(games):
        state, params, table = played_to(r, players, 41, game, seats, 0)
        work = C.new_work()
        decision = 0
        while not C.game_over(state[0], params):
            if decision % step == game % step:
                yield state.copy(), params, table
            C.apply(state[0], params, C.choose(state[0], params, table, work[0]))
            decision += 1


# ----------------------------------------------------------------------------- parameters

def test_mc_parameters_defaults_and_one_line_errors():
    assert parse_policy("mc") == parse_policy("mc()") == parse_policy("mc(determinizations=32, base=greedy)") \
        == ("mc", MonteCarlo(32, "greedy"))
    assert parse_policy("mc(base='random', determinizations=1)")[1] == MonteCarlo(1, "random")
    table = C.policy_table(("mc(determinizations=7, base=random)", "greedy", "random", "mc", "oracle"))
    assert table[:, :4].tolist() == [[C.SEARCH, 7, C.RANDOM, 0], [C.GREEDY, 0, 0, 0], [C.RANDOM, 0, 0, 0],
                              [C.SEARCH, 32, C.GREEDY, 0], [C.SEARCH, 32, C.GREEDY, 1]]
    for text, message in (("mc(depth=3)", "molotow policy mc has no parameter 'depth'"),
                          ("mc(determinizations=0)", "determinizations=0 must be an integer from 1 to 1024"),
                          ("mc(determinizations=1025)", "determinizations=1025 must be"),
                          ("mc(base=mc)", "base='mc' must be one of random, greedy"),
                          ("greedy(depth=1)", "molotow policy 'greedy' takes no parameters")):
        for engine in ("compiled", "reference"):
            with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
                cardsim.simulate("molotow", games=1, policy=["greedy", text, "greedy", "greedy"], engine=engine)
            assert "\n" not in str(err.value)


# ----------------------------------------------------------------------------- decisions

@given(rules_and_players(max_hands=2), st.integers(0, 2**64 - 1), st.integers(0, 10**6),
       st.sampled_from(["mc(determinizations=3)", "mc(determinizations=2, base=random)"]))
def test_mc_plays_only_legal_cards(rp, seed, game, policy):
    rules, players = rp
    params, table, work = C.make_params(rules, players), C.policy_table((policy,) * players), C.new_work()
    state = C.new_state()
    s = state[0]
    C.new_game(s, params, np.uint64(rng.game_key(seed, game)))
    while not C.game_over(s, params):
        legal = int(C.legal_cards(s, params))
        card = C.choose(s, params, table, work[0])
        assert legal >> card & 1
        C.apply(s, params, card)


def test_a_single_legal_card_is_played_without_a_play_out():
    """m == 1: no world is dealt and nothing is played out (the scratch keeps its pattern but the first
    candidate), both for a last card and for a hand that must follow with its only card of the led suit."""
    table = C.policy_table(("mc(determinizations=1024)",) * 4)
    forced = {"last card": 0, "must follow": 0}
    for state, params, _ in decisions_of("molotow", 4, "greedy", games=2, step=1):
        s = state[0]
        if bin(int(C.legal_cards(s, params))).count("1") != 1:
            continue
        kind = "last card" if bin(int(s["held"][C.to_act(s)])).count("1") == 1 else "must follow"
        forced[kind] += 1
        work = np.frombuffer(bytes([0xA5]) * C.WORK.itemsize, dtype=C.WORK).copy()
        card = C.choose(s, params, table, work[0])
        assert card == int(C.legal_cards(s, params)).bit_length() - 1
        assert work[0]["candidates"][0] == card
        for name in ("totals", "room", "slack"):
            assert set(work[0][name].tobytes()) == {0xA5}, name
        for name in C.STATE.names:
            assert set(work[0]["worlds"][name].tobytes()) == {0xA5}, name
    assert min(forced.values()) > 0


# ----------------------------------------------------------------------------- worlds

@pytest.mark.parametrize("rules, players", RULES)
def test_every_world_keeps_the_view_and_respects_ruled_out(rules, players):
    """Rules MJ-7, MJ-10 and MJ-11 of docs/rules/molotow.md: no world gives a seat a card its plays showed it
    does not hold."""
    constrained = 0
    policy = ["random", "greedy", "mc(determinizations=2)", "greedy"][:players]
    for state, params, _ in decisions_of(rules, players, policy, games=2, step=5):
        s = state[0]
        seat = C.to_act(s)
        hidden = ALL & ~int(s["held"][seat]) & ~int(s["played"])
        constrained += any(int(s["ruled_out"][q]) & hidden for q in range(players) if q != seat)
        for j in range(6):
            check_world(state, world_of(state, seat, j), seat)
    assert constrained > 20


@st.composite
def views(draw):
    """A consistent view, however constrained: hands of any sizes, the rest played, each other seat ruled out
    of a random part of the cards it does not hold (all of them at density 1: then one deal is left)."""
    players = draw(st.sampled_from([3, 4]))
    order = draw(st.permutations(range(36)))
    seat = draw(st.integers(0, players - 1))
    density = draw(st.sampled_from([0.0, 0.2, 0.6, 0.9, 1.0]))
    r = draw(st.randoms(use_true_random=False))
    state = C.new_state()
    s = state[0]
    s["players"], s["key"], s["hand_no"] = players, draw(st.integers(0, 2**64 - 1)), draw(st.integers(0, 11))
    s["turn"] = 36 * s["hand_no"] + draw(st.integers(0, 35))
    start = 0
    for q in range(players):
        size = draw(st.integers(0, 36 // players))
        s["held"][q] = sum(1 << c for c in order[start:start + size])
        start += size
    s["played"] = sum(1 << c for c in order[start:])
    for q in range(players):
        if q != seat:
            s["ruled_out"][q] = sum(1 << c for c in cards_of(ALL & ~int(s["held"][q])) if r.random() < density)
    return state, seat, density


@given(views(), st.integers(0, 1023))
def test_a_world_is_dealt_for_any_consistent_view(view, j):
    """The constrained deal never fails: a consistent view always gets a world that keeps it (Hall's theorem),
    and when every seat is ruled out of all it does not hold, the world is the true deal."""
    state, seat, density = view
    world = world_of(state, seat, j)
    check_world(state, world, seat)
    if density == 1.0:
        assert world[0]["held"].tolist() == state[0]["held"].tolist()


def test_worlds_without_ruled_out_cards_are_uniform_deals():
    """With nothing ruled out, each hidden card goes to each other seat as often as that seat's share of the
    hidden cards (a uniform deal); 3,000 worlds, every count within 5 standard deviations."""
    state, params, _ = played_to(MolotowRules(), 4, 3, 8, ("greedy",) * 4, 2)
    s = state[0]
    seat = C.to_act(s)
    assert not s["ruled_out"].any() and s["trick_len"] == 2
    sizes = {q: bin(int(s["held"][q])).count("1") for q in range(4) if q != seat}
    hidden = sum(sizes.values())
    counts = {(c, q): 0 for c in cards_of(ALL & ~int(s["held"][seat]) & ~int(s["played"])) for q in sizes}
    worlds = 3000
    for j in range(worlds):
        w = world_of(state, seat, j)[0]
        for q in sizes:
            for c in cards_of(int(w["held"][q])):
                counts[c, q] += 1
    for (c, q), k in counts.items():
        p = sizes[q] / hidden
        assert abs(k - worlds * p) < 5 * np.sqrt(worlds * p * (1 - p)), (c, q, k)


def rehide(state, seat: int, r: random.Random):
    """The same view with other hidden cards: cards swapped between two other seats wherever neither seat's
    plays showed it does not hold the card it gets; and what else the seat cannot see scrambled: the hand's
    deal (the deal's scratch) and the game's policy draws to come."""
    other = C.new_state()
    C.copy_state(other, state)
    s = other[0]
    for name in ("draws", "tops", "ranks", "policy_draws"):
        s[name] = [r.randrange(2**31) for _ in range(len(s[name]))]
    others = [q for q in range(int(s["players"])) if q != seat]
    for _ in range(300):
        a, b = r.sample(others, 2)
        ha, hb = list(cards_of(int(s["held"][a]))), list(cards_of(int(s["held"][b])))
        if ha and hb:
            x, y = r.choice(ha), r.choice(hb)
            if not int(s["ruled_out"][b]) >> x & 1 and not int(s["ruled_out"][a]) >> y & 1:
                s["held"][a] = int(s["held"][a]) ^ (1 << x) | 1 << y
                s["held"][b] = int(s["held"][b]) ^ (1 << y) | 1 << x
    return other


@pytest.mark.parametrize("rules, players", RULES)
@pytest.mark.parametrize("policy", ["mc(determinizations=4)", "mc(determinizations=3, base=random)"])
def test_information_set_mc_decides_alike_when_only_hidden_cards_differ(rules, players, policy):
    """Two states with the same view (the seat's hand, the cards played and who took them, the trick, trump,
    hand sizes, ruled_out) and other hidden cards give the same worlds and the same mc card."""
    r = random.Random(5)
    changed = 0
    for state, params, table in decisions_of(rules, players, policy, games=1, step=4):
        s = state[0]
        seat = C.to_act(s)
        other = rehide(state, seat, r)
        changed += other[0]["held"].tolist() != s["held"].tolist()
        for j in range(3):
            assert world_of(other, seat, j)[0]["held"].tolist() == world_of(state, seat, j)[0]["held"].tolist()
        assert C.choose(other[0], params, table, C.new_work()[0]) == C.choose(s, params, table, C.new_work()[0])
    assert changed > 60


# ----------------------------------------------------------------------------- both engines

GAME_SO_FAR = {"sticks", "potatoes", "hands_trumpless", "hands_100", "hands_157", "hands_tie3", "last_points",
               "last_sticks", "last_potatoes", "last_trump", "last_trump_trick", "last_setter"}
DEAL_SCRATCH = {"draws", "tops", "ranks"}
TRICK = {"trick_cards", "led", "best", "best_seat"}
"""What the last trick leaves in a compiled state until the next card is led (nothing reads it then)."""


def test_reference_positions_are_the_compiled_states(monkeypatch):
    """``state_from`` of the reference engine's position at each mc decision equals the compiled engine's state
    in every field of the hand in play (``ruled_out`` on every card the seat might hold; the trick's fields
    while one is on the table)."""
    rules, seats = cardsim.rules("molotow", "swiss"), ("random", "mc(determinizations=2)", "greedy", "random")
    found = []
    searched = reference.searched

    def spy(search, rules, policy, key, turn, hand, trick, trick_no):
        found.append((turn, C.state_from(key, turn, hand, trick, trick_no)))
        return searched(search, rules, policy, key, turn, hand, trick, trick_no)

    monkeypatch.setattr(reference, "searched", spy)
    seating.play_game(rules, 4, 8, 3, seats)
    assert len(found) == 12 * 9
    for turn, ref in found:
        state, _, _ = played_to(rules, 4, 8, 3, seats, turn)
        s, t = state[0], ref[0]
        n = int(s["trick_len"])
        assert s["trick"][:n].tolist() == t["trick"][:n].tolist()
        for name in C.STATE.names:
            if name not in GAME_SO_FAR | DEAL_SCRATCH | {"ruled_out", "trick"} | (TRICK if n == 0 else set()):
                assert np.array_equal(s[name], t[name]), name
        for q in range(4):
            might = ALL & ~int(s["played"]) & ~int(s["held"][q])
            assert int(s["ruled_out"][q]) & might == int(t["ruled_out"][q]) & might


MC_CONFIGS = [
    ("molotow", 4, ["mc", "greedy", "greedy", "greedy"]),
    ("swiss", 4, ["greedy", "mc(determinizations=8, base=random)", "random", "mc(determinizations=4)"]),
    ("mittlere", 3, ["random", "greedy", "mc(determinizations=16)"]),
]


@pytest.mark.parametrize("rules, players, policy", MC_CONFIGS)
def test_compiled_equals_reference_on_mc_games(rules, players, policy):
    assert mismatches(rules, players, policy, games=70, seed=13) == 0


@pytest.mark.slow
def test_compiled_equals_reference_on_mc_games_slow(scaled):
    games = scaled(2_000)
    each = -(-games // len(MC_CONFIGS))
    bad = [mismatches(r, n, p, games=each, seed=2027, first_game=i * each) for i, (r, n, p) in enumerate(MC_CONFIGS)]
    print(f"molotow mc differential: {each * len(MC_CONFIGS)} games, mismatches per config {bad}")
    assert sum(bad) == 0


def test_mc_replays_equal_batch_rows():
    seats = ["greedy", "mc(determinizations=6)", "random", "mc(determinizations=5, base=random)"]
    df = cardsim.simulate("molotow", "swiss", players=4, games=6, seed=2**64 - 1, policy=seats, first_game=90)
    for i, row in df.iterrows():
        record = cardsim.replay("molotow", "swiss", players=4, seed=2**64 - 1, game=90 + i, policy=seats).record
        assert {k: int(v) for k, v in record.items()} == {k: int(v) for k, v in row.items()}
