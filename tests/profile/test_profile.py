"""Balance profiles on a constructed game whose answers are known (tinygame.py, rules T-1 .. T-6)."""
import shutil

import numpy as np
import pandas as pd
import pytest

from cardsim.profile import length, table as tables
from cardsim.profile.command import profile_study, read, replicated, run_profile
from cardsim.study import verify_study


@pytest.fixture(scope="module")
def folder(tiny, tmp_path_factory):
    study = profile_study("tinygame", ["plain", "rigged", "dealt"], players=[4], games=300, seed=3, replays=40,
                          engine="reference")
    return run_profile(study, out=tmp_path_factory.mktemp("profile") / "out", note=lambda line: None)


@pytest.fixture(scope="module")
def profile(folder):
    return read(folder).set_index(["variant", "measure"])


def test_fairness_finds_the_seat_that_always_loses(profile):
    """T-5: seat 0 loses every game: its edge is 1 - 1/4, and it survives correction; the fair rules do not."""
    edge = profile.loc[("rigged", "seat_edge")]
    assert edge.estimate == pytest.approx(0.75) and edge.survives and edge.note.startswith("seat 0 ")
    assert edge.lo > 0.7
    for fair in ("plain", "dealt"):
        assert not profile.loc[(fair, "seat_edge")].survives


def test_a_restriction_that_cannot_matter_is_worth_zero(profile):
    """T-3: knocking changes nothing, so forbidding it is worth 0 within its interval, in every variant;
    forbidding the highest card (T-2) costs greedy games where the play decides (plain rules)."""
    for variant in ("plain", "rigged", "dealt"):
        knock = profile.loc[(variant, "option_value_knock")]
        assert knock.lo <= 0 <= knock.hi and knock.estimate == 0 and not knock.survives
    top = profile.loc[("plain", "option_value_top")]
    assert top.lo > 0.2 and top.survives
    assert profile.loc[("dealt", "option_value_top")].estimate == 0  # T-6: the play cannot matter


def test_a_game_decided_by_the_deal_has_luck_share_near_one(profile):
    """T-6: the seat dealt the lowest card loses: the deal-only predictor names the loser of every held-out game."""
    luck = profile.loc[("dealt", "luck_share_deal")]
    assert luck.estimate > 0.95 and luck.lo > 0.9
    assert profile.loc[("dealt", "deal_hit_rate")].survives
    assert np.isnan(profile.loc[("rigged", "luck_share_deal")].estimate)  # the seat alone decides: nothing left


def test_skill_shows_where_play_matters(profile):
    """Greedy beats random where the played card decides (T-4), and not where the rules ignore play (T-5, T-6)."""
    assert profile.loc[("plain", "rating_gap_random")].lo > 100
    assert profile.loc[("plain", "luck_share_skill")].hi < 0.5
    for variant in ("rigged", "dealt"):
        assert profile.loc[(variant, "rating_gap_random")].estimate == 0
        share = profile.loc[(variant, "luck_share_skill")]
        assert share.lo <= 1 <= share.hi


def test_every_figure_has_an_interval_and_tested_ones_their_corrections(profile):
    t = profile.reset_index()
    assert ((t.lo <= t.estimate + 1e-9) & (t.estimate <= t.hi + 1e-9) | t.estimate.isna()).all()
    tested = t.loc[t.p.notna()]
    assert tested.p_holm.notna().all() and (tested.p_holm >= tested.p - 1e-12).all()
    assert t.loc[t.p.isna(), "p_holm"].isna().all()
    assert set(t.family) == {"fairness", "skill", "luck", "option", "length"}


@pytest.mark.long
def test_verify_recomputes_the_profile(folder, tmp_path):
    assert verify_study(folder).ok
    copy = shutil.copytree(folder, tmp_path / "copy")
    text = (copy / "profile.csv").read_text()
    (copy / "profile.csv").write_text(text.replace("rigged", "Rigged", 1))
    v = verify_study(copy)
    assert not v.ok and any("profile.csv" in m for m in v.mismatches)


def test_replication_verdicts_of_a_profile_against_itself(profile):
    t = profile.reset_index()
    both = replicated(t, t)
    assert set(both.loc[both.survives, "verdict"]) == {"replicated"}
    assert set(both.loc[~both.survives, "verdict"]) == {"no finding"}
    assert (both.measure == "luck_share_skill").any()  # shifted by its null of 1, not dropped


def test_holm_and_bh_per_family_match_statsmodels():
    from statsmodels.stats.multitest import multipletests

    p = [0.001, 0.02, 0.04, 0.3]
    t = pd.DataFrame({"family": ["a", "a", "b", "b"], "p": p, "estimate": 1.0, "lo": 0.5, "hi": 1.5})
    out = tables.correct(t, 0.05)
    for f, rows in (("a", [0, 1]), ("b", [2, 3])):
        assert np.allclose(out.p_holm.iloc[rows], multipletests(np.array(p)[rows], method="holm")[1])
        assert np.allclose(out.q_bh.iloc[rows], multipletests(np.array(p)[rows], method="fdr_bh")[1])
    assert out.survives.tolist() == [True, True, False, False]
    assert (out.sim_hi > out.hi).all() and (out.sim_lo < out.lo).all()


def test_decided_share_from_hand_sizes():
    """The loser (seat 1) holds strictly the most cards from decision 2 on: settled after 2 of 4 decisions."""
    events = pd.DataFrame({"decision": pd.array([None, 0, 1, 1, 2, 3], dtype="Int64"),
                           "hand_sizes": ["5 5 5", "4 5 5", "5 4 5", "4 4 5", "3 5 4", "0 6 2"]})
    assert length.decided_at(events, 1, 4, most=True) == 0.5
    assert length.decided_at(events, 0, 4, most=False) == 0.5  # tied for the fewest after decision 1: not yet
    assert length.decided_at(events, 2, 4, most=True) == 1.0  # never strictly the most: settled by the last
    assert length.median_ranks(100) == (39, 60)


def test_decided_share_from_the_running_score():
    """A scored game (MJ-19: sticks minus potatoes): seat 2 leads the running score strictly after hands 3
    and 4 of 4; a seat that does not lead alone at the end (a shared win, or no win) has no share."""
    hands = [(3, 1, 0), (0, 1, 2), (0, 0, 2), (1, 0, 0)]  # net score of seats 0, 1, 2 in each hand
    events = pd.DataFrame([{"action": "score", "hand": h, "seat": s, "sticks": max(v, 0), "potatoes": max(-v, 0)}
                           for h, row in enumerate(hands) for s, v in enumerate(row)]
                          + [{"action": "play", "hand": 0, "seat": 0, "sticks": 0, "potatoes": 0}])
    assert np.isnan(length.decided_by_score(events, 2))  # running 3 1 0 | 3 2 2 | 3 2 4 | 4 2 4: a shared win
    events.loc[(events.hand == 3) & (events.seat == 0), "sticks"] = 0
    assert length.decided_by_score(events, 2) == 0.5  # ... | 3 2 4: seat 2 leads after hands 3 and 4
    assert np.isnan(length.decided_by_score(events, 0))  # seat 0 does not lead at the end
    events.loc[(events.hand == 0) & (events.seat == 2), "sticks"] = 5  # running 3 1 5 | 3 2 7 | ...
    assert length.decided_by_score(events, 2) == 0.0  # leads from the first hand on
    assert np.isnan(length.decided_by_score(events.loc[events.action == "play"], 0))


def test_decided_share_of_a_molotow_replay_is_read_by_hands():
    """A real Molotow game with one winner: the share counts its 12 hands, and the winner leads after the last."""
    import cardsim
    from cardsim import api

    record = cardsim.simulate("molotow", "molotow", players=4, seed=7, games=1, policy="greedy").iloc[0]
    events = api.replay("molotow", "molotow", players=4, seed=7, game=0, policy="greedy").events
    assert record.winners == 1 << int(record.winner)  # one winner (``winners``: a bit per winning seat)
    share = length.decided_by_score(events, int(record.winner))
    assert 0 <= share < 1 and (share * 12).is_integer()


def test_rating_fit_from_a_neighbouring_maximum():
    """A bootstrap resample of a 50,000-deal Uno ladder, started at the whole sample's maximum: it stalled on
    rounding ("A bad approximation caused failure to predict improvement") before rating.fit started afresh."""
    from cardsim.study.ladder import rating

    wins = np.array([[0, 266819.0], [336319.0, 0]])
    theta = rating.fit(wins, 0, np.array([0, 0.23061598]))
    assert theta[1] == pytest.approx(np.log(336319 / 266819), rel=1e-6)


@pytest.mark.long
def test_the_html_report_has_the_profile_section(folder, tmp_path):
    from cardsim.study.report.html import write_report

    copy = shutil.copytree(folder, tmp_path / "copy")
    page = write_report(copy).read_text(encoding="utf-8")
    assert "<h2 id=\"profile\">Balance profile</h2>" in page and "id=\"profile-4\"" in page
    assert page.count("option_value_knock") == 3  # one row per variant
    assert "alt=\"profile.png\"" in page
    assert verify_study(copy).ok  # the page is the one the folder's files render
