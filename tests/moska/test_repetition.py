"""M-23, the repetition rule (knob ``repetition``): with the stock empty, a round that would begin in the
position (attacker, every hand) one of the last 64 such rounds began in ends the game, no loser, recorded
truncated before ``max_turns``. Both engines alike (mc seats too), the independent checker agrees, the
issue's endless games end, and games the rule does not stop are the same as without it."""
import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.core.records import ends, frame
from cardsim.core.repetition import WINDOW, Positions
from cardsim.games.moska import GAME, compiled

from .checker import check

ENDLESS = [("moska", 6, 101, 250, 77), ("turamoska", 5, 101, 19, 85)]
"""Greedy games of issue 28 that cycle to ``max_turns`` without the rule: (preset, players, seed, game, the
decisions made with it)."""


def both_engines(rules, players, seed, games, seats):
    want = frame([GAME.play(rules, players, seed, int(g), seats).record for g in games], GAME.columns)
    got = frame(compiled.simulate(rules, players, seed, np.asarray(games), seats), GAME.columns)
    pd.testing.assert_frame_equal(want, got)
    return want


@pytest.mark.parametrize("preset, players, seed, game, turns", ENDLESS)
def test_M23_the_endless_greedy_games_of_the_issue_end_by_repetition(preset, players, seed, game, turns):
    """M-21 stops them after 10,000 decisions; M-23 after a few dozen, in both engines, and ``ends`` says so."""
    seats = ("greedy",) * players
    plain = cardsim.rules("moska", preset)
    before = both_engines(plain, players, seed, [game], seats).iloc[0]
    assert before.truncated and before.turns == plain.max_turns
    after = both_engines(plain.replace(repetition=True), players, seed, [game], seats)
    assert after.turns.tolist() == [turns] and after.truncated.all() and (after.loser == -1).all()
    assert ends(after.truncated, after.turns, plain.max_turns).tolist() == ["repetition"]
    assert ends(before[["truncated"]], before[["turns"]], plain.max_turns).tolist() == ["max_turns"]


@pytest.mark.parametrize("preset, players, seed, game, turns", ENDLESS)
def test_M23_the_replay_ends_where_a_round_would_repeat_a_position(preset, players, seed, game, turns):
    """The last events: the repetition, then the final hands; the stock is empty and the hands at the stop
    are those of a round begun earlier, by the same attacker."""
    rules = cardsim.rules("moska", preset).replace(repetition=True)
    t = cardsim.replay("moska", rules, players=players, seed=seed, game=game, policy="greedy")
    actions = t.events.action.tolist()
    assert actions[-players - 1:] == ["repetition"] + ["final"] * players
    stop = t.events.iloc[-players - 1]
    assert stop.stock == 0 and stop.seat == -1
    rounds = t.events.loc[(t.events.action == "round") & (t.events.stock == 0)]
    assert (rounds.hand_sizes == stop.hand_sizes).any()
    check(t.events, t.record, rules.to_dict(), players)


def test_M23_random_rules_and_seats_with_the_rule_equal_the_reference_and_some_games_stop():
    """Random seats return to a position now and then (about one game in 80 at 4 players): those games stop,
    the others are unchanged, in both engines."""
    rules = cardsim.rules("moska", "moska(repetition=True)")
    games = np.arange(400)
    on = both_engines(rules, 4, 7, games, ("random",) * 4)
    off = both_engines(rules.replace(repetition=False), 4, 7, games, ("random",) * 4)
    stopped = ends(on.truncated, on.turns, rules.max_turns) == "repetition"
    assert 1 <= stopped.sum() <= 20
    pd.testing.assert_frame_equal(on[~stopped], off[~stopped])
    assert (on.turns[stopped] < off.turns[stopped]).all()


@pytest.mark.parametrize("preset, players, seats", [
    ("taraki(attack_cap=3)", 5, ("random",) * 5),
    ("moska(cap_mode='unkilled', excess_return='last')", 4, ("random", "greedy") * 2),
])
def test_M23_mixed_seats_and_knobs_equal_the_reference_and_pass_the_checker(preset, players, seats):
    rules = cardsim.rules("moska", preset).replace(repetition=True)
    records = both_engines(rules, players, 3, np.arange(400), seats)
    stopped = np.flatnonzero(ends(records.truncated, records.turns, rules.max_turns) == "repetition")
    assert len(stopped)
    for g in stopped[:3]:
        t = cardsim.replay("moska", rules, players=players, seed=3, game=int(records.game[g]), policy=seats)
        check(t.events, t.record, rules.to_dict(), players)


def test_M23_searching_seats_decide_alike_in_both_engines():
    """``mc`` seats in games the rule stops: the reference's searched decisions (compiled ``decide_from`` of
    its position) and the compiled engine's give the same records; play-outs forget the game's positions."""
    rules = cardsim.rules("moska", "moska(repetition=True)")
    seats = ("mc(determinizations=2, search_stock=all)", "random", "random", "random")
    records = both_engines(rules, 4, 7, [2, 5, 40, 66], seats)
    assert ends(records.truncated, records.turns, rules.max_turns).tolist() == [
        "repetition", "finished", "finished", "repetition"]


def test_M23_the_rule_holds_before_M21_only():
    """A round that would repeat at decision ``max_turns`` is stopped by M-21 (recorded as max_turns)."""
    preset, players, seed, game, turns = ENDLESS[0]
    seats = ("greedy",) * players
    plain = cardsim.rules("moska", preset)
    stopped = both_engines(plain.replace(repetition=True, max_turns=turns), players, seed, [game], seats)
    assert stopped.turns.tolist() == [turns]
    assert ends(stopped.truncated, stopped.turns, turns).tolist() == ["max_turns"]
    t = cardsim.replay("moska", plain.replace(repetition=True, max_turns=turns), players=players, seed=seed,
                       game=game, policy="greedy")
    assert "truncated" in t.events.action.tolist() and "repetition" not in t.events.action.tolist()


def test_M23_positions_remember_the_last_64():
    """The reference's memory: a position recurs while it is among the last ``WINDOW`` remembered."""
    seen = Positions()
    assert not seen.recurs("a")
    for i in range(WINDOW - 1):
        assert not seen.recurs(i)
    assert seen.recurs("a")
    assert not seen.recurs(WINDOW)  # pushes "a" out
    assert not seen.recurs("a")


def test_M23_off_by_default_and_not_in_the_rules_string():
    """Every committed study keeps its records: the knob is off unless a study turns it on."""
    assert cardsim.rules("moska").repetition is False
    assert cardsim.rules("moska", "moska(repetition=True)").describe() == "moska(repetition=True)"


STUDY = """\
name = "repetition"
description = "Moska with and without the repetition rule"
game = "moska"
seed = 7
games = 400
players = [4]
policies = ["random"]
baseline = "moska"

[variants.moska]
preset = "moska"

[variants.repeats]
preset = "moska"
repetition = true
"""


def test_M23_a_study_counts_the_games_each_way_and_its_report_shows_them(tmp_path):
    """``summary.csv`` has ``repeated`` (the truncated games the rule stopped) where a variant plays the rule, the
    HTML report a column for it, and the folder verifies; a study without the rule has no such column."""
    from cardsim.study import run_study, verify_study
    from cardsim.study.folder import storage
    from cardsim.study.report.html import write_report

    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    out = run_study(path, out=tmp_path / "out")
    summary = pd.read_csv(out / "summary.csv").set_index("variant")
    records = storage.read_games(out)
    for variant, rows in records.groupby("variant"):
        count = (ends(rows.truncated, rows.turns, 10_000) == "repetition").sum()
        assert summary.repeated[variant] == count == summary.truncated[variant]
    assert summary.repeated["moska"] == 0 and summary.repeated["repeats"] >= 1
    assert list(summary.columns).index("repeated") == list(summary.columns).index("truncated") + 1
    assert ">by repetition<" in write_report(out).read_text()
    assert verify_study(out, redraw=False).ok
    path.write_text(STUDY.replace("repetition = true", "hand_size = 5"))
    plain = run_study(path, out=tmp_path / "plain")
    assert "repeated" not in pd.read_csv(plain / "summary.csv").columns
    assert ">by repetition<" not in write_report(plain).read_text()
