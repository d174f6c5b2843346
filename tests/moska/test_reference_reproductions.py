"""The games of issue 12 that broke a revised rule now play by it (reference engine).

Each test replays the reported game with an ``on_move`` hook and checks the rule's
property at every move, not a whole record. Where the revised preset plays the game
differently from the reported moment on, the same game is also replayed with the knobs
of the report (``taraki`` before ``defender_closes`` and ``excess_return="attacker"``),
so that the reported moment itself is checked.
"""
from cardsim.core.cards import FRENCH52 as F
from cardsim.core.cards import cards_of, count
from cardsim.games.moska import reference as R
from cardsim.games.moska.rules import MoskaRules

from .trace import last, last_action, said

TARAKI = MoskaRules.preset("taraki")
REPORTED_TARAKI = TARAKI.replace(defender_closes=False, excess_return="defender")


def play(rules, players, seed, game, policy, on_move):
    return R.play(rules, players, seed, game, [policy] * players, on_move=on_move)


class RoundWatch:
    """An ``on_move`` hook that keeps, per round, the defender's hand at its start and a per-move check."""

    def __init__(self, check=None):
        self.check, self.start, self.defender, self.seen = check, 0, -1, []

    def __call__(self, s: R.State) -> None:
        if last_action(s) == "round":
            self.start, self.defender = s.hands[s.defender], s.defender
        if self.defender >= 0 and self.check:
            self.check(self, s)

    def left(self, s: R.State) -> int:
        """Cards that left this round's defender's hand since the round began (kills and M-14 pairs)."""
        return count(self.start & ~s.hands[self.defender])


def test_M6_moska_2_players_seed_11_game_22_greedy_now_swaps():
    """Rule M-6 (revised): the trump 2 never waits in a hand while the turned card is under the stock."""
    waits = []

    def hook(s):
        two = F.card(s.trump, 0)
        brought = last_action(s) in ("deal", "turn") or (last_action(s) == "draw" and s.log[-1][3][-1] == two)
        if not brought and s.stock and s.stock[-1] == s.turned:  # (the swap follows the event that brings the 2)
            waits.extend(p for p in range(s.players) if s.hands[p] >> two & 1)
    t = play(MoskaRules.preset("moska"), 2, 11, 22, "greedy", hook)
    assert t.record["swaps"] == 1 and waits == []
    assert "seat 0 puts ♣2 under the stock and takes the turned ♣6 (M-6)" in said(t)


def _most_left_per_round(rules, seed, game):
    """The most cards that left the defender's hand, per round; the rounds where the limit refused a kill."""
    most, refused = {}, set()

    def check(w, s):
        most[s.rounds] = max(most.get(s.rounds, 0), w.left(s))
        if w.left(s) == 6 and any(R.killers(a, s.hands[s.defender], s.trump) for a in cards_of(s.table.unkilled)):
            refused.add(s.rounds)  # six have left and the defender still holds a killer of an unkilled card
    play(rules, 4, seed, game, "random", RoundWatch(check))
    return most, refused


def test_M14_taraki_4_players_seed_99_game_941_random_no_seventh_card_leaves():
    """Rule M-14 (revised, TARAKI 3.5.3): at most six cards leave the defender's hand in any round."""
    most, _ = _most_left_per_round(TARAKI, 99, 941)
    assert max(most.values()) <= 6
    most, refused = _most_left_per_round(REPORTED_TARAKI, 99, 941)
    assert max(most.values()) <= 6 and most[15] == 6 and 15 in refused  # the reported round 15


def test_M14_taraki_hand_size_12_seed_13_game_16_no_seventh_card_leaves():
    """Rule M-14 (revised, TARAKI 3.5.3): the limit is six also when the defender holds twelve."""
    most, refused = _most_left_per_round(TARAKI.replace(hand_size=12), 13, 16)
    assert max(most.values()) <= 6 and most[1] == 6 and 1 in refused
    most, _ = _most_left_per_round(REPORTED_TARAKI.replace(hand_size=12), 13, 16)
    assert max(most.values()) <= 6


def _rooms_before_self_attacks(rules):
    rooms = []

    def check(w, s):
        if last_action(s) == "self_attack":  # round mode: the pair took one attack card of room
            rooms.append(min(6, s.table.start_hand) - count(s.table.attack) + 1)
    play(rules, 2, 11, 8, "random", RoundWatch(check))
    return rooms


def test_M14_taraki_2_players_seed_11_game_8_random_no_virpiminen():
    """Rule M-14 (revised, TARAKI glossary): every self-attack had room for two more attack cards."""
    for rules in (TARAKI, REPORTED_TARAKI):
        rooms = _rooms_before_self_attacks(rules)
        assert rooms and min(rooms) >= 2, rooms


def test_M9_taraki_unkilled_4_players_seed_5_game_0_random_holds_at_every_moment():
    """Rules M-9 and M-14 (revised): unkilled cards never exceed the cap nor the defender's hand."""
    for rules in (TARAKI.replace(cap_mode="unkilled"), REPORTED_TARAKI.replace(cap_mode="unkilled")):
        broken, pairs = [], []

        def check(w, s):
            if count(s.table.unkilled) > min(6, count(s.hands[s.defender])):
                broken.append(last(s))
            if last_action(s) == "self_attack":
                pairs.append(s.rounds)
        play(rules, 4, 5, 0, "random", RoundWatch(check))
        assert broken == [] and pairs, (rules, broken)


def test_M15_pyhaselka_3_players_seed_11_game_2_greedy_round_7_additions_to_an_empty_handed_defender():
    """Rule M-15 (revised): the defender who killed with their last card is given additions and picks them up."""
    events = []

    def check(w, s):
        if s.rounds == 7 and s.table.attack and not s.hands[s.defender] and s.stock:
            events.append(("empty-handed", last(s)))
        if s.rounds == 7 and events and last_action(s) == "lay":
            events.append(("adds", last(s)))
        if s.rounds == 7 and events and last_action(s) == "pick_up":
            events.append(("picks up", last(s)))
    play(MoskaRules.preset("pyhaselka"), 3, 11, 2, "greedy", RoundWatch(check))
    kinds = [k for k, _ in events]
    assert "adds" in kinds and kinds[-1] == "picks up", events
    assert events[-1][1] == "seat 1 picks up ♦7 (M-17)"
