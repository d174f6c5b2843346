"""Every output that seats the ``oracle`` says it is not a fair player: ladder text and plot title, compare
table, HTML report; outputs without it are unchanged (no note)."""
from cardsim.cli import main
from cardsim.core.search import is_unfair, unfair_note
from cardsim.study.ladder import files as ladder_files
from cardsim.study.ladder.run import ladder_study

NOTE = "not a fair player"


def test_the_note_names_the_oracle_wherever_it_sits():
    assert is_unfair("oracle") and is_unfair("greedy,oracle(determinizations=4),mc")
    assert not is_unfair("mc(determinizations=4)") and not is_unfair("greedy")
    assert "oracle(base=random) sees every hand" in unfair_note(["mc", "oracle(base=random)"])
    assert unfair_note(["mc", "greedy"]) == ""


def test_a_ladder_with_the_oracle_says_so_in_its_title_text_and_plot():
    with_oracle = ladder_study("moska", policies="greedy,oracle", players=4, games=10, seed=1)
    assert NOTE in ladder_files.title(with_oracle)
    assert NOTE not in ladder_files.title(ladder_study("moska", policies="greedy,mc", players=4, games=10, seed=1))


def test_compare_with_the_oracle_says_so(capsys):
    assert main(["compare", "moska", "moska", "turamoska", "--policy", "oracle,greedy,greedy,greedy", "greedy",
                 "--games", "30", "--quiet"]) == 0
    out = capsys.readouterr().out
    blocks = out.split("moska, 4 players, policy ")
    (oracle,) = [b for b in blocks if b.startswith("oracle")]
    (greedy,) = [b for b in blocks if b.startswith("greedy")]
    assert NOTE in oracle and NOTE not in greedy
