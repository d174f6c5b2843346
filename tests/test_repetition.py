"""core/repetition.py, the repetition rule's memory (M-23, MM-18): the compiled engines' ring of fingerprints,
kept only since a card last left play, stops exactly where the reference engines' window of every position does,
on any sequence of round beginnings (hypothesis), the window of 64 included."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.core import repetition
from cardsim.core.repetition import WINDOW, Positions

STATE = np.dtype([("seen", np.uint64, (WINDOW,)), ("n_seen", np.int64), ("epoch", np.int64),
                  ("position", np.uint64, (3,)), ("first", np.uint64, (3,))])
"""The ``repetition.FIELDS`` of a compiled state, alone."""


def compiled_stops(rounds):
    """The index of the first round beginning ``repetition.repeats`` stops, or None."""
    state = np.zeros(1, STATE)
    repetition.forget(state[0])
    for i, (discarded, a, b) in enumerate(rounds):
        state["position"][0] = (a, b, 1000 + discarded)  # a position's words imply its discard pile, as hands do
        if repetition.repeats(state[0], 3, discarded):
            return i
    return None


def reference_stops(rounds):
    seen = Positions()
    for i, (discarded, a, b) in enumerate(rounds):
        if seen.recurs((a, b, discarded)):
            return i
    return None


@st.composite
def round_beginnings(draw):
    """Positions a game's rounds begin in: the discard pile only grows, and within a stretch without discards
    the positions come from a few (so they recur) or from many (so the window of 64 matters)."""
    out, discarded = [], 0
    for _ in range(draw(st.integers(1, 6))):
        discarded += draw(st.integers(0, 3))
        kinds = draw(st.sampled_from([3, 20, 200]))
        out += [(discarded, draw(st.integers(0, 3)), draw(st.integers(0, kinds)))
                for _ in range(draw(st.integers(1, 150)))]
    return out


@settings(max_examples=300)
@given(round_beginnings())
def test_the_compiled_memory_stops_where_the_reference_window_does(rounds):
    assert compiled_stops(rounds) == reference_stops(rounds)


def test_a_position_older_than_the_window_is_forgotten_in_both():
    rounds = [(0, 0, i) for i in range(WINDOW + 1)] + [(0, 0, 0)]
    assert compiled_stops(rounds) is None and reference_stops(rounds) is None
    rounds = [(0, 0, i) for i in range(WINDOW)] + [(0, 0, 0)]
    assert compiled_stops(rounds) == reference_stops(rounds) == WINDOW


def test_a_discard_starts_a_new_stretch_whose_first_position_is_fingerprinted_only_when_needed():
    state = np.zeros(1, STATE)
    repetition.forget(state[0])
    state["position"][0] = (1, 2, 3)
    assert not repetition.repeats(state[0], 3, 5)
    assert state[0]["epoch"] == 5 and state[0]["n_seen"] == -1 and list(state[0]["first"]) == [1, 2, 3]
    state["position"][0] = (1, 2, 4)
    assert not repetition.repeats(state[0], 3, 5)
    assert state[0]["n_seen"] == 2
    state["position"][0] = (1, 2, 3)
    assert repetition.repeats(state[0], 3, 5)
