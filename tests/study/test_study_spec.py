"""The study file: the shipped example, the None spelling, per-seat policies, every
one-line error (file, key, what was expected), and the manifest round trip."""
from pathlib import Path

import pytest

from cardsim.study.plan.spec import Study, StudyError, load
from fakegame import STUDY

ROOT = Path(__file__).resolve().parents[2]


def test_a_study_file_reads_into_cells_in_file_order(write_study):
    s = load(write_study())
    assert (s.name, s.game, s.seed, s.games, s.players, s.baseline, s.engine) == (
        "fake_study", "fakegame", 11, 40, (2, 3), "plain", "compiled")
    cells = s.cells()
    # 3 variants x (self-play at 2 and 3 players + the 3-seat list at 3 players only)
    assert len(cells) == 3 * 3
    assert [(c.variant, c.players, c.policy) for c in cells[:4]] == [
        ("plain", 2, "random"), ("plain", 3, "random"), ("plain", 3, "greedy,random,random"), ("sturdy", 2, "random")]
    assert cells[1].seats == ("random",) * 3 and cells[2].seats == ("greedy", "random", "random")


def test_the_string_None_spells_None_and_knobs_override_the_preset(write_study):
    s = load(write_study())
    assert s.variants["unlimited_short"].max_turns is None
    assert s.variants["sturdy"].dealer_lives == 2
    assert s.variants["plain"] == type(s.variants["plain"]).preset("plain")


def test_baseline_defaults_to_the_first_variant(write_study):
    assert load(write_study(**{'baseline = "plain"\n': ""})).baseline == "plain"


def test_manifest_round_trip_gives_the_same_study(write_study):
    import json

    s = load(write_study())
    again = Study.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again == s
    assert again.cells() == s.cells()


def test_with_games_overrides_only_the_number_of_games(write_study):
    s = load(write_study())
    assert s.with_games(7) == Study(**{**s.__dict__, "games": 7})
    with pytest.raises(StudyError, match=r"--games: expected an integer >= 1 and < 2\*\*63, not 0"):
        s.with_games(0)


@pytest.mark.parametrize("old, new, message", [
    ("seed = 11", "seed = 11\nfrobnicate = 1", "frobnicate: unknown key; allowed keys: name, game"),
    ("games = 40", 'games = "many"', "games: expected an integer >= 1 and < 2**63, not 'many'"),
    ("seed = 11", "seed = -1", "seed: expected an integer >= 0 and < 2**64, not -1"),
    ("seed = 11", "seed = 18446744073709551616", "seed: expected an integer >= 0 and < 2**64, not 18446744073709551616"),
    ("games = 40", "games = 9223372036854775808", "games: expected an integer >= 1 and < 2**63, not 9223372036854775808"),
    ("players = [2, 3]", "players = [[2], 3]", "players: expected an integer or a list of integers, not [[2], 3]"),
    ('game = "fakegame"', 'game = "poker"', "game: unknown game 'poker'; known games: molotow, moska"),
    ("players = [2, 3]", "players = [2, 9]", "players: variant plain: fakegame is played by 2 to 6 players, not 9"),
    ("players = [2, 3]", "players = [2, 2]", "players: expected distinct player counts"),
    ('policies = ["random"', 'policies = ["random", "bluffer"',
     "policies[1]: unknown fakegame policy 'bluffer'; known policies: random, greedy"),
    ('["greedy", "random", "random"]', '["greedy", "random", "random", "random"]',
     "policies[1]: 4 seat policies match no player count of [2, 3]"),
    ('["greedy", "random", "random"]', '["greedy", "random", "cheat"]',
     "policies[1]: unknown fakegame policy 'cheat'; known policies: random, greedy"),
    ('policies = ["random",', 'policies = ["random", "random",',
     "policies[1]: 'random' is policies[0] (random) again; expected distinct policies"),
    ('policies = ["random",', 'policies = ["random", " random() ",',
     "policies[1]: ' random() ' is policies[0] (random) again; expected distinct policies"),
    ('policies = ["random",', 'policies = ["random(depth=3)",',
     "policies[0]: fakegame policy 'random(depth=3)' takes no parameters"),
    ('policies = ["random",', 'policies = ["random(",', "policies[0]: cannot read 'random('"),
    ('preset = "plain"', 'preset = "plain(lives=3, lives=4)"', "variants.plain.preset: cannot read "
     "'plain(lives=3, lives=4)': lives is given twice"),
    ('baseline = "plain"', 'baseline = "nope"', "baseline: 'nope' is not a variant; variants: plain, sturdy, unlimited"),
    ('engine = "compiled"', 'engine = "quantum"', "engine: unknown engine 'quantum'; known engines: compiled, reference"),
    ('name = "fake_study"', 'name = "a/b"', "name: expected a folder-safe name"),
    ('preset = "plain"', 'preset = "hardcore"',
     "variants.plain.preset: unknown fakegame preset 'hardcore'; known presets: plain, sturdy_dealer, short"),
    ('preset = "plain"', "preset = 3", "variants.plain.preset: expected a preset name; known presets: plain,"),
    ('max_turns = "None"', 'max_turns = "lots"',
     "variants.unlimited_short: fakegame knob max_turns='lots' is invalid: expected an integer >= 1 or None"),
    ('preset = "sturdy_dealer"', 'preset = "sturdy_dealer"\nlifes = 3',
     "variants.sturdy: unknown fakegame knob 'lifes'; known knobs: lives, dealer_lives, max_turns"),
    ("[variants.plain]", "[variants]\nplain = 3\n[variants.other]", "variants.plain: expected a table, not 3"),
])
def test_bad_study_files_are_one_clear_line(write_study, old, new, message):
    path = write_study(**{old: new})
    with pytest.raises(StudyError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: {message}")
    assert "\n" not in str(err.value)


def test_missing_malformed_and_incomplete_files(write_study, tmp_path):
    with pytest.raises(StudyError, match=r"nope\.toml: no such study file"):
        load(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [unclosed\n")
    with pytest.raises(StudyError, match=r"bad\.toml: not valid TOML"):
        load(bad)
    with pytest.raises(StudyError, match=r"study\.toml: seed: missing; a study needs name, game, seed"):
        load(write_study(**{"seed = 11\n": ""}))
    with pytest.raises(StudyError, match=r"variants: expected a table, not 3"):
        load(write_study(STUDY.split("[variants.plain]")[0] + "variants = 3\n"))


def test_a_seed_up_to_2_64_minus_1_and_equivalent_policy_spellings_are_one_policy(write_study):
    s = load(write_study(**{"seed = 11": "seed = 18446744073709551615",
                            'policies = ["random", ["greedy", "random", "random"]]':
                            'policies = [" random()", ["greedy()", "random", " random "]]'}))
    assert s.seed == 2**64 - 1 and s.policies == ("random", ("greedy", "random", "random"))
    assert [c.policy for c in s.cells()][:3] == ["random", "random", "greedy,random,random"]


@pytest.mark.parametrize("raw, message", [
    (b"\xef\xbb\xbf" + STUDY.encode(), "starts with a byte-order mark; save it as UTF-8 without BOM (TOML)"),
    (STUDY.replace("the fake game", "le jeu d\u00e9mo").encode("latin-1"),
     "not UTF-8 (byte 43: b'\\xe9'); TOML files are UTF-8"),
    (b"name = " + b"[" * 100_000, "not valid TOML"),
])
def test_a_study_file_that_is_not_utf8_toml_is_one_line(tmp_path, fake, raw, message):
    path = tmp_path / "study.toml"
    path.write_bytes(raw)
    with pytest.raises(StudyError) as err:
        load(path)
    assert str(err.value).startswith(f"{path}: {message}") and "\n" not in str(err.value)


def test_a_folder_given_as_a_study_file_is_one_line(tmp_path):
    with pytest.raises(StudyError, match=f"{tmp_path}: a folder, not a study file"):
        load(tmp_path)


def test_the_shipped_moska_experiment_reads():
    s = load(ROOT / "experiments" / "moska_variants.toml")
    assert list(s.variants) == ["moska", "turamoska", "turamoska_nocap", "pyhaselka", "taraki"]
    assert s.players == (2, 3, 4, 5, 6) and s.policies == ("random", "greedy") and s.baseline == "moska"
    assert s.variants["turamoska_nocap"] == s.variants["turamoska"].replace(attack_cap=None)
    for name in ("moska", "turamoska", "pyhaselka", "taraki"):
        assert s.variants[name] == type(s.variants[name]).preset(name)


@pytest.mark.parametrize("path", sorted((ROOT / "experiments").glob("*.toml")), ids=lambda p: p.name)
def test_every_shipped_study_file_reads(path):
    s = load(path)
    assert s.cells() and s.baseline in s.variants
