"""Training ``learned`` policies: expert iteration over a game's compiled engine
(docs/ladder.md#learned-players-training-models-generations)."""
