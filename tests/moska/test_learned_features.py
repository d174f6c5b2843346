"""``learned_features.describe`` (mask arithmetic, for speed) gives, on any masks, the features its ``NAMES``
docstring defines card by card (written out here in plain Python): a model plays as it was fitted."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cardsim.core import learned
from cardsim.core.cards import FRENCH52
from cardsim.games.moska import compiled
from cardsim.games.moska import learned_features as feat
from cardsim.games.moska.reference import KILL

HIGH = feat.HIGH


def by_card(greedy, spent, left, picked, others, trump, defender_hand) -> list[int]:
    def cards(mask):
        return [c for c in range(52) if mask >> c & 1]

    def trump_(c):
        return FRENCH52.suit(c) == trump

    def rank(c):
        return FRENCH52.rank(c)

    def killers(c):
        return bin(KILL[trump][c] & others).count("1")

    ranks = [sum(1 for c in cards(left) if rank(c) == r) for r in range(13)]
    f = dict(
        greedy=int(greedy), spent=len(cards(spent)), spent_trumps=sum(trump_(c) for c in cards(spent)),
        spent_trump_ranks=sum(rank(c) for c in cards(spent) if trump_(c)),
        spent_plain_ranks=sum(rank(c) for c in cards(spent) if not trump_(c)),
        spent_high_plain=sum(rank(c) >= HIGH for c in cards(spent) if not trump_(c)),
        out=int(left == 0), left=len(cards(left)), left_ranks=sum(n > 0 for n in ranks),
        left_pairs=sum(n >= 2 for n in ranks), left_trumps=sum(trump_(c) for c in cards(left)),
        left_high_trumps=sum(rank(c) >= HIGH for c in cards(left) if trump_(c)),
        left_low_plain=sum(rank(c) < HIGH for c in cards(left) if not trump_(c)),
        left_plain_ranks=sum(rank(c) for c in cards(left) if not trump_(c)),
        left_trump_ranks=sum(rank(c) for c in cards(left) if trump_(c)),
        picked=len(cards(picked)), picked_trumps=sum(trump_(c) for c in cards(picked)),
        killable=sum(killers(c) for c in cards(spent)), unkillable=sum(killers(c) == 0 for c in cards(spent)),
        spent_low_plain=sum(rank(c) < HIGH for c in cards(spent) if not trump_(c)),
        left_unkillable=sum(killers(c) == 0 for c in cards(left)),
        over_defender=max(0, len(cards(spent)) - defender_hand))
    return [f[name] for name in feat.NAMES]


masks = st.integers(0, 2**52 - 1)


@given(st.booleans(), masks, masks, masks, masks, st.integers(0, 3), st.integers(0, 52), masks)
def test_the_features_are_the_card_by_card_definitions(greedy, spent, left, picked, others, trump, hand, extra):
    out = np.zeros(feat.N, np.int64)
    safe = feat.unkillable(np.uint64(spent | left | extra), np.uint64(others), trump)
    feat.describe(out, greedy, np.uint64(spent), np.uint64(left), np.uint64(picked), np.uint64(others), trump,
                  compiled.KILL, hand, safe)
    assert out.tolist() == by_card(greedy, spent, left, picked, others, trump, hand)


@given(st.booleans(), masks, masks, masks, st.integers(0, 3), st.integers(0, 52), st.integers(0, feat.STAGES - 1),
       st.integers(0, 2**32 - 1), st.booleans())
def test_a_folded_score_is_the_score_of_the_features(greedy, hand, spent, others, trump, defender, stage, seed,
                                                     linear):
    """An opening (spent cards from the hand, the rest kept, nothing picked up) scores the same
    from its folded block (``fold``: the hand's ``kept_sums`` once, then ``describe_folded``) as ``score`` of its
    ``describe`` features, for weights up to the largest the table takes, a network's or a linear model's."""
    spent &= hand
    limit = learned.LANE_LIMIT
    weights = np.random.default_rng(seed).integers(-limit + 1, limit, feat.WEIGHTS)
    if linear:
        weights.reshape(feat.BLOCKS, feat.WIDTH)[:, feat.N:] = 0
    block = feat.KINDS.index("open") * feat.STAGES + stage
    safe = feat.unkillable(np.uint64(hand), np.uint64(others), trump)
    x = np.zeros(feat.N, np.int64)
    feat.describe(x, greedy, np.uint64(spent), np.uint64(hand & ~spent), np.uint64(0), np.uint64(others), trump,
                  compiled.KILL, defender, safe)
    table = feat.fold(learned.lanes(weights, feat.N))
    start = stage * feat.FOLD_WIDTH
    kept, folded = np.zeros(feat.N_KEPT, np.int64), np.zeros(feat.N_FOLDED, np.int64)
    feat.kept_sums(kept, np.uint64(hand), trump, safe)
    feat.describe_folded(folded, greedy, np.uint64(spent), np.uint64(hand & ~spent), np.uint64(others), trump,
                         compiled.KILL, defender, safe)
    dots = learned.lane_dots(table, start + feat.KEPT_ROWS, kept, feat.N_KEPT)
    assert learned.lane_score(table, start, folded, feat.N_FOLDED, *dots) == learned.score(weights, block, x, feat.N)
