"""The ``mc`` policy (docs/design.md#the-mc-policy; ``policies.py`` says it in words): its parameters, its candidates, worlds
dealt from the deciding player's view only, legal choices, no search with one candidate, choices that
use what it was shown (U-14), replays equal batch rows, and compiled = reference on mc games."""
import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cardsim
from cardsim.core.search import MonteCarlo
from cardsim.games.uno import GAME
from cardsim.games.uno import compiled as C
from cardsim.games.uno import reference as ref
from cardsim.games.uno.cards import K, copies, counts_of, name, parse
from cardsim.games.uno.policies import DEFAULTS, parse_policy
from cardsim.games.uno.rules import UnoRules

from .test_compiled import redeal_hidden, start
from .test_properties import tables

MC_POLICIES = ("mc(determinizations=3)", "mc(determinizations=2, base=random)", "mc(determinizations=5)")


@st.composite
def mc_tables(draw, max_players=6):
    """``tables()`` with one or more seats playing ``mc`` (few worlds, both bases)."""
    rules, players, policy = draw(tables(max_players=max_players))
    seats = list(GAME.seat_policies(policy, players))
    for p in draw(st.sets(st.integers(0, players - 1), min_size=1)):
        seats[p] = draw(st.sampled_from(MC_POLICIES))
    return rules, players, seats


# ---------------------------------------------------------------- parameters

def test_mc_parameters_defaults_and_policy_rows():
    assert "mc" in GAME.policies
    default = parse_policy("mc")
    assert default == parse_policy("mc()") == parse_policy(" mc(determinizations=32, base=greedy) ") == \
        parse_policy("mc(base='greedy')")
    assert default.mc and default.search == MonteCarlo(32, "greedy")
    assert parse_policy("mc(determinizations=7, base=random)").search == MonteCarlo(7, "random")
    rows = C.policy_of(("mc(determinizations=7, base=random)", "greedy(bluff=0.5)", "mc"))
    assert rows[:, [C.CODE, C.DETERMINIZATIONS, C.BASE]].tolist() == [[C.MC, 7, 0], [C.GREEDY, 0, 0], [C.MC, 32, 1]]
    assert rows[1, C.BLUFF_CUT] == 2**52
    assert C.DEFAULT_CUTS.tolist() == [[int(d["bluff"] * 2**53), int(d["challenge"] * 2**53)]
                                       for d in (DEFAULTS["random"], DEFAULTS["greedy"], DEFAULTS["learned"])]


@pytest.mark.parametrize("text, message", [
    ("mc(determinizations=0)", "uno policy mc: determinizations=0 must be an integer from 1 to 1024"),
    ("mc(determinizations=1025)", "determinizations=1025 must be an integer from 1 to 1024"),
    ("mc(determinizations=8.0)", "determinizations=8.0 must be an integer"),
    ("mc(base=mc)", "uno policy mc: base='mc' must be one of random, greedy"),
    ("mc(base=smart)", "base='smart' must be one of random, greedy"),
    ("mc(bluff=0.1)", "uno policy mc has no parameter 'bluff'; known: determinizations, base"),
])
def test_bad_mc_strings_raise_one_clear_line(text, message):
    with pytest.raises(ValueError) as err:
        parse_policy(text)
    assert message in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="uno policy mc"):
        cardsim.simulate("uno", players=2, games=1, policy=["greedy", text])


# ---------------------------------------------------------------- candidates, worlds, legality

def assert_world_is_consistent(world, s, w):
    """A world keeps the player's own hand, every size, the discard pile and what the player was shown;
    every card of the deck is somewhere, once."""
    p, players = s["current"], s["players"]
    assert world["hands"][p].tolist() == s["hands"][p].tolist()
    assert world["hands"][:players].sum(axis=1).tolist() == s["size"][:players].tolist() == \
        world["size"][:players].tolist()
    assert world["end"] - world["ptr"] == s["end"] - s["ptr"]
    assert world["discard"].tolist() == s["discard"].tolist() and world["top"] == s["top"]
    for q in range(players):
        if q != p:
            assert (world["hands"][q] >= s["shown"][q, p]).all()
    held = world["hands"][:players].sum(axis=0) + world["discard"]
    held += np.bincount(world["pile"][world["ptr"]:world["end"]], minlength=K)
    held[world["top"]] += 1
    assert held.tolist() == w["copies"].tolist()
    assert not world["shown"].any() and world["hand_only"]


def view_twin(state, gen):
    """A copy of ``state`` that differs from it only in what its player to act cannot see: the other hands
    beyond what it was shown, the draw pile's order, whether a Wild Draw Four waiting for its challenge was
    a bluff (U-13)."""
    twin = state.copy()
    redeal_hidden(twin[0], state[0]["current"], gen)
    if twin[0]["challenge_open"]:
        twin[0]["wd4_bluffed"] = not twin[0]["wd4_bluffed"]
    return twin


@given(mc_tables(), st.integers(0, 2**64 - 1), st.integers(0, 10**6))
def test_mc_chooses_legally_from_its_view_only(table, seed, game):
    """At every ``mc`` choice: the candidates are greedy's choice then other legal options, each once; the
    choice is legal; ``s`` is left alone; and a state that differs only in cards hidden from the player gives
    the same worlds and the same choice (the information-set test of docs/design.md#the-mc-policy)."""
    rules, players, seats = table
    _, state, params, policy, work = start(rules, players, seed, game, seats)
    s, legal, gen = state[0], np.zeros(K + 1, dtype=np.int64), np.random.default_rng(game)
    greedy = np.zeros((C.MAX_PLAYERS, len(C.POLICY_COLUMNS)), dtype=np.int64)
    C.fill_table(greedy, players, C.GREEDY)
    searched = 0
    while s["phase"] != C.OVER:
        if policy[s["current"], C.CODE] == C.MC:
            searched += 1
            legal_now = legal[:C.legal_decisions(s, legal)].tolist()
            m = C.candidates(s, 0, work, work["options"])
            options = work["options"][:m].tolist()
            assert options[0] == C.choose(s, greedy) and len(set(options)) == m and set(options) <= set(legal_now)
            before = state.tobytes()
            choice = C.search(s, params, policy, work)
            assert choice in options and state.tobytes() == before
            twin = view_twin(state, gen)
            assert C.search(twin[0], params, policy, work) == choice
            worlds = []
            for position in (state, twin):
                work["worlds"][0] = position[0]
                C.hidden_cards(position[0], work)
                C.determinize(work["worlds"][0], np.uint64(game), work)
                assert_world_is_consistent(work["worlds"][0], position[0], work)
                worlds.append(work["worlds"][0].copy())
            for field in ("hands", "size", "ptr", "end", "wd4_bluffed", "key", "tkey"):
                assert np.array_equal(worlds[0][field], worlds[1][field]), field
            assert np.array_equal(worlds[0]["pile"][worlds[0]["ptr"]:worlds[0]["end"]],
                                  worlds[1]["pile"][worlds[1]["ptr"]:worlds[1]["end"]])
        else:
            choice = C.choose(s, policy)
        C.apply(s, choice, params, work)
    assume(searched > 0 or s["turns"] <= players)  # an mc seat skipped all through a short game tests nothing


@given(tables(), st.integers(0, 2**64 - 1), st.integers(0, 10**6), st.sampled_from([0, 1, 2, 4, 7]))
def test_candidates_are_greedys_choice_then_the_legal_options_worth_searching(table, seed, game, forbid):
    """At every choice of a game (any rules, players and seats), ``candidates`` (with ``card_candidates``, which
    looks only at the kinds a named colour lets be legal, U-6 and U-12) lists what policies.py defines, in ``legal_decisions``'
    order: greedy's choice, then every other legal option that ``worth_searching`` keeps and ``forbid`` allows."""
    rules, players, policy_text = table
    _, state, params, policy, work = start(rules, players, seed, game, policy_text)
    s, legal = state[0], np.zeros(K + 1, dtype=np.int64)
    greedy = np.zeros((C.MAX_PLAYERS, len(C.POLICY_COLUMNS)), dtype=np.int64)
    while s["phase"] != C.OVER:
        p = s["current"]
        C.fill_table(greedy, players, C.GREEDY)
        greedy[p, C.FORBID] = forbid
        first = C.choose(s, greedy)
        defined = [first] + [o for o in legal[:C.legal_decisions(s, legal)].tolist()
                             if o != first and C.worth_searching(s, p, o, first) and not C.forbidden(s, p, o, forbid)]
        m = C.candidates(s, forbid, work, work["options"])
        assert work["options"][:m].tolist() == defined
        C.apply(s, C.choose(s, policy), params, work)


def position(players, hands, top, *, rules=UnoRules(), **kw):
    """A complete hand-made reference position: the cards not in a hand nor on top make the draw pile."""
    rest = [c - n for c, n in zip(copies(rules.deck), np.sum([counts_of(h) for h in hands], axis=0))]
    rest[parse(top)] -= 1
    pile = " ".join(name(k) for k in range(K) for _ in range(rest[k]))
    return ref.make_state(players, hands, top, pile=pile, rules=rules, **kw)


def test_one_candidate_is_taken_without_a_play_out():
    """No legal card: drawing is the only candidate (U-7); a wild named while no coloured card is held:
    greedy's colour alone. The worlds, the scores and the draws of a search are not touched."""
    policy = C.policy_of(("mc", "mc"))
    for r, choice, expected in ((position(2, ["R1 G2", "B4 Y7"], "R3", current=1), C.CARD, C.DRAW),
                                (position(2, ["R1 G2", "W W"], "W", colour="G", current=1), C.COLOUR, 0)):
        r.turns = 5
        state, work = C.state_from(r, choice), C.new_work(r.rules)
        assert C.candidates(state[0], 0, work[0], work[0]["options"]) == 1
        work[0]["score"][:] = -1
        assert C.search(state[0], C.params_of(r.rules), policy, work[0]) == expected
        assert not work[0]["worlds"].tobytes().strip(b"\0") and (work[0]["score"] == -1).all()


def test_candidates_per_choice():
    """policies.py: no drawing while a card can be played, no wild unless greedy plays one, one number of a
    colour (the highest playable), the colours held; a challenge and a stack search every option."""
    work = C.new_work(UnoRules())[0]

    def options(r, choice):
        r.turns = 3
        s = C.state_from(r, choice)[0]
        return [name(k) if k >= 0 else "draw" for k in work["options"][:C.candidates(s, 0, work, work["options"])].tolist()]

    assert options(position(3, ["R1", "R2 R7 R9 RS G3 B3 W", "Y1"], "R3"), C.CARD) == ["RS", "R9", "G3", "B3"]
    assert options(position(3, ["R1", "G2 W W+4 B5", "Y1"], "R3"), C.CARD) == ["W+4", "W"]  # stuck: wilds
    assert options(position(3, ["R1", "G2 G4 B5", "Y1"], "W", colour="R"), C.COLOUR) == ["R2", "R3"]  # G, B
    challenge = position(3, ["R1 W+4", "G2", "Y1"], "W+4", colour="B")
    challenge.challenge_open, challenge.wd4_player, challenge.wd4_colour = True, 0, 0
    assert sorted(options(challenge, C.CHALLENGE)) == ["R0", "R1"]  # 0 and 1
    stack = position(3, ["R1", "G+2 B+2 B1", "Y1"], "R+2", rules=UnoRules(stack_draw_two=True))
    stack.pending_draw = 2
    assert options(stack, C.STACK) == ["B+2", "G+2", "draw"]


# ---------------------------------------------------------------- choices that use what it saw

def search(r, choice, determinizations=32):
    state, work = C.state_from(r, choice), C.new_work(r.rules)
    policy = C.policy_of((f"mc(determinizations={determinizations})",) * r.players)
    m = C.candidates(state[0], 0, work[0], work[0]["options"])
    return C.search(state[0], C.params_of(r.rules), policy, work[0]), work[0]["options"][:m].tolist()


def test_U14_mc_names_the_colour_a_hand_it_was_shown_cannot_answer():
    """Rule U-14 of docs/rules/uno.md: a challenge showed P1's hand, B3 alone, to P0. P0 names the colour
    of its wild: greedy names blue (two blues held), which lets P1 go out; mc names red."""
    r = position(2, ["B7 B8 R1", "B3"], "W", colour="G", current=0, key=21)
    r.turns, r.hand_turns = 9, 9
    r.shown[1][0] = counts_of("B3")
    choice, options = search(r, C.COLOUR)
    assert options[0] == 3 and choice == 0


@pytest.mark.parametrize("shown, expected", [("R1 R2 G5", 1), ("G1 G2 G5", 0)])
def test_U14_mc_challenges_a_wild_draw_four_it_knows_to_be_a_bluff(shown, expected):
    """Rule U-14 of docs/rules/uno.md: P1 was shown P0's whole hand. Played on red while holding red, the
    Wild Draw Four is a bluff in every world and mc challenges it; without red in that hand it does not."""
    r = position(2, [shown, "B4 B5 Y7 Y8"], "W+4", colour="B", current=1, key=5)
    r.turns, r.hand_turns = 7, 7
    r.challenge_open, r.wd4_player, r.wd4_colour, r.wd4_bluffed = True, 0, 0, expected == 1
    r.shown[0][1] = counts_of(shown)
    assert search(r, C.CHALLENGE)[0] == expected


# ---------------------------------------------------------------- replay and engines

def test_mc_replays_equal_batch_rows():
    r = cardsim.rules("uno", "stacking(target_score=100)")
    policy = ["mc(determinizations=6)", "greedy", "random(bluff=0.3)"]
    df = cardsim.simulate("uno", r, players=3, games=4, seed=3, policy=policy)
    for game in (0, 3):
        assert cardsim.replay("uno", r, players=3, seed=3, game=game, policy=policy).record == \
            df.iloc[game].to_dict()


VARIANTS = ("official", "stacking", "deck_2018(custom_wild='swap_hands')",
            "deck_2018(custom_wild='everyone_draws_one', draw_rule='until_playable')",
            "official(wd4_challenge=False, target_score=150)")
SEATS = (["mc(determinizations=4)", "greedy", "random"], ["greedy", "mc(determinizations=3, base=random)"],
         ["random(bluff=0.4, challenge=1)", "greedy(bluff=0.5)", "mc(determinizations=5)", "mc(determinizations=2)"])


@pytest.mark.parametrize("rules, players", list(itertools.product(VARIANTS, (2, 3, 5))))
def test_compiled_equals_reference_on_mc_games(rules, players):
    """300 games with mc seats among greedy and random ones (and 15 of default mc): the same records."""
    for i, seats in enumerate(SEATS):
        policy = (seats * players)[:players]
        kw = dict(players=players, games=6, seed=40 + i, policy=policy, first_game=100 * i)
        pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                      cardsim.simulate("uno", rules, engine="reference", **kw))
    kw = dict(players=players, games=1, seed=9, policy=["mc"] + ["greedy"] * (players - 1))
    pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                  cardsim.simulate("uno", rules, engine="reference", **kw))


@given(mc_tables(), st.integers(0, 2**64 - 1), st.integers(0, 10**9))
def test_compiled_equals_reference_with_mc_seats_on_random_tables(table, seed, first_game):
    rules, players, seats = table
    kw = dict(players=players, games=3, seed=seed, policy=seats, first_game=first_game)
    pd.testing.assert_frame_equal(cardsim.simulate("uno", rules, engine="compiled", **kw),
                                  cardsim.simulate("uno", rules, engine="reference", **kw))


@pytest.mark.slow
def test_compiled_equals_reference_on_mc_games_slow(scaled):
    games = scaled(2000)
    cells = list(itertools.product(VARIANTS, (2, 4, 6), SEATS))
    per_cell = -(-games // len(cells))
    mismatches = 0
    for i, (rules, players, seats) in enumerate(cells):
        kw = dict(players=players, games=per_cell, seed=77, policy=(seats * players)[:players],
                  first_game=i * per_cell)
        com = cardsim.simulate("uno", rules, engine="compiled", **kw)
        mismatches += int((com != cardsim.simulate("uno", rules, engine="reference", **kw)).any(axis=1).sum())
    print(f"uno mc differential: {len(cells) * per_cell} games, {mismatches} mismatches")
    assert len(cells) * per_cell >= games and mismatches == 0

