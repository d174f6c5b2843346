"""A replay drawn as a table of cards (``Replay.boards``, ``Replay.html``, ``_repr_html_`` and the
slider of ``Replay.widget``): every board holds the cards the events say (the hand sizes of every
event, each seat's cards at the end), a seat's view shows nothing the seat cannot see, and the
slider steps through the events."""
import re
from dataclasses import replace

import pytest

import cardsim
from cardsim.core import boards as pictures
from cardsim.games import BUILT_IN, spec

GAMES_PLAYED = [(game, preset, players, policy, seed)
                for game, players in (("moska", 4), ("musta_maija", 3), ("uno", 4), ("molotow", 4))
                for preset in list(spec(game).rules.PRESETS)[:2]
                for policy, seed in (("greedy", 3), ("random", 8))]


def _replay(game, preset, players, policy, seed):
    rules = spec(game).rules.preset(preset)
    players = getattr(rules, "players", players)
    return cardsim.replay(game, rules, players=players, seed=seed, game=seed + 1, policy=policy)


@pytest.mark.parametrize("game, preset, players, policy, seed", GAMES_PLAYED)
def test_every_board_holds_the_cards_the_events_say(game, preset, players, policy, seed):
    t = _replay(game, preset, players, policy, seed)
    assert len(t.boards) == len(t.rows)
    for board, row in zip(t.boards, t.rows):
        assert " ".join(str(len(h)) for h in board.hands) == row["hand_sizes"], row
        if "stock" in row:
            assert board.stock == row["stock"]
    final = {r["seat"]: sorted(r["cards"].split()) for r in t.rows if r["action"] == "final"}
    assert final and {s: sorted(h) for s, h in enumerate(t.boards[-1].hands) if s in final} == final


def test_moska_table_holds_each_attack_card_with_its_kill():
    t = _replay("moska", "moska", 4, "greedy", 3)
    for board, row in zip(t.boards, t.rows):
        on_table = {c for pile in board.table for c in pile}
        if row["action"] in ("open", "lay"):
            assert set(row["cards"].split()) <= on_table
        if row["action"] == "kill" and row["cards"]:
            assert (row["on"], row["cards"]) in {pile for pile in board.table}
        if row["action"] == "pick_up":
            assert board.table == ()
        unkilled = {pile[0] for pile in board.table if len(pile) == 1}
        assert unkilled == set(row["unkilled"].split())


def test_a_seat_view_shows_only_what_the_seat_can_see():
    board = pictures.Board(hands=(("♠A", "♥7"), ("♣2",), ("♦K", "♦Q")), table=(("♣9", "♣J"),), stock=20,
                           state="trump ♣")
    other = replace(board, hands=(("♠A", "♥7"), ("♠3",), ("♥2", "♥3")))
    assert pictures.html(board, "x", seat=0) == pictures.html(other, "x", seat=0)  # the others' cards are hidden
    assert pictures.html(board, "x") != pictures.html(other, "x")
    seen = pictures.html(board, "x", seat=0)
    assert "♦K" not in seen and "♠A" in seen and "♣J" in seen and seen.count("cs-card cs-back") == 3
    assert pictures.html(board, "x", seat=0) != pictures.html(replace(board, hands=(("♠K",), *board.hands[1:])),
                                                            "x", seat=0)


def test_repr_html_draws_the_end_and_html_any_event():
    t = _replay("uno", "official", 4, "greedy", 3)
    assert t._repr_html_() == t.html(-1) == t.html(len(t.rows) - 1)
    assert f"event {len(t.rows) - 1} of {len(t.rows) - 1}" in t._repr_html_()
    assert "uno official · 4 players" in t.html(0)
    first_play = next(i for i, r in enumerate(t.rows) if r["action"] == "play")
    assert f"seat {t.rows[first_play]['seat']} plays {t.rows[first_play]['cards']}" in t.html(first_play)
    assert re.search(r"cs-acting", t.html(first_play))
    with pytest.raises(IndexError, match=f"event {len(t.rows)} is not one of the game's {len(t.rows)} events"):
        t.html(len(t.rows))


def test_the_widget_slides_through_the_events():
    pytest.importorskip("ipywidgets")
    t = _replay("musta_maija", "musta_maija", 3, "greedy", 3)
    box = t.widget(seat=1)
    slider, view = box.children
    assert (slider.min, slider.max, slider.value) == (0, len(t.rows) - 1, 0) and view.value == t.html(0, seat=1)
    slider.value = 17
    assert view.value == t.html(17, seat=1)


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_game_draws_its_board(game):
    assert spec(game).play is not None
    t = _replay(game, list(spec(game).rules.PRESETS)[0], 4 if game != "musta_maija" else 3, "greedy", 1)
    assert "<table class=\"cs-board\">" in t.html(len(t.rows) // 2)
