"""Keep my trumps until the stock is out: a Moska player of one's own (docs/play.md)."""

RANKS = 13  # Moska's cards: code = suit * 13 + rank (cardsim.core.cards.FRENCH52)


def keep_trumps(view, legal):
    """Of the first 200 legal decisions, the one that spends the fewest trumps while the stock
    holds cards, then gets rid of the most cards; ties to the earliest (legal's order)."""
    if view["kind"] == "give_back":
        return 0

    def cost(decision):
        cards, kills, pairs = decision.move
        spent = [c for c in range(52) if cards >> c & 1] + [k for _, k in kills + pairs]
        trumps = sum(c // RANKS == view["trump"] for c in spent)
        return (trumps if view["stock"] > 0 else 0, -len(spent))

    return min(legal[:200], key=cost)
