"""Compiled-engine states built by hand (a position of the tests) or played to a given decision."""
import numpy as np

from cardsim.core import rng
from cardsim.games.molotow import compiled as C
from cardsim.games.molotow.cards import NO_TRUMP
from cardsim.games.molotow.reference import best_card
from cardsim.games.molotow.rules import MolotowRules


def position_state(hand: int, trick: list[int], trump: int, undertrump: str = "seed", *, leader: int = 0,
                   trick_no: int = 0, key: int = 0, turn: int = 0, rules: MolotowRules | None = None):
    """A 4-player state whose seat to act holds ``hand`` and faces ``trick`` (played from ``leader`` on)
    under trump state ``trump``; ``key`` and ``turn`` give the turn's POLICY draw. Returns (state, params)."""
    rules = rules or MolotowRules(undertrump=undertrump)
    st = C.new_state()
    s = st[0]
    s["key"], s["players"], s["turn"], s["hand_no"] = key, 4, turn, turn // 36
    s["policy_draws"][turn % 36] = rng.draw(key, rng.Stream.POLICY, turn, 0)
    s["leader"], s["trick_no"], s["trick_len"] = leader, trick_no, len(trick)
    s["trick"][:len(trick)] = trick
    s["trick_cards"] = sum(1 << c for c in trick)
    s["played"] = s["trick_cards"]
    s["led"] = trick[0] // 9 if trick else -1
    s["best"] = best_card(trick, trump) if trick else -1
    s["best_seat"] = (leader + trick.index(s["best"])) % 4 if trick else -1
    s["trump"] = trump
    if trump != NO_TRUMP:
        s["trump_trick"], s["setter"] = trick_no, leader
    s["held"][(leader + len(trick)) % 4] = hand
    return st, C.make_params(rules, 4)


def played_to(rules: MolotowRules, players: int, seed: int, game: int, policies: tuple[str, ...], decisions: int):
    """Game ``game`` played through the compiled functions from Python up to ``decisions`` cards (or its end).
    Returns (state, params, policy table)."""
    params, table, work = C.make_params(rules, players), C.policy_table(policies), C.new_work()
    st = C.new_state()
    C.new_game(st[0], params, np.uint64(rng.game_key(seed, game)))
    for _ in range(decisions):
        if C.game_over(st[0], params):
            break
        C.apply(st[0], params, C.choose(st[0], params, table, work[0]))
    return st, params, table


def record_of(st, params, game: int) -> list[int]:
    row = np.zeros(len(C.RECORD), dtype=np.int64)
    C.record(st[0], params, game, row)
    return row.tolist()


def compiled_score(pts: list[int], rules: MolotowRules, key: int, hand_no: int) -> tuple[list[int], list[int], bool]:
    """Sticks, potatoes and the tie-draw flag of the compiled ``score_hand`` for one hand's points."""
    st = C.new_state()
    s = st[0]
    s["players"], s["key"], s["hand_no"] = len(pts), key, hand_no
    s["last_points"][:len(pts)] = pts
    tie3 = C.score_hand(s, C.make_params(rules, len(pts)))
    n = len(pts)
    return s["last_sticks"][:n].tolist(), s["last_potatoes"][:n].tolist(), tie3
