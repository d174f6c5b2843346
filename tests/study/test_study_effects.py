"""Sweeps and factorials: variants generated from knob values (design.py), and their effects
(effects.py) against contrasts worked by hand on a small fixed table of records."""
import numpy as np
import pandas as pd
import pytest

from cardsim import games as registry
from cardsim.study.plan.design import DesignError, expand
from cardsim.study.report.effects import COLUMNS, contrasts, effects
from cardsim.study.report.stats import measures, paired_mean, summarize

FACTORIAL = {"base": "plain", "knobs": {"lives": [2, 3], "dealer_lives": [0, 1, 2]}}


def test_a_factorial_is_every_combination_named_by_its_knob_values(fake):
    variants, design = expand("factorial", FACTORIAL, fake, (2, 3))
    assert list(variants) == ["lives=2,dealer_lives=0", "lives=2,dealer_lives=1", "lives=2,dealer_lives=2",
                              "lives=3,dealer_lives=0", "lives=3,dealer_lives=1", "lives=3,dealer_lives=2"]
    assert variants["lives=3,dealer_lives=2"] == fake.rules.preset("plain").replace(lives=3, dealer_lives=2)
    assert design.baseline == "lives=2,dealer_lives=0" and design.reference == {"lives": "2", "dealer_lives": "0"}
    assert design.cells["lives=3,dealer_lives=1"] == ("3", "1") and design.skipped == ()
    assert design.table == {"base": "plain", "skip_unplayable": False,
                            "knobs": [["lives", [2, 3]], ["dealer_lives", [0, 1, 2]]]}


def test_a_sweep_varies_one_knob_and_the_base_is_the_baseline_even_when_not_listed(fake):
    variants, design = expand("sweep", {"base": "sturdy_dealer", "knob": "dealer_lives", "values": [0, 5]},
                              fake, (2,))
    assert list(variants) == ["dealer_lives=2", "dealer_lives=0", "dealer_lives=5"]
    assert design.baseline == "dealer_lives=2" and design.levels == {"dealer_lives": ("2", "0", "5")}
    assert variants["dealer_lives=2"] == fake.rules.preset("sturdy_dealer")
    variants, design = expand("sweep", {"knob": "max_turns", "values": [3, "None"]}, fake, (2,))
    assert list(variants) == ["max_turns=3", "max_turns=None"] and design.baseline == "max_turns=None"
    assert variants["max_turns=None"].max_turns is None and design.base == "plain"


def test_a_string_form_base_and_boolean_and_none_levels():
    variants, design = expand("factorial", {"base": "turamoska(attack_cap=None)",
                                            "knobs": {"attack_cap": [3, "None"], "trump_two_swap": [True, False]}},
                              registry.spec("moska"), (4,))
    assert design.baseline == "attack_cap=None,trump_two_swap=True"
    assert variants["attack_cap=3,trump_two_swap=False"].continuation == "attack_and_kill"


def test_an_unplayable_combination_is_refused_by_name_or_skipped_when_the_file_says_so():
    table = {"base": "official", "knobs": {"deck": ["classic", "2018"], "custom_wild": ["wild", "swap_hands"]}}
    with pytest.raises(DesignError, match=r"^factorial: the combination deck=classic,custom_wild=swap_hands cannot "
                                          r"be played \(uno knob custom_wild='swap_hands' needs deck='2018'.*"
                                          r"skip_unplayable = true leaves such combinations out$"):
        expand("factorial", table, registry.spec("uno"), (4,))
    variants, design = expand("factorial", table | {"skip_unplayable": True}, registry.spec("uno"), (4,))
    assert list(variants) == ["deck=classic,custom_wild=wild", "deck=2018,custom_wild=wild",
                              "deck=2018,custom_wild=swap_hands"]
    assert design.skipped == ("deck=classic,custom_wild=swap_hands",)


def test_a_combination_too_large_for_a_player_count_is_unplayable():
    table = {"base": "moska", "knob": "hand_size", "values": [6, 8]}
    with pytest.raises(DesignError, match="the combination hand_size=8 cannot be played .moska: 7 players x "):
        expand("sweep", table, registry.spec("moska"), (4, 7))
    variants, design = expand("sweep", table | {"skip_unplayable": True}, registry.spec("moska"), (4, 7))
    assert list(variants) == ["hand_size=6"] and design.skipped == ("hand_size=8",)


@pytest.mark.parametrize("kind, table, message", [
    ("sweep", {"knob": "lives"}, "sweep.values: missing; a sweep needs knob and values"),
    ("sweep", {"knob": "lifes", "values": [1]}, "sweep.values: unknown fakegame knob 'lifes'; known knobs: lives,"),
    ("sweep", {"knob": 3, "values": [1]}, "sweep.knob: expected a knob name, not 3"),
    ("sweep", {"knob": "lives", "values": []}, "sweep.values: expected a non-empty list of values, not []"),
    ("sweep", {"knob": "lives", "values": 3}, "sweep.values: expected a non-empty list of values, not 3"),
    ("sweep", {"knob": "lives", "values": [1, 10]},
     "sweep.values[1]: fakegame knob lives=10 is invalid: expected an integer >= 1 <= 9"),
    ("sweep", {"knob": "lives", "values": [1, "None"]},
     "sweep.values[1]: fakegame knob lives='None' is invalid: expected an integer >= 1 <= 9"),
    ("sweep", {"knob": "lives", "values": [3, 4, 3]}, "sweep.values: the value 3 is listed twice"),
    ("sweep", {"knob": "lives", "values": [3], "base": "hard"}, "sweep.base: unknown fakegame preset 'hard'"),
    ("sweep", {"knob": "lives", "values": [3], "skip_unplayable": "yes"},
     "sweep.skip_unplayable: expected true or false, not 'yes'"),
    ("sweep", {"knob": "lives", "values": [3], "knobs": {}}, "sweep.knobs: unknown key; allowed keys: base, knob,"),
    ("factorial", {"base": "plain"}, "factorial.knobs: missing; a factorial needs a table of knob = [values]"),
    ("factorial", {"knobs": {}}, "factorial.knobs: expected a table of knob = [values], not {}"),
    ("factorial", {"knobs": {"lives": [2], "dealer_lives": [True]}},
     "factorial.knobs.dealer_lives[0]: fakegame knob dealer_lives=True is invalid"),
    ("factorial", 3, "factorial: expected a table, not 3"),
])
def test_bad_sweeps_and_factorials_are_one_line_naming_the_key(fake, kind, table, message):
    with pytest.raises(DesignError) as err:
        expand(kind, table, fake, (2,))
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_contrasts_weigh_each_cell_by_its_share_of_the_other_knobs_combinations(fake):
    _, design = expand("factorial", FACTORIAL, fake, (2,))
    main = {(c["knob"], c["level"]): c for c in contrasts(design) if c["effect"] == "main"}
    assert set(main) == {("lives", "3"), ("dealer_lives", "1"), ("dealer_lives", "2")}
    assert main[("lives", "3")]["weights"] == pytest.approx(
        {f"lives={a},dealer_lives={d}": (1 if a == 3 else -1) / 3 for a in (2, 3) for d in (0, 1, 2)})
    assert main[("dealer_lives", "2")]["combinations"] == 2
    inter = [c for c in contrasts(design) if c["effect"] == "interaction"]
    assert [(c["level"], c["level_b"]) for c in inter] == [("3", "1"), ("3", "2")]
    assert inter[1]["weights"] == {"lives=3,dealer_lives=2": 1, "lives=3,dealer_lives=0": -1,
                                   "lives=2,dealer_lives=2": -1, "lives=2,dealer_lives=0": 1}


# A fixed table of records: 2 players, games 0..3, six cells (lives, dealer_lives); game 3 of
# lives=3,dealer_lives=2 is truncated (loser -1).
LOSERS = {(2, 0): [0, 1, 0, 1], (2, 1): [0, 0, 1, 1], (2, 2): [1, 0, 0, 1],
          (3, 0): [1, 1, 0, 0], (3, 1): [0, 1, 1, 0], (3, 2): [1, 1, 1, -1]}
TURNS = {(2, 0): [10, 20, 30, 40], (2, 1): [11, 22, 33, 44], (2, 2): [12, 20, 31, 40],
         (3, 0): [15, 25, 35, 45], (3, 1): [15, 20, 30, 40], (3, 2): [16, 26, 36, 99]}


def _records():
    return pd.concat([pd.DataFrame({"variant": f"lives={a},dealer_lives={d}", "players": 2, "policy": "random",
                                    "game": range(4), "turns": TURNS[a, d], "truncated": [x < 0 for x in losers],
                                    "loser": losers}) for (a, d), losers in LOSERS.items()], ignore_index=True)


def test_effects_of_a_fixed_factorial_equal_the_contrasts_worked_by_hand(fake):
    _, design = expand("factorial", FACTORIAL, fake, (2,))
    table = effects(_records(), design, measures(["game", "turns", "truncated", "loser"]), "fakegame")
    assert list(table.columns) == list(COLUMNS)
    rows = {(r.effect, r.knob, r.level, r.knob_b, r.level_b, r.measure): r for r in table.itertuples()}
    # 3 main effects + 2 interactions, each on loser_rate_0, loser_rate_1 and turns_mean
    assert len(table) == 5 * 3 and set(table.players) == {2} and set(table.game) == {"fakegame"}

    def check(key, per_game, combinations):
        r = rows[key]
        assert (r.estimate, r.lo, r.hi) == pytest.approx(paired_mean(np.array(per_game)))
        assert (r.games, r.combinations) == (len(per_game), combinations)

    # seat 0 indicators [loser = 0], per cell:
    #   (2,0) 1 0 1 0   (2,1) 1 1 0 0   (2,2) 0 1 1 0   (3,0) 0 0 1 1   (3,1) 1 0 0 1   (3,2) 0 0 0 0
    # main lives=3: per game, the mean over dealer_lives of (3,d) - (2,d)
    check(("main", "lives", "3", "", "", "loser_rate_0"), [-1 / 3, -2 / 3, -1 / 3, 2 / 3], 3)
    # main dealer_lives=1 (and =2): the mean over lives of (a,1) - (a,0)
    check(("main", "dealer_lives", "1", "", "", "loser_rate_0"), [1 / 2, 1 / 2, -1, 0], 2)
    check(("main", "dealer_lives", "2", "", "", "loser_rate_0"), [-1 / 2, 1 / 2, -1 / 2, -1 / 2], 2)
    # interactions: (3,d) - (3,0) - (2,d) + (2,0)
    check(("interaction", "lives", "3", "dealer_lives", "1", "loser_rate_0"), [1, -1, 0, 0], 1)
    check(("interaction", "lives", "3", "dealer_lives", "2", "loser_rate_0"), [1, -1, -1, -1], 1)
    # seat 1: the truncated game counts for no seat: (3,2) seat 1 is 1 1 1 0
    check(("main", "lives", "3", "", "", "loser_rate_1"), [1 / 3, 2 / 3, 1 / 3, -1], 3)
    # lengths: a game truncated in any cell of the contrast is left out (game 3 here)
    check(("main", "lives", "3", "", "", "turns_mean"), [13 / 3, 3, 7 / 3], 3)
    check(("main", "dealer_lives", "1", "", "", "turns_mean"), [0.5, -1.5, -1, -0.5], 2)
    check(("interaction", "lives", "3", "dealer_lives", "2", "turns_mean"), [16 - 15 - 12 + 10, 26 - 25 - 20 + 20,
                                                                              36 - 35 - 31 + 30], 1)


def test_effects_of_a_sweep_are_the_paired_differences_of_the_summary(fake):
    _, design = expand("sweep", {"knob": "dealer_lives", "values": [0, 1, 2]}, fake, (2,))
    records = _records().loc[lambda r: r.variant.str.startswith("lives=2,")]
    records = records.assign(variant=records.variant.str.removeprefix("lives=2,"))
    m = measures(list(records.columns))
    table = effects(records, design, m, "fakegame")
    summary = summarize(records, "fakegame", design.baseline).set_index("variant")
    assert len(table) == 2 * 3
    for r in table.itertuples():
        s = summary.loc[f"dealer_lives={r.level}"]
        seat = r.measure.startswith("loser_rate_")
        names = ([f"loser_diff{x}_{r.measure[-1]}" for x in ("", "_lo", "_hi")] if seat
                 else [f"turns_diff{x}" for x in ("", "_lo", "_hi")])
        assert (r.estimate, r.lo, r.hi) == pytest.approx(tuple(s[names]))


def test_effects_refuse_records_that_cannot_be_paired(fake):
    _, design = expand("factorial", FACTORIAL, fake, (2,))
    m = measures(["game", "turns", "truncated", "loser"])
    with pytest.raises(ValueError, match="variants at 2 players do not hold the same game indices"):
        effects(_records().iloc[1:], design, m, "fakegame")
    with pytest.raises(ValueError, match="no records of variant lives=3,dealer_lives=2 at 2 players"):
        effects(_records().loc[lambda r: r.variant != "lives=3,dealer_lives=2"], design, m, "fakegame")


def test_a_contrast_across_decks_is_marked_unpaired(fake):
    """``paired`` is False where a contrast compares cells that shuffle different decks (``Rules.same_deck``)
    at some combination of the other knobs: here the deck follows ``lives``, so the effect of
    ``dealer_lives`` (compared within each ``lives``) stays paired."""
    _, design = expand("factorial", FACTORIAL, fake, (2,))

    class Deck:  # stands for rules whose deck follows `lives`
        def __init__(self, variant):
            self.deck = variant.split(",")[0]

        def same_deck(self, other):
            return self.deck == other.deck
    table = effects(_records(), design, measures(["game", "turns", "truncated", "loser"]), "fakegame",
                    {v: Deck(v) for v in design.cells})
    paired = table.drop_duplicates(["effect", "knob", "level", "knob_b", "level_b"]).set_index(
        ["effect", "knob", "level", "level_b"]).paired
    assert paired.to_dict() == {("main", "lives", "3", ""): False, ("main", "dealer_lives", "1", ""): True,
                                ("main", "dealer_lives", "2", ""): True, ("interaction", "lives", "3", "1"): False,
                                ("interaction", "lives", "3", "2"): False}
