"""How often MM-9's ``refill`` and MM-10's ``must_beat`` change play: reference-engine games,
every decision compared with what the other setting would have done.

- attacks: the share of attacks after which ``refill="played"`` and
  ``refill="to_hand_size"`` would draw a different number of cards (of all attacks, and
  of those made while the stock lasts);
- defences: the share where the duty applies (the defender can beat every card), and
  where it binds (the policy's free move would have left a card unbeaten).

    .venv/bin/python benchmarks/musta_maija_rule_changes.py                        # 20,000 games, 4 players
    .venv/bin/python benchmarks/musta_maija_rule_changes.py --rules house --games 2000
"""
from __future__ import annotations

import argparse
from collections import Counter

import cardsim
from cardsim.games.musta_maija import policies
from cardsim.games.musta_maija import reference as ref


def count(rules: str, players: int, policy: str, games: int, seed: int) -> Counter:
    """Counts of attacks, differing refills, defences, duties applying and binding over ``games`` games."""
    r = cardsim.rules("musta_maija", rules)
    seats = (policy,) * players
    c: Counter = Counter()
    for game in range(games):
        stock = None
        for t in ref.play_states(r, players, seed, game, seats):
            if stock is not None and t.events:
                kind, seat, hand, cards, extra = t.events[-1]
                if kind == "attack":
                    n = len(ref.cards(cards))
                    played, up = min(n, stock), min(max(0, r.hand_size - len(ref.cards(hand)) + n), stock)
                    c["attacks"] += 1
                    c["stock attacks"] += stock > 0
                    c["refill differs"] += played != up
                elif kind == "defence":
                    pairs, trump, _ = extra
                    c["defences"] += 1
                    if ref.can_beat_all(hand, cards, trump, r.black_maria):
                        c["duty applies"] += 1
                        free = policies.defence(policy, hand, cards, trump, r.black_maria, not stock, False,
                                                t.key, t.turns - 1)
                        c["duty binds"] += len(free) < len(ref.cards(cards))
            stock = len(t.stock)
    return c


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="musta_maija")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20_000, help="games in all, half per policy")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print(f"{args.rules}, {args.players} players, {args.games // 2:,} reference games per policy (seed {args.seed})")
    for policy in ("random", "greedy"):
        c = count(args.rules, args.players, policy, args.games // 2, args.seed)
        print(f"{policy:>6}: refill differs in {c['refill differs']:,} of {c['attacks']:,} attacks "
              f"({c['refill differs'] / c['attacks']:.1%}; {c['refill differs'] / c['stock attacks']:.1%} of the "
              f"{c['stock attacks']:,} made while the stock lasts); the duty applies in {c['duty applies']:,} of "
              f"{c['defences']:,} defences ({c['duty applies'] / c['defences']:.1%}) and binds in "
              f"{c['duty binds']:,} ({c['duty binds'] / c['defences']:.1%} of defences, "
              f"{c['duty binds'] / max(1, c['duty applies']):.1%} of those where it applies)", flush=True)


if __name__ == "__main__":
    main()
