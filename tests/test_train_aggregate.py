"""``cardsim train --aggregate``: each generation fitted to the positions of every generation kept so far."""
import json

import pytest

from cardsim.learn.train import train

ARGS = dict(players=3, generations=2, positions=60, teacher="mc(determinizations=2)", seed=5, every=4,
            progress=False)


def candidates(path) -> int:
    return json.loads(path.read_text())["fit"]["candidates"]


@pytest.mark.long
def test_a_generation_is_fitted_to_its_own_positions_and_those_of_the_generations_before(tmp_path):
    plain = train("molotow", "mittlere", out=tmp_path / "plain", **ARGS)
    pooled = train("molotow", "mittlere", out=tmp_path / "pooled", aggregate=True, **ARGS)
    g1, g2 = (json.loads(p.read_text()) for p in pooled)
    assert g1["aggregate"] is True and g2["aggregate"] is True and "aggregate" not in json.loads(plain[0].read_text())
    assert g1["weights"] == json.loads(plain[0].read_text())["weights"]  # nothing before generation 1
    # generation 2 saw generation 1's positions and its own: the same positions the plain run labelled
    assert candidates(pooled[1]) == candidates(plain[0]) + candidates(plain[1])
    assert g2["weights"] != json.loads(plain[1].read_text())["weights"]


@pytest.mark.long
def test_a_resumed_aggregate_run_labels_the_kept_positions_again_and_fits_the_same_model(tmp_path):
    first = train("molotow", "mittlere", out=tmp_path / "a", aggregate=True, **(ARGS | {"generations": 3}))
    expected = [p.read_bytes() for p in first]
    first[2].unlink()
    first[1].unlink()
    again = train("molotow", "mittlere", out=tmp_path / "a", aggregate=True, **(ARGS | {"generations": 3}))
    assert [p.read_bytes() for p in again] == expected
    with pytest.raises(ValueError, match="mittlere_3p_g1.json: trained with aggregate=True, not None"):
        train("molotow", "mittlere", out=tmp_path / "a", **ARGS)
