"""``cardsim train --gate``: a generation is kept only if it beats the one before (cardsim/learn/gate.py)."""
import json

import pytest

from cardsim import cli
from cardsim.learn import gate, train as training
from cardsim.learn.train import Stalled, train

ARGS = dict(players=3, generations=2, positions=60, teacher="mc(determinizations=2)", seed=5, every=4,
            progress=False)


def test_the_judge_rates_a_stronger_policy_above_a_weaker_one_and_not_the_reverse():
    """Moska at 4 players: ``greedy`` loses far less than ``random``; the verdict must see it both ways."""
    up = gate.judge("moska", None, 4, "random", "greedy", 200, seed=3)
    down = gate.judge("moska", None, 4, "greedy", "random", 200, seed=3)
    assert up.passed and up.lo > 100 and not down.passed and down.hi < -100
    assert up.elo == pytest.approx(-down.elo) and up.games == 200


def test_a_verdict_passes_only_with_its_interval_above_zero():
    assert gate.Verdict(30.0, 0.5, 60.0, 10).passed
    assert not gate.Verdict(30.0, -0.5, 60.0, 10).passed and not gate.Verdict(-3.0, -9.0, -1.0, 10).passed


@pytest.fixture
def verdicts(monkeypatch):
    """The gate's verdicts in turn, as the test orders them; the deal keys it was asked for, kept."""
    given, keys = [], []

    def judge(game, rules, players, previous, candidate, games, seed):
        keys.append(seed)
        assert previous.endswith("_g1.json')") and "attempt" in candidate and games == 40
        return given.pop(0)

    monkeypatch.setattr(training.gating, "judge", judge)
    return given, keys


@pytest.mark.long
def test_a_rejected_candidate_is_fitted_again_from_other_positions_and_the_kept_one_records_both(
        verdicts, tmp_path):
    given, keys = verdicts
    given += [gate.Verdict(-12.0, -40.0, 15.0, 40), gate.Verdict(25.0, 4.0, 47.0, 40)]
    plain = train("molotow", "mittlere", out=tmp_path / "plain", **ARGS)
    gated = train("molotow", "mittlere", out=tmp_path / "gated", gate=40, attempts=3, **ARGS)
    assert plain[0].read_bytes() == gated[0].read_bytes()  # generation 1 faces no gate
    g2 = json.loads(gated[1].read_text())
    assert g2["gate"] == {"games": 40, "attempts": 3}
    assert g2["fit"]["gate"] == {"attempt": 2, "elo": 25.0, "lo": 4.0, "hi": 47.0, "games": 40,
                                 "rejected": [{"elo": -12.0, "lo": -40.0, "hi": 15.0, "games": 40}]}
    assert g2["weights"] != json.loads(plain[1].read_text())["weights"]  # attempt 2 saw other positions
    assert len(set(keys)) == 2 and not given
    assert sorted(p.name for p in (tmp_path / "gated").iterdir()) == ["mittlere_3p_g1.json", "mittlere_3p_g2.json"]
    # resumed with the same arguments: nothing trained or judged again; with others: one line
    assert train("molotow", "mittlere", out=tmp_path / "gated", gate=40, attempts=3, **ARGS) == gated
    with pytest.raises(ValueError, match=r"mittlere_3p_g2.json: trained with gate=\{'attempts': 3, 'games': 40\}, "
                                         r"not None"):
        train("molotow", "mittlere", out=tmp_path / "gated", **ARGS)


@pytest.mark.long
def test_when_no_candidate_passes_training_stops_with_the_generations_kept_and_exit_1(verdicts, tmp_path, capsys):
    given, _ = verdicts
    given += [gate.Verdict(-12.0, -40.0, 15.0, 40), gate.Verdict(5.0, -1.5, 11.0, 40)]
    with pytest.raises(Stalled) as stalled:
        train("molotow", "mittlere", out=tmp_path / "a", gate=40, attempts=2, **ARGS)
    assert stalled.value.generation == 2 and [p.name for p in stalled.value.paths] == ["mittlere_3p_g1.json"]
    assert "none of 2 candidates beat generation 1 (the best: +5.0 Elo [-1.5, +11.0] on 40 deals)" in str(
        stalled.value)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["mittlere_3p_g1.json"]  # no attempt left behind
    given += [gate.Verdict(-12.0, -40.0, 15.0, 40), gate.Verdict(5.0, -1.5, 11.0, 40)]
    status = cli.main(["train", "molotow", "mittlere", "--players", "3", "--generations", "2", "--positions", "60",
                       "--teacher", "mc(determinizations=2)", "--seed", "5", "--every", "4", "--gate", "40",
                       "--attempts", "2", "--quiet", "--out", str(tmp_path / "a")])
    out, err = capsys.readouterr()
    assert status == 1 and out.strip() == f"wrote {tmp_path / 'a' / 'mittlere_3p_g1.json'}"
    assert err.startswith("cardsim: generation 2: none of 2 candidates") and err.count("\n") == 1


@pytest.mark.parametrize("argv, line", [
    (["--attempts", "2"], "--attempts: a generation is fitted again only when --gate rejects it"),
    (["--gate", "-1"], "--gate must be an integer >= 0, not -1"),
    (["--gate", "10", "--attempts", "0"], "--attempts must be an integer >= 1, not 0"),
])
def test_bad_gate_arguments_are_one_line_exit_2_and_nothing_written(argv, line, tmp_path, capsys):
    status = cli.main(["train", "molotow", "--out", str(tmp_path / "out"), *argv])
    err = capsys.readouterr().err
    assert status == 2 and line in err and err.count("\n") == 1 and not (tmp_path / "out").exists()
