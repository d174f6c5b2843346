"""Between the two engines' game states, for tests: a reference ``Table`` as a compiled ``STATE``
(``compiled.state_from``) and back to the reference's terms, and one decision made on both."""
from __future__ import annotations

import numpy as np

from cardsim.core import rng
from cardsim.games.musta_maija import compiled as C
from cardsim.games.musta_maija import reference as ref
from cardsim.games.musta_maija.cards import mask

words, joined = C.words, C.joined


def to_state(t: ref.Table) -> tuple[np.ndarray, np.void]:
    """The compiled state (a 1-element array) and params of a reference table waiting for a decision
    (``compiled.state_from``)."""
    return C.state_from(t), C.make_params(t.rules, t.players)[0]


def redealt(state: np.ndarray, seat: int, key: int) -> np.ndarray:
    """A copy of the state with what ``seat`` cannot see dealt again from ``key``: the other hands' cards not
    known to be there, the stock's order (the turned card stays at its bottom) and the cards dealt or
    drawn before (``deck[:top]``, history)."""
    other = state.copy()
    s = other[0]
    players = int(s["players"])
    hidden = [c for q in range(players) if q != seat
              for c in ref.cards(joined(*s["hands"][q]) & ~joined(*s["known"][q]))]
    hidden += [int(c) for c in s["deck"][s["top"]:s["n_cards"]] if c != s["turned"]]
    order = rng.permutation(key, rng.Stream.EXTRA, len(hidden))
    dealt = iter(hidden[i] for i in order)
    for q in range(players):
        if q != seat:
            keep = joined(*s["hands"][q]) & joined(*s["known"][q])
            n = len(ref.cards(joined(*s["hands"][q]) & ~keep))
            s["hands"][q] = words(keep | mask(next(dealt) for _ in range(n)))
    for i in range(s["top"], s["n_cards"]):
        if s["deck"][i] != s["turned"]:
            s["deck"][i] = next(dealt)
    s["deck"][:s["top"]] = s["deck"][:s["top"]][rng.permutation(key, rng.Stream.DEAL, int(s["top"]))]
    return other


def view(s: np.void) -> dict:
    """What the two engines share, in the reference's terms."""
    return {"hands": [joined(*s["hands"][p]) for p in range(s["players"])],
            "stock": [int(c) for c in s["deck"][s["top"]:s["n_cards"]]],
            "table": joined(*s["table"]), "discard": joined(*s["discard"]), "trump": int(s["trump"]),
            "declared_turn": int(s["declared_turn"]), "turns": int(s["turns"]), "rounds": int(s["rounds"]),
            "out": [(int(s["finish"]) >> 4 * j & 15) - 1 for j in range(s["n_out"])],
            "known": [joined(*s["known"][p]) for p in range(s["players"])], "turned": int(s["turned"]),
            "barred": [joined(*s["barred"][p]) for p in range(s["players"])]}


def table_view(t: ref.Table) -> dict:
    return {"hands": list(t.hands), "stock": list(t.stock), "table": t.table, "discard": t.discard,
            "trump": t.trump, "declared_turn": t.declared_turn, "turns": t.turns, "rounds": t.rounds,
            "out": list(t.out), "known": list(t.known), "turned": t.turned, "barred": list(t.barred)}


def move(declare: int = -1, cards: int = 0, beaten: int = 0) -> np.ndarray:
    """A compiled decision (a 1-element ``MOVE`` array)."""
    m = np.zeros(1, C.MOVE)
    m[0]["declare"], m[0]["cards"], m[0]["beaten"] = declare, words(cards), words(beaten)
    return m


def defence_move(pairs: list[tuple[int, int]], declare: int = -1) -> np.ndarray:
    return move(declare, mask(b for b, _ in pairs), mask(a for _, a in pairs))


def both(t: ref.Table, state: np.ndarray, p: np.void, attack: int | None = None,
         pairs: list[tuple[int, int]] | None = None) -> None:
    """Make one attack (or defence) on the reference table and the compiled state; they must agree."""
    m = move(cards=attack) if attack is not None else defence_move(pairs)
    assert C.is_legal(state[0], p, m[0])
    if attack is not None:
        ref.attack(t, attack)
    else:
        ref.defend(t, pairs)
    C.apply(state[0], p, m[0])
    assert view(state[0]) == table_view(t)
    if not ref.finished(t) and state[0]["phase"] != C.OVER:
        assert C.to_act(state[0]) == (ref.defender(t) if t.table else t.attacker)
