"""Training environments over the step API (``cardsim.new_game``): PettingZoo and OpenSpiel.

- ``cardsim.envs.pettingzoo.env(game, rules=..., players=..., seed=...)``: a PettingZoo AEC env;
- ``cardsim.envs.openspiel``: every game registered as an OpenSpiel Python game
  (``pyspiel.load_game("cardsim_moska", {...})``), with ``resample_from_infostate`` for ISMCTS;
- ``cardsim.envs.ismcts.openspiel_ismcts(simulations=N)``: OpenSpiel's ISMCTS bot as a cardsim seat;
- ``cardsim.envs.vector.UnoTables(n, ...)``: ``n`` Uno tables stepped in one compiled call, with the same
  action ids and observations (no extra needed).

Both environments speak one fixed action space per game (``actions``: a protocol decision is a
short sequence of tokens, e.g. the cards of a Moska addition one by one) and one fixed-shape
observation per game (``observation``: the seat's view as arrays). They need the ``rl`` extra
(``pip install "cardsim[rl]"``); the rest of this package does not.
"""
