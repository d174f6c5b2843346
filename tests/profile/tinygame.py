"""A tiny constructed game whose balance is known, for the profile's tests: "lowest card loses".

Not registered in cardsim: tests install it with ``install(monkeypatch)``. Each seat is dealt
``hand_size`` cards (T-1: one permutation of 52, seat s takes cards ``s*h .. s*h+h-1``); the
seats play one card each, from seat 1 clockwise, the dealer (seat 0) last (T-2); before its
play a seat may **knock** (T-3: it changes nothing). The seat that played the lowest card
(rank, then suit) loses (T-4). Knobs that make the answer known:

- ``rigged``: seat 0 loses whatever is played (T-5): fairness must find seat 0's edge 1 - 1/N;
- ``dealt``: the seat *dealt* the lowest card loses whatever is played (T-6): the deal
  decides every game, so the luck of the deal is 1.

Policies: ``random`` plays a random card and knocks on a coin flip; ``greedy`` knocks and plays
its highest card. Options (``GameSpec.options``, ``forbid=``): ``knock`` (T-3, cannot matter) and
``top`` (playing one's highest card: forbidden, the seat plays its second highest when it holds
two or more cards, so it loses more often). ``deal_features`` (per seat, the ordinal of its
lowest and highest dealt card) is what the luck-of-the-deal predictor reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

import cardsim.games
from cardsim.core import rng
from cardsim.core.deals import permutations
from cardsim.core.game import GameSpec
from cardsim.core.records import COMMON, EVENT_PHRASES, EVENTS, Column, EventBook, Replay, Setup, sizes
from cardsim.core.rules import Rules, knob, parse_call

NAME = "tinygame"
OPTIONS = {"knock": "knocking before a play (T-3; it changes nothing)",
           "top": "playing one's highest card (T-2)"}
BOOK = EventBook(EVENTS, lambda raw: raw, EVENT_PHRASES | {"knock": "seat {seat} knocks",
                                                           "play": "seat {seat} plays {cards}"})


@dataclass(frozen=True)
class TinyRules(Rules):
    GAME: ClassVar[str] = NAME
    PRESETS: ClassVar[dict] = {"plain": {}, "rigged": {"rigged": True}, "dealt": {"dealt": True}}
    DEFAULT_PRESET: ClassVar[str] = "plain"

    hand_size: int = knob(3, "cards dealt to each seat (T-1)", minimum=1, maximum=5)
    rigged: bool = knob(False, "seat 0 loses whatever is played (T-5)")
    dealt: bool = knob(False, "the seat dealt the lowest card loses (T-6)")


def order(card: int) -> int:
    """A card's place from lowest to highest: rank first, then suit (codes are suit * 13 + rank)."""
    return (card % 13) * 4 + card // 13


def _policy(text: str) -> tuple[str, str | None]:
    name, kwargs = parse_call(text)
    forbid = kwargs.pop("forbid", None)
    if kwargs or (forbid is not None and forbid not in OPTIONS):
        raise ValueError(f"tinygame policy {text!r}: the only parameter is forbid, one of {', '.join(OPTIONS)}")
    return name, forbid


def play(rules: TinyRules, players: int, seed: int, game: int, policies: tuple[str, ...]) -> Replay:
    seats = [_policy(p) for p in policies]
    key = rng.game_key(seed, game)
    deck = rng.permutation(key, rng.Stream.DEAL, 52)
    h = rules.hand_size
    hands = [sorted(deck[s * h:(s + 1) * h], key=order) for s in range(players)]  # T-1
    held = [h] * players
    log = [(None, s, "deal", "", -1, sizes(held)) for s in range(players)]
    played = [0] * players
    for turn, seat in enumerate([*range(1, players), 0]):  # T-2
        name, forbid = seats[seat]
        coin = rng.below(rng.draw(key, rng.Stream.POLICY, turn, 0), 2)
        if forbid != "knock" and (name == "greedy" or coin):  # T-3
            log.append((turn, seat, "knock", "", -1, sizes(held)))
        options = hands[seat][:-1] if forbid == "top" and h > 1 else hands[seat]
        pick = options[-1] if name == "greedy" else options[rng.below(rng.draw(key, rng.Stream.POLICY, turn, 1),
                                                                       len(options))]
        played[seat], held[seat] = pick, held[seat] - 1
        log.append((turn, seat, "play", str(pick), -1, sizes(held)))
    if rules.rigged:  # T-5
        loser = 0
    elif rules.dealt:  # T-6
        loser = min(range(players), key=lambda s: order(hands[s][0]))
    else:  # T-4
        loser = min(range(players), key=lambda s: order(played[s]))
    record = {"game": game, "turns": players, "truncated": False, "loser": loser}
    return Replay(NAME, record, log, Setup(NAME, rules, players, seed, game, tuple(policies)), BOOK)


def deal_features(rules: TinyRules, players: int, seed: int, games: np.ndarray) -> np.ndarray:
    """(games x 2 * players): per seat, the place of its lowest and of its highest dealt card."""
    h = rules.hand_size
    places = (permutations(seed, games, 52) % 13) * 4 + permutations(seed, games, 52) // 13
    out = [f(places[:, s * h:(s + 1) * h], axis=1) for s in range(players) for f in (np.min, np.max)]
    return np.stack(out, axis=1).astype(float)


COLUMNS = COMMON + (Column("loser", "int64", "the seat that played the lowest card (T-4)"),)
GAME = GameSpec(NAME, TinyRules, 2, 6, ("random", "greedy"), COLUMNS, play, rules_page="tests/profile/tinygame.py",
                options=OPTIONS)


def install(monkeypatch) -> None:
    """Register the game for one test module (``cardsim.games.register``, undone afterwards)."""
    monkeypatch.setattr(cardsim.games, "GAMES", cardsim.games.GAMES)
    monkeypatch.setattr(cardsim.games, "_REGISTERED", dict(cardsim.games._REGISTERED))
    cardsim.games.register(GAME)
