"""User policies for the tests: ones that play, and one per way a policy can fail.

The failing ones play game 0 through and fail in game 1 from decision 3 on, so a study of them
has finished work before the failure."""
import time


def first(view, legal):
    """Always the first legal decision (index 0)."""
    return 0


def numpy_index(view, legal):
    """The last decision's index as a numpy integer (what ``np.argmax`` gives)."""
    import numpy as np
    return np.int64(min(len(legal), 50) - 1)


def last(view, legal):
    """The last legal decision, as a ``Decision`` (the first of very long lists)."""
    return legal[len(legal) - 1] if len(legal) < 200 else legal[0]


class Counter:
    """A class: instantiated per seat, reset before each game; takes decision ``k % len(legal)``."""

    def reset(self, seat, game_index):
        self.k = seat + game_index

    def decide(self, view, legal):
        self.k += 1
        return self.k % min(len(legal), 50)


class Failing:
    """Plays index 0 until game 1's decision 3, then fails in its own way (``fail``)."""

    def reset(self, seat, game_index):
        self.game = game_index

    def decide(self, view, legal):
        if self.game >= 1 and view["turn"] >= 3:
            return self.fail(legal)
        return 0


class Illegal(Failing):
    def fail(self, legal):
        return len(legal) + 7


class Raises(Failing):
    def fail(self, legal):
        raise RuntimeError("my policy broke")


class Hangs(Failing):
    def fail(self, legal):
        while True:
            time.sleep(0.01)


class Patient(Hangs):
    """Declares its own per-decision limit (``timeout`` attribute) instead of the default."""
    timeout = 0.4


class BadlyPatient(Counter):
    timeout = "forever"


NOT_A_POLICY = 42
"""Neither callable nor with ``decide``: naming it is an error."""
