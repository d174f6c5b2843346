"""An independent check of an Eights replay, written from the README's rules alone (it imports nothing of the
engine): every card in one place, every play legal (E-3, E-4), a draw only when nothing plays (E-5), the
turn order (E-2), the end (E-6, E-7) and the record. ``check(events, record, knobs, players)`` raises
``AssertionError`` naming the event."""
from __future__ import annotations

RANKS, SUITS = "23456789TJQKA", "♣♦♥♠"


def _plays(card: str, top: str, follow: str, wild: bool) -> bool:
    return card[1] == top[1] or card[0] == follow or (wild and card[1] == "8")


def check(events, record: dict, knobs: dict, players: int) -> None:
    rows = events.to_dict("records")
    hands: list[set[str]] = [set() for _ in range(players)]
    seen: set[str] = set()
    top = follow = ""
    seat, passes, draws, eights, turns, end = 1 % players, 0, 0, 0, 0, None
    for i, e in enumerate(rows):
        where = f"event {i} ({e['action']})"
        cards = e["cards"].split()
        assert not (seen & set(cards)) or e["action"] in ("play", "name"), f"{where}: a card comes twice"
        if e["action"] == "deal":
            assert len(cards) == knobs["hand_size"], f"{where}: not hand_size cards (E-1)"
            hands[e["seat"]] |= set(cards)
            seen |= set(cards)
        elif e["action"] == "starter":
            top, follow = cards[0], cards[0][0]
            seen |= set(cards)
        elif e["action"] in ("play", "draw", "pass"):
            assert e["seat"] == seat and e["decision"] == turns, f"{where}: not seat {seat}'s turn {turns} (E-2)"
            options = [c for c in hands[seat] if _plays(c, top, follow, knobs["eights_wild"])]
            if e["action"] == "play":
                assert cards[0] in options, f"{where}: {cards[0]} does not play on {top} with {follow} to follow"
                hands[seat].discard(cards[0])
                top, follow, passes = cards[0], cards[0][0], 0
            else:
                assert not options, f"{where}: seat {seat} holds a playable card (E-5)"
                if e["action"] == "draw":
                    hands[seat].add(cards[0])
                    seen.add(cards[0])
                    draws, passes = draws + 1, 0
                else:
                    assert len(seen) == 52, f"{where}: a pass while the stock holds cards (E-5)"
                    passes += 1
            turns += 1
            if hands[seat] and passes < players:
                seat = (seat + 1) % players
        elif e["action"] == "name":
            assert knobs["eights_wild"] and top[1] == "8", f"{where}: a suit named without a wild eight (E-4)"
            follow, eights = cards[0], eights + 1
        elif e["action"] in ("out", "blocked", "truncated"):
            end = e["action"]
        sizes = [int(n) for n in e["hand_sizes"].split()]
        assert sizes == [len(h) for h in hands], f"{where}: hand sizes {sizes}, the cards say {[len(h) for h in hands]}"
    assert len(seen) <= 52, "more than 52 cards"
    if end == "out":
        assert not hands[seat] and record["winner"] == seat, "the seat out of cards is not the winner (E-6)"
    elif end == "blocked":
        fewest = min(range(players), key=lambda q: (len(hands[q]), q))
        assert passes == players and record["winner"] == fewest and record["blocked"], "a wrong blocked end (E-6)"
    else:
        assert end == "truncated" and turns == knobs["max_turns"] and record["winner"] == -1, "a wrong end (E-7)"
    assert (record["turns"], record["draws"], record["eights"]) == (turns, draws, eights), "the record's counts"
