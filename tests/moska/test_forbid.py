"""Moska's ``forbid=`` options (issue 27, restricted play; ``policies.FORBID``): a seat forbidden an optional
action (M-6 ``swap``, M-14 ``self_attack``, M-11 ``continuation``) never takes it, the other seats are
unaffected, both engines play it alike for every policy, a decision still depends on the seat's view only,
and a bad option is one line."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardsim
from cardsim.core.records import frame
from cardsim.games.moska import GAME, compiled, reference
from cardsim.games.moska.policies import FORBID, parse_policy
from cardsim.games.moska.reference import ranks_of
from cardsim.games.moska.rules import OPTIONS, MoskaRules

from .states import Game, assert_same_decision, hidden_cards_dealt_again
from .strategies import MC, ORACLE, setups

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")
FORBIDS = st.lists(st.sampled_from(list(OPTIONS)), min_size=1, max_size=3, unique=True).map("+".join)
LEARNED = "learned(model=moska_4p_g1)"


def with_forbid(policy: str, forbid: str) -> str:
    return f"{policy[:-1]}, forbid={forbid})" if policy.endswith(")") else f"{policy}(forbid={forbid})"


def records(engine, rules, players, seed, games, seats) -> pd.DataFrame:
    if engine == "reference":
        return frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    return frame(compiled.simulate(rules, players, seed, np.asarray(games), seats), GAME.columns)


@st.composite
def forbid_setups(draw, searching: bool = False, unfair: bool = True):
    """``setups`` with one to all seats forbidden some options (``searching``: one of them ``mc``, ``learned``
    or, if ``unfair``, ``oracle``)."""
    rules, players, seats, seed, game = draw(setups())
    seats = list(seats)
    chosen = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True))
    if searching:
        seats[chosen[0]] = draw(st.one_of(MC, st.just(LEARNED), *([ORACLE] if unfair else [])))
    for seat in chosen:
        seats[seat] = with_forbid(seats[seat], draw(FORBIDS))
    return rules, players, tuple(seats), seed, game


# --- options and bad input --------------------------------------------------------------------

def test_the_options_are_the_spec_s_and_cite_their_rules():
    assert GAME.options is OPTIONS and set(OPTIONS) == {"swap", "self_attack", "continuation"}
    for name, rule in (("swap", "M-6"), ("self_attack", "M-14"), ("continuation", "M-11")):
        assert OPTIONS[name].startswith(rule)
    assert set(FORBID) == set(OPTIONS) and len(set(FORBID.values())) == 3


@pytest.mark.parametrize("text, match", [
    ("greedy(forbid=steal)", r"moska policy greedy: forbid='steal' is no option of moska; known: swap, "
                             r"self_attack, continuation"),
    ("random(forbid=swap+peek)", r"moska policy random: forbid='peek' is no option of moska"),
    ("mc(forbid=3)", r"moska policy mc: forbid=3 is no option of moska"),
    (f"{LEARNED[:-1]}, forbid=Swap)", r"moska policy learned: forbid='Swap' is no option of moska"),
    ("mc(base=greedy(forbid=swap))", r"moska policy mc: base=.greedy\(forbid=.swap.\). takes no forbid"),
])
def test_a_bad_forbid_is_one_line_naming_the_policy_the_option_and_the_known_ones(text, match):
    with pytest.raises(ValueError, match=match) as e:
        parse_policy(text)
    assert "\n" not in str(e.value)


def test_an_unknown_option_on_the_command_line_is_one_line_and_exit_2(tmp_path, capsys):
    from cardsim import cli

    out = tmp_path / "ladder"
    code = cli.main(["ladder", "moska", "--policies", "greedy,greedy(forbid=steal)", "--games", "2", "--out", str(out)])
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err.strip()
    assert "forbid='steal' is no option of moska" in err and len(err.splitlines()) == 1


# --- what a forbidden seat does -----------------------------------------------------------------

@pytest.mark.parametrize("policy", ["random", "greedy", "mc(determinizations=2)", LEARNED])
def test_a_seat_forbidden_to_swap_never_swaps_and_others_still_do(policy):
    """M-6: with every seat forbidden, no game swaps; with seat 1 alone, the games where seat 1 was dealt
    the trump 2 do not swap then, and others swap as before."""
    rules, games = MoskaRules(), np.arange(40)
    forbidden = with_forbid(policy, "swap")
    assert (records("compiled", rules, 4, 5, games, (forbidden,) * 4).swaps == 0).all()
    free = records("compiled", rules, 4, 5, games, (policy,) * 4)
    assert free.swaps.sum() > 20
    one = records("compiled", rules, 4, 5, games, (policy, forbidden, policy, policy))
    dealt_two_to_1 = [g for g in games if reference.deal(rules, 4, cardsim.core.rng.game_key(5, int(g))).hands[1]
                      >> (reference.deal(rules, 4, cardsim.core.rng.game_key(5, int(g))).trump * 13) & 1]
    assert dealt_two_to_1 and (one.swaps.iloc[dealt_two_to_1] == 0).all()
    assert one.swaps.sum() > 0


@pytest.mark.parametrize("policy", ["random", "greedy", "mc(determinizations=2)", LEARNED])
def test_a_defender_forbidden_to_self_attack_never_does(policy):
    """M-14 (taraki): with every seat forbidden no game has a self-attack; unforbidden, games have them."""
    rules, games = MoskaRules.preset("taraki"), np.arange(30)
    assert (records("compiled", rules, 4, 2, games, (with_forbid(policy, "self_attack"),) * 4).self_attacks == 0).all()
    if policy != LEARNED:  # the model may have learned never to self-attack
        assert records("compiled", rules, 4, 2, games, (policy,) * 4).self_attacks.sum() > 0


@pytest.mark.parametrize("policy", ["random", "greedy", "mc(determinizations=2)"])
def test_a_seat_forbidden_continuation_adds_only_attack_ranks(policy):
    """M-11 (turamoska): every addition of the forbidden seat is of the round's attack ranks, while the
    unforbidden seats add kill ranks too (seen on the reference engine's moves)."""
    seats = (policy, with_forbid(policy, "continuation"), policy, policy)
    kill_rank_adds = {0: 0, 1: 0}

    def check(s):
        decision, seat, action, cards = s.log[-1][:4]
        if action == "add" and cards:
            beyond = cards & ~ranks_of(s.table.attack)
            if seat == 1:
                assert not beyond
            kill_rank_adds[seat == 1] += bool(beyond)

    for g in range(25):
        GAME.play(MoskaRules.preset("turamoska"), 4, 3, g, seats, on_move=check)
    assert kill_rank_adds[0] > 0 and kill_rank_adds[1] == 0


@pytest.mark.parametrize("preset, option", [("taraki", "swap"), ("moska", "self_attack"), ("moska", "continuation")])
def test_a_forbid_the_rules_do_not_offer_changes_nothing(preset, option):
    """A ``forbid`` of an action the rules do not offer (taraki: no swap; moska: no self-attack, additions of
    attack ranks only) is a no-op: the same records."""
    rules, games = MoskaRules.preset(preset), np.arange(60)
    for policy in ("random", "greedy"):
        pd.testing.assert_frame_equal(records("compiled", rules, 4, 1, games, (with_forbid(policy, option),) * 4),
                                      records("compiled", rules, 4, 1, games, (policy,) * 4))


@pytest.mark.parametrize("preset, option", [("moska", "swap"), ("taraki", "self_attack"),
                                            ("turamoska", "continuation")])
def test_a_forbid_the_rules_offer_changes_some_games(preset, option):
    rules, games = MoskaRules.preset(preset), np.arange(200)
    seats = ("greedy", with_forbid("greedy", option), "greedy", "greedy")
    assert not records("compiled", rules, 4, 1, games, seats).equals(
        records("compiled", rules, 4, 1, games, ("greedy",) * 4))


# --- both engines, information sets --------------------------------------------------------------

@given(forbid_setups())
def test_forbidden_seats_play_the_same_records_on_both_engines(cell):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 8)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@settings(max_examples=20)
@given(forbid_setups(searching=True))
def test_forbidden_mc_oracle_and_learned_seats_play_the_same_records_on_both_engines(cell):
    rules, players, seats, seed, first = cell
    games = np.arange(first, first + 2)
    pd.testing.assert_frame_equal(records("reference", rules, players, seed, games, seats),
                                  records("compiled", rules, players, seed, games, seats))


@pytest.mark.parametrize("preset", ["moska", "turamoska", "taraki"])
def test_a_ci_sized_run_with_every_option_forbidden_equals_the_reference(preset):
    rules = MoskaRules.preset(preset)
    every = "+".join(OPTIONS)
    seats = (with_forbid("greedy", every), "random", with_forbid("random", "continuation+swap"),
             with_forbid("mc(determinizations=3)", every))
    pd.testing.assert_frame_equal(records("reference", rules, 4, 8, np.arange(30), seats),
                                  records("compiled", rules, 4, 8, np.arange(30), seats))


@settings(max_examples=20)
@given(forbid_setups(searching=True, unfair=False))
def test_a_forbidden_seat_s_decision_depends_only_on_its_view(cell):
    """At every decision the cards the seat cannot see dealt again (a seat forbidden to swap may hold the
    trump 2 the others believe in the stock): the same decision."""
    rules, players, seats, seed, game = cell
    g = Game(rules, players, seed, game, seats)
    gen = np.random.default_rng(game)
    a, b = np.zeros(1, compiled.MOVE), np.zeros(1, compiled.MOVE)
    for _ in range(120):
        seat = compiled.to_act(g.s)
        if seat < 0:
            break
        assert_same_decision(g, hidden_cards_dealt_again(g.s, g.p, seat, players, gen), a, b)
        g.step()


@settings(max_examples=15)
@given(forbid_setups())
def test_the_step_api_plays_forbidden_bots_as_the_reference(cell):
    """``cardsim.play``'s engine (bots taking ``policy_decision()``) keeps a seat's forbid from the deal on (M-6)."""
    from tests.play.stepping import reference_record, step_by_policy

    rules, players, seats, seed, first = cell
    for index in range(first, first + 3):
        assert step_by_policy("moska", rules, players, seed, index, seats) == \
            reference_record("moska", rules, players, seed, index, seats)
