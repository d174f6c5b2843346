"""Replays (core/records.py ``Replay``, ``Setup``, ``EventBook``) for every game: the header's command
re-creates the game; the events table has the book's columns and dtypes; every decision appears with
its number, 0 .. turns-1; the text, csv and json forms show the same events; recording is not policy."""
import io
import json
import shlex

import pandas as pd
import pytest

import cardsim
from cardsim.cli import main
from cardsim.core.records import EVENTS

CASES = [
    ("moska", "taraki", 4, "random"),
    ("moska", "turamoska(attack_cap=None, excess_return='last')", 3, ["greedy", "random", "greedy"]),
    ("musta_maija", "turned(hand_size=5)", 6, "greedy"),
    ("uno", "deck_2018(custom_wild='swap_hands', stack_draw_two=True)", 3,
     ["greedy(bluff=0.5, challenge=1)", "random", "random(bluff=0.2)"]),
    ("uno", "official", 2, "random(bluff=0.3, challenge=0.7)"),
    ("molotow", "mittlere(hands=2)", 3, "random"),
]


@pytest.fixture(params=CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def replay(request):
    game, rules, players, policy = request.param
    return cardsim.replay(game, rules, players=players, seed=9, game=4, policy=policy)


def test_the_header_command_re_creates_the_game(replay, capsys):
    header = str(replay).splitlines()
    assert header[0].startswith(f"{replay.game} {replay.setup.rules.describe()} · {replay.setup.players} players")
    argv = shlex.split(header[1].removeprefix("re-create: "))
    assert argv[:2] == ["cardsim", "replay"]
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out.strip() == str(replay)


def test_the_events_table_has_the_books_columns_and_every_decision(replay):
    events = replay.events
    assert [c.name for c in replay.book.columns[:len(EVENTS)]] == [c.name for c in EVENTS]
    assert list(events.columns) == [c.name for c in replay.book.columns]
    assert [str(t) for t in events.dtypes] == [str(pd.Series([], dtype=c.dtype).dtype) for c in replay.book.columns]
    numbers = events.decision.dropna().astype(int).tolist()
    assert numbers == sorted(numbers) and sorted(set(numbers)) == list(range(replay.record["turns"]))
    assert set(events.action) <= set(replay.book.phrases)
    assert events.action.iloc[-replay.setup.players:].tolist() == ["final"] * replay.setup.players


def test_text_csv_and_json_show_the_same_events(replay):
    lines = str(replay).splitlines()[3:-1]
    assert len(lines) == len(replay.events)
    table = pd.read_csv(io.StringIO(replay.render("csv")), dtype=str, keep_default_na=False)
    assert table.action.tolist() == replay.events.action.tolist() == [e["action"] for e in
                                                                      json.loads(replay.render("json"))["events"]]
    doc = json.loads(replay.render("json"))
    assert doc["record"] == replay.record and doc["policies"] == list(replay.setup.policies)
    with pytest.raises(ValueError, match="unknown replay format 'xml'; known formats: text, csv, json"):
        replay.render("xml")


def test_a_replay_is_the_same_twice(replay):
    again = cardsim.replay(replay.game, replay.setup.rules, players=replay.setup.players, seed=9, game=4,
                           policy=list(replay.setup.policies))
    pd.testing.assert_frame_equal(again.events, replay.events)
