"""MM-18, the repetition rule (knob ``repetition``): with the stock empty, an attack that would begin in the
position (attacker, trump, every hand) one of the last 64 began in ends the game, no loser, recorded
``truncated`` with fewer than ``max_turns`` decisions. Both engines apply it alike (``mc`` seats too),
games it does not stop are unchanged, MM-16 comes first, the replay shows the recurring position and
the independent checker (checker.py) follows the rule."""
import numpy as np
import pytest

import cardsim
from replay_reading import CheckError
from cardsim.core import repetition
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import compiled_policies as cpol
from cardsim.games.musta_maija import reference as ref

from .checker import check
from .test_compiled import new_game

pytestmark = pytest.mark.filterwarnings("ignore:.*a model trained for")  # the learned model of CYCLES, rules + MM-18

GAME = "musta_maija"
MC = "mc(determinizations=8)"
LEARNED = "learned(model=musta_maija_4p_g3)"
CYCLES = (("musta_maija", 6, 1, 44, "greedy", 122), ("house", 6, 1, 321, "greedy", 160),
          ("musta_maija", 4, 2, 204, LEARNED, 74))
"""Games that cycle once the stock is empty (found by scans with the compiled engine: 500 greedy games per
preset and player count, 300 of four ``learned`` seats): without the knob MM-16 stops them after 10,000
decisions; with it they stop after (preset, players, seed, game, policy at every seat, decisions)."""


def on(rules: str = "musta_maija"):
    return cardsim.rules(GAME, rules).replace(repetition=True)


def compiled_records(rules, players: int, seed: int, games: int, policy) -> list[dict]:
    return cardsim.simulate(GAME, rules, players=players, seed=seed, games=games, policy=policy).to_dict("records")


def replayed(rules, players: int, seed: int, game: int, policy):
    return cardsim.replay(GAME, rules, players=players, seed=seed, game=game, policy=policy)


def stopped(record: dict, rules) -> bool:
    """The record of a game MM-18 stopped: truncated before ``max_turns`` decisions."""
    return bool(record["truncated"]) and record["turns"] < rules.max_turns


@pytest.mark.parametrize("preset, players, seed, game, policy, turns", CYCLES)
def test_MM18_a_cycle_that_ran_to_max_turns_stops_by_repetition_in_both_engines(preset, players, seed, game, policy,
                                                                                 turns):
    """MM-18 (regression): a greedy or learned table that passed the same cards round after round until MM-16
    stopped it at 10,000 decisions stops at the first recurring position instead, no loser, in both engines alike
    (the reference engine's ``learned`` decisions are the compiled engine's, its game flow its own)."""
    rules, policy = cardsim.rules(GAME, preset), [policy] * players
    off_c = compiled_records(rules, players, seed, game + 1, policy)[game]
    off_r = replayed(rules, players, seed, game, policy)
    assert off_r.record == off_c and off_c["turns"] == rules.max_turns and off_c["truncated"]
    assert off_r.events.action.iloc[-players - 2] == "truncated"
    rules = rules.replace(repetition=True)
    on_c = compiled_records(rules, players, seed, game + 1, policy)[game]
    on_r = replayed(rules, players, seed, game, policy)
    assert on_r.record == on_c
    assert (on_c["turns"], on_c["truncated"], on_c["loser"]) == (turns, True, -1)
    actions = list(on_r.events.action)
    assert actions[-players - 1:] == ["repetition"] + ["final"] * players and "truncated" not in actions


SETUPS = [(players, policy) for players in (2, 3, 4, 5, 6, 8)
          for policy in ("random", "greedy", ("greedy", "random") * 4)]


@pytest.mark.parametrize("players, policy", SETUPS)
def test_MM18_the_engines_agree_with_the_knob_on(players, policy):
    """MM-18: the compiled engine plays 1,000 games; the reference engine replays the first 20 it stopped by
    repetition and ten others, to the same records (two decks from six players, MM-1)."""
    rules = on("house" if players == 5 else "musta_maija")
    policy = policy if isinstance(policy, str) else list(policy[:players])
    records = compiled_records(rules, players, 3, 1000, policy)
    cut = [i for i, r in enumerate(records) if stopped(r, rules)]
    for game in cut[:20] + list(range(10)):
        assert replayed(rules, players, 3, game, policy).record == records[game]
    assert (len(cut) > 0) == (players > 2)  # none with two players (docs/rules/musta_maija.md, MM-18)


@pytest.mark.parametrize("rules", ["diamonds(hand_size=13, repetition=True)",
                                   "musta_maija(hand_size=13, repetition=True)"])
def test_MM18_a_deal_that_leaves_no_stock_remembers_the_first_attack(rules):
    """MM-18 with MM-4: four hands of 13 leave no stock, so the rule applies from the first attack on (the compiled
    engine's ``deal`` remembers its position) in both engines alike."""
    rules = cardsim.rules(GAME, rules)
    for policy in ("greedy", "random"):
        records = compiled_records(rules, 4, 5, 300, policy)
        cut = [i for i, r in enumerate(records) if stopped(r, rules)]
        for game in cut[:10] + list(range(30)):
            assert replayed(rules, 4, 5, game, policy).record == records[game]
        assert cut
    state, _, p = new_game(rules, 4, 5, 0)
    dealt = state[0]  # a stretch without discards begins at the deal: its first position kept as words
    assert dealt["epoch"] == 0 and dealt["n_seen"] == -1 and (dealt["first"] == dealt["position"]).all()
    states = ref.play_states(rules, 4, 5, 0, ("greedy",) * 4)
    dealt = next(states)
    position = (dealt.attacker, dealt.trump, *dealt.hands)
    assert list(next(states).positions.recent) == [position]


MC_GAMES = ((3, (MC, "greedy", "greedy"), 11, (94, 132, 0, 1)), (4, ("greedy", MC, "greedy", "random"), 11, (0, 1)))
"""Games with ``mc`` seats (seed, games): in games 94 and 132 of the first MM-18 stops the game."""


@pytest.mark.parametrize("players, policy, seed, games", MC_GAMES)
def test_MM18_the_engines_agree_with_mc_seats(players, policy, seed, games):
    """MM-18 with ``mc`` seats: the reference engine's game flow (its ``mc`` decisions made by the compiled engine on
    ``state_from`` of its table, which remembers no position) gives the compiled engine's records; the worlds of
    ``mc``'s play-outs remember none of the game's positions in either."""
    rules = on()
    records = compiled_records(rules, players, seed, max(games) + 1, list(policy))
    for game in games:
        assert replayed(rules, players, seed, game, list(policy)).record == records[game]
    assert sum(stopped(records[g], rules) for g in games) == (2 if players == 3 else 0)


def test_MM18_mc_decides_alike_whatever_positions_the_game_remembers():
    """MM-18: ``mc``'s worlds start with no remembered position (``repetition.forget``), so a searching seat's decision does
    not depend on the positions the game remembers (nor can it see them): at every decision of greedy games that
    cycle (3 players: the games MM-18 stops), the same with them as without."""
    rules, players = on(), 3
    codes = cpol.table(("greedy",) * players)
    searching = cpol.table((MC,) * players)
    work = C.new_work()[0]
    records = compiled_records(rules, players, 1, 200, "greedy")
    compared = 0
    for game in [i for i, r in enumerate(records) if stopped(r, rules)][:4]:
        state, m, p = new_game(rules, players, 1, game)
        s = state[0]
        while C.to_act(s) >= 0:
            if s["epoch"] >= 0:
                forgot = state.copy()
                forgot[0]["epoch"], forgot[0]["n_seen"] = -1, 0
                m1, m2 = np.zeros(1, C.MOVE), np.zeros(1, C.MOVE)
                C.choose(s, p, searching, m1[0], work)
                C.choose(forgot[0], p, searching, m2[0], work)
                assert m1.tobytes() == m2.tobytes()
                compared += 1
            C.choose(s, p, codes, m[0], work)
            C.apply(s, p, m[0])
    assert compared >= 40


def test_MM18_games_that_never_recur_are_unchanged_by_the_knob():
    """MM-18: a game the rule does not stop has the same record with the knob as without; one it stops is the same
    game cut short: fewer decisions and rounds, no loser. (Seats that do not search: ``mc``'s play-outs apply the
    rule too, so its decisions may change.)"""
    for preset, players, policy in (("musta_maija", 3, "greedy"), ("turned", 4, "random"), ("house", 7, "greedy"),
                                    ("five_cards", 8, ["greedy", "random"] * 4)):
        rules = cardsim.rules(GAME, preset)
        off = compiled_records(rules, players, 9, 400, policy)
        with_knob = compiled_records(rules.replace(repetition=True), players, 9, 400, policy)
        cut = 0
        for a, b in zip(off, with_knob):
            if stopped(b, rules):
                assert b["turns"] < a["turns"] and b["rounds"] < a["rounds"] and b["loser"] == -1
                cut += 1
            else:
                assert a == b
        assert cut > 0


def test_MM16_comes_before_MM18():
    """MM-16 before MM-18: where the game would stop by repetition at exactly ``max_turns`` decisions it is truncated
    by MM-16 (event ``truncated``); one decision more and MM-18 stops it (event ``repetition``). Both engines."""
    preset, players, seed, game, policy, turns = CYCLES[0]
    for max_turns, end in ((turns, "truncated"), (turns + 1, "repetition")):
        rules = on(preset).replace(max_turns=max_turns)
        r = replayed(rules, players, seed, game, policy)
        assert r.record == compiled_records(rules, players, seed, game + 1, policy)[game]
        other = "repetition" if end == "truncated" else "truncated"
        assert r.record["turns"] == turns and r.record["truncated"]
        assert end in set(r.events.action) and other not in set(r.events.action)


def positions_at_attacks(log: list[tuple], players: int) -> tuple[list[tuple], tuple]:
    """From a replay's raw events (``reference.Table.note``): the positions (attacker, trump, hands) the attacks
    began in with the stock empty, in order (the state before the decision's first event: a declaration opens
    it, MM-5), and the position at the ``repetition`` event, its attacker by MM-11/MM-12 from the last defence
    (the defender if it beat every card and is still in, else the next seat in after it, MM-14)."""
    starts, out, defender, picked = [], set(), -1, False
    for i, (decision, seat, action, _, _, held, stock, trump, _) in enumerate(log):
        if action == "attack":
            first = i - 1 if log[i - 1][2] == "declare" and log[i - 1][0] == decision else i
            _, _, _, _, _, held_before, stock_before, trump_before, _ = log[first - 1]
            if stock_before == 0:
                starts.append((seat, trump_before, held_before))
        elif action == "beat":
            defender, picked = seat, False
        elif action == "pick_up":
            picked = True
        elif action == "out":
            out.add(seat)
        elif action == "repetition":
            after = next(q for q in ((defender + k) % players for k in range(1, players)) if q not in out)
            return starts, (after if picked or defender in out else defender, trump, held)
    raise AssertionError("no repetition event")


def test_MM18_a_stopped_game_ends_where_a_position_recurs():
    """MM-18: in a game stopped by repetition the replay ends with ``repetition`` (then the final hands), the stock is
    empty, and the position the next attack would begin in (computed from the events) is one that an attack began in
    among the last 64 that began with the stock empty; no earlier attack began in a recurring one."""
    found = 0
    for preset, players, seed, game, policy, _ in CYCLES:
        found += check_recurs(replayed(on(preset), players, seed, game, [policy] * players), players)
    rules = on()
    for players in (3, 4, 6):
        records = compiled_records(rules, players, 3, 200, "greedy")
        for game in [i for i, r in enumerate(records) if stopped(r, rules)][:3]:
            found += check_recurs(replayed(rules, players, 3, game, "greedy"), players)
    assert found >= 9


def check_recurs(r, players: int) -> int:
    """``test_MM18_a_stopped_game_ends_where_a_position_recurs`` on one replay; 1."""
    actions = list(r.events.action)
    assert actions[-players - 1] == "repetition" and r.events.stock.iloc[-players - 1] == 0
    starts, end = positions_at_attacks(r.log, players)
    assert end in starts[-repetition.WINDOW:]
    for i, start in enumerate(starts):  # the rule stopped the game at the first recurrence
        assert start not in starts[max(0, i - repetition.WINDOW):i]
    return 1


def test_MM18_the_checker_follows_the_rule():
    """MM-18 in the independent checker (checker.py): games with the knob pass it, stopped or not; a stopped game
    fails it when read without the knob (the attack it expects is missing) or without its ``repetition`` event."""
    rules = on()
    knobs = rules.to_dict()
    seen = 0
    for players, policy in ((3, "greedy"), (6, "random"), (4, "greedy")):
        for game in range(40):
            r = replayed(rules, players, 4, game, policy)
            check(r.events, r.record, knobs, players)
            seen += "repetition" in set(r.events.action)
    preset, players, seed, game, policy, _ = CYCLES[0]
    r = replayed(on(preset), players, seed, game, policy)
    check(r.events, r.record, knobs, players)
    with pytest.raises(CheckError, match="expected attack|expected declare"):
        check(r.events, r.record, rules.replace(repetition=False).to_dict(), players)
    events = r.events[r.events.action != "repetition"].reset_index(drop=True)
    with pytest.raises(CheckError, match="expected repetition"):
        check(events, r.record, knobs, players)
    assert seen > 0


def test_MM18_the_knob_is_off_by_default_and_named_only_when_on():
    """MM-18: off by default, so every committed study keeps its records; ``describe`` names it only when on."""
    assert cardsim.rules(GAME).repetition is False
    assert "repetition" not in cardsim.rules(GAME, "house").describe()
    assert on("house").describe() == "house(repetition=True)"
    assert C.make_params(on(), 4)[0]["repetition"] == 1 and C.make_params(cardsim.rules(GAME), 4)[0]["repetition"] == 0
    assert isinstance(ref.deal(on(), 4, 1).positions, repetition.Positions)
