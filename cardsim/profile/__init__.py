"""Balance profiles: what a rule does to a game's fairness, skill, luck, options and length.

A **profile** of one or more variants of a game is a study made for the purpose
(``design``: self-play of the profiled player, a small ladder, restricted seatings), run and
verified by the study layer, whose own files (``files``) hold one figure per measure module,
each with its 95% interval and, where it tests something, its correction for many comparisons:

- ``fairness``: the seat edge and spread under the profiled player (dealer-relative seats);
- ``skill``: the ladder's rating gaps and how often the strongest player loses among the weakest;
- ``luck``: how well a predictor of the dealt hands alone names the outcome seat;
- ``options``: the value of each optional action (restricted play, ``forbid=``);
- ``length``: length distribution and how early the outcome is settled (replays).

``cardsim profile GAME VARIANT...`` (``command``) or a study file's ``[profile]`` section runs one;
docs/profiles.md says what every figure means. This package's ``__init__`` imports nothing, so
the study file's reader can import ``design`` without the rest.
"""
