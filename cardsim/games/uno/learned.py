"""Uno's ``learned`` models (``core/models.py``), checked against ``learned_features``: below the compiled
engine, which plays their weights, and above ``policies.py``, which names a model but never loads one."""
from cardsim.core.models import Models
from cardsim.games.uno import learned_features
from cardsim.games.uno.policies import DEFAULT_MODEL, parse_policy

MODELS = Models("uno", learned_features, DEFAULT_MODEL, parse_policy)
load_model, warn_other_rules = MODELS.load, MODELS.warn_other_rules
