"""Moska reference engine: one game in plain Python, rules M-1…M-23, a record and a trace.

This file is the oracle that the compiled engine (``compiled.py``) must reproduce game
for game; it is written to be read next to docs/rules/moska.md. It is not fast. The
decision protocol below is normative for every engine (and for ``policies.py``): change
it only with a note here and in the commit message.

DECISION PROTOCOL (v2)
======================
v2 (issue 12) revises: the moment of the trump-two swap (M-6), TARAKI's six-card limit
and the self-attack legality (M-14), knob ``defender_closes`` (M-14b), the value
``excess_return="attacker"`` (M-12), additions to an empty-handed defender (M-15) and,
with it, who counts as holding cards in the end check (E).

Cards: code ``c = suit * 13 + rank`` (core/cards.py FRENCH52: suits ♣♦♥♠ = 0..3,
ranks 2..A = 0..12). ``kills(a, k)``: ``k`` has the suit of ``a`` and a higher rank,
or ``k`` is a trump and ``a`` is not (M-10). ``KILL[t][a]`` is the mask of killers.

Deal (M-4, M-5). ``key = rng.game_key(seed, game)``,
``perm = rng.permutation(key, Stream.DEAL, 52)``, ``H = hand_size``, ``P = players``.
``perm[j]`` for ``j < P*H`` goes to seat ``(1 + j) % P`` (one card at a time,
clockwise from seat 1). ``perm[P*H]`` is the turned card; its suit is trump. The
stock is drawn from the front: ``perm[P*H+1], ..., perm[51]``, then the turned card
last. So game i deals the same cards under every variant with the same P and H.

Trump-two swap (M-6, knob ``trump_two_swap``). ``can_swap(p)``: the knob is on, the
stock is not empty, its last card is still the turned card, and seat p holds the trump
2 (so never when the turned card is itself the 2). The swap is made at the first moment
possible, and only at these two points:
(a) right after the deal, before round 1: the seat dealt the trump 2 swaps if it can;
(b) inside a refill (see Refill), right after a draw that brought the trump 2 into the
    drawing seat's hand, before the next card is drawn: that seat swaps if it can.
The swap: the turned card goes to the holder's hand, the 2 takes its place as the
stock's last card. It is not a decision: no turn, no draw, no policy call. Before
the swap the turned card is the stock's last card, so a 2 dealt or drawn always finds
it there: whenever the swap is on and the turned card is not the 2, the swap happens
exactly once, at (a) or (b), unless the game stops first (truncation). There is no
swap at any other moment (none before decisions, none when cards are picked up).

Forbidden options (issue 27, ``policies.FORBID``). A seat whose policy string says ``forbid=...`` never
takes those optional actions: ``swap``: ``can_swap`` is false for it (it keeps the 2); ``self_attack``: its
defence step asks no self-attack (the M-14 part below is skipped); ``continuation``: in an addition step its
``cands`` are its cards of the allowed ranks that are also ranks of the round's attack cards (it is an adder,
and decides, as the rules say; the reads still read its choice against the allowed ranks). Nothing else
changes: no draw, no turn.

Room (M-9). ``cap = attack_cap`` (None = 52). Mode ``"round"``:
``room = min(cap, D0 if cap_to_defender_hand else 52) - (attack cards this round)``,
D0 = defender's hand size when the round began. Mode ``"unkilled"``:
``room = min(cap, |defender hand now| if cap_to_defender_hand else 52) - (unkilled
cards)``. Room below 0 counts as 0. Attack cards of the round include the
defender's own cards of M-14. Allowed ranks (M-11): ranks of the attack cards on the
table this round, plus ranks of kill cards with ``continuation="attack_and_kill"``.

Six-card limit (M-14, TARAKI 3.5.3; only with ``defender_self_attack``).
``L = attack_cap``, or 6 when attack_cap is None. ``gone`` = the defender's cards that
left their hand this round: ordinary kill cards, self-attack cards and their kill
cards (a pair counts 2). A kill is possible only while ``gone < L``; a self-attack
pair only while ``gone + 2 <= L``. Without ``defender_self_attack`` there is no limit
besides the cap.

A decision is one call of a seat's policy; ``turn`` counts decisions from 0 and is
the ``turn`` of ``rng.draw(key, Stream.POLICY, turn, k)``. Before each decision: if
``turn == max_turns`` the game stops: ``truncated=True``, ``loser=-1`` (M-21).

Repetition (M-23, knob ``repetition``; ``core/repetition.py``). Before a round begins
(before ``rounds`` counts it), when the knob is on, the stock is empty and ``turn <
max_turns``: the position ``(A, hands of every seat)`` is compared with the positions
of the last 64 rounds that began so (those positions are remembered as they occur); if
it is one of them the game stops: ``truncated=True``, ``loser=-1``, with fewer than
``max_turns`` decisions. No decision, no turn.

A round (M-7, M-15). Attacker A (seat 1 in round 1), defender D = next seat
clockwise (+1) after A that is not out.
1. Opening: one decision of A (M-8: one card, or a union of same-rank groups of >= 2
   cards, at most ``room`` cards). A refills (M-13), then the end check (E).
2. Defence step. If D holds no card, the step is empty: no decision, no turn. Otherwise
   one decision of D, always (even with nothing to kill, or the limit L reached):
   for each unkilled attack card ``a`` in ascending code, when D holds a killer of
   ``a`` and (with ``defender_self_attack``) ``gone < L``: kill it or not (M-10), each
   with its own killer. Then, with ``defender_self_attack``, self-attack pairs (M-14),
   for c = 0..51 ascending, legality checked at c's turn (after earlier pairs of the
   step). A pair (c, k) is legal when: c and k in D's hand, k != c, rank(c) allowed
   now, kills(c, k), room >= 2 now (no "virpiminen": the table is neither full nor one
   short), ``gone + 2 <= L``, and in cap_mode ``"unkilled"`` ``|D's hand| - 2 >=
   |unkilled cards|`` now (M-9 still holds after the pair leaves, whatever
   ``cap_to_defender_hand``).
   After the step, in this order: (i) if D's hand is empty and the stock is empty (D is
   out, M-18), the round ends (go to 4); (ii) with ``defender_closes`` (M-14b), if no
   unkilled card is on the table, the round ends (go to 4), automatically: not a
   decision (docs/rules: the built-in policies always close). Otherwise go to 3; in
   particular a D who killed with their last card while the stock holds cards is not
   out and may be given additions (M-15), which they pick up at 4. (In mode ``"round"``
   the room of an empty-handed D still counts from D0; in mode ``"unkilled"`` with
   ``cap_to_defender_hand`` it is 0, so nothing can be added.)
3. Addition step (M-11, M-12): room R and allowed ranks are fixed at the start of the
   step. The adders are the seats other than D that are not out, holding a card of
   an allowed rank, when R >= 1, taken clockwise starting at A (A first if not out).
   Each adder makes one decision: a set of their cards of allowed ranks, at most R
   cards (may be empty). Cards go on the table only after every adder has chosen.
   If the total T exceeds R, e = T - R cards go back (M-12), one more decision:
   ``"defender"``: D chooses e of the cards added in this step; ``"attacker"``: A (the
   seat that opened this round) chooses e of the cards added in this step, also when A
   is out or added nothing (choosing needs no cards); ``"last"``: adders latest in
   clockwise order from A take all theirs back first; the one adder who must take
   back only part (if any) chooses which; whole take-backs are automatic.
   The cards that stay go on the table; their owners refill in clockwise order from
   A (M-13); then the end check (E). If no card stayed, the round ends (go to 4);
   otherwise go back to 2.
4. Round end. All attack cards killed (M-16): table to discard, D refills, the next
   attacker is D, or if D is out the next seat left of D not out. Otherwise (M-17):
   killed pairs to discard, D picks up the unkilled cards, refills, the next attacker
   is the next seat left of D not out. Then the end check (E).
Refill: draw from the stock front, one card at a time, until ``hand_size`` cards or the
stock is empty; right after each draw of the trump 2, the swap (b) if possible (the hand
size does not change, the refill goes on).
Out (M-18): a seat with no cards while the stock is empty, checked for each refilling
seat right after its refill (in refill order), appended to ``finish_order``.
(E) End check (M-19, M-20): if the stock is empty and at most one seat holds cards,
the game ends: that seat loses; nobody holding cards = no loser (-1). A seat holds
cards when its hand is not empty; D also while unkilled cards lie on the table (they
are D's to pick up, M-15: this matters only after additions to an empty-handed D).

Record: ``turns`` = decisions made; ``rounds`` = rounds begun (a round begins just
before its opening decision, so a game truncated there counts it); ``first_out``,
``finish_order``, ``trump_suit``, ``swaps`` (0 or 1), ``overplays`` (addition steps
whose whole excess went back: counted once it is back, so not in a game truncated at
the give-back decision), ``pickups`` (rounds ending by M-17), ``self_attacks`` (pairs of
M-14). What each policy does at each decision, and its draws ``k``, is specified in
``policies.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from cardsim.core import rng
from cardsim.core.repetition import Positions
from cardsim.core.cards import FRENCH52, cards_of, count
from cardsim.core.records import Replay, Setup
from cardsim.games.moska import reads
from cardsim.games.moska.events import BOOK
from cardsim.games.moska.policies import (FORBID_CONTINUATION, FORBID_SELF_ATTACK, FORBID_SWAP, View, forbid_of,
                                          make_policy)
from cardsim.games.moska.rules import DECK_SIZE, MoskaRules

NO_CAP = DECK_SIZE
"""Room when a limit is off (no cap, or not bound to the defender's hand)."""
TRUMP_TWO_RANK = 0
SIX_CARDS = 6
"""M-14 (TARAKI 3.5.3): cards that may leave the defender's hand in a round when attack_cap is None."""


def _make_kill_table() -> list[list[int]]:
    """``KILL[t][a]``: mask of the cards that kill card ``a`` when suit ``t`` is trump (M-10)."""
    table = []
    for trump in range(4):
        row = []
        for a in range(DECK_SIZE):
            suit, rank = FRENCH52.suit(a), FRENCH52.rank(a)
            higher = sum(1 << FRENCH52.card(suit, r) for r in range(rank + 1, FRENCH52.n_ranks))
            row.append(higher | (FRENCH52.suit_mask(trump) if suit != trump else 0))
        table.append(row)
    return table


KILL = _make_kill_table()
RANK_MASK = [FRENCH52.rank_mask(r) for r in range(FRENCH52.n_ranks)]


class IllegalMove(RuntimeError):
    """A policy returned a move the rules forbid (a bug in the policy, never user input)."""


class GameOver(Exception):
    """The game ended (M-19/M-20) or was truncated (M-21) or stopped by repetition (M-23)."""


@dataclass
class Table:
    """The cards of the current round: attack cards (killed or not) and kill cards."""

    start_hand: int = 0
    attack: int = 0
    unkilled: int = 0
    kills: int = 0
    gone: int = 0
    """Defender's cards that left their hand this round: kill cards and M-14 pairs (TARAKI's six cards)."""
    added: dict[int, int] = field(default_factory=dict)
    """The addition step under way (M-11, M-12): each adder's chosen cards that have not gone back, in the
    adders' order; they stay in hand until the step is settled."""

    @property
    def cards(self) -> int:
        return self.attack | self.kills


@dataclass
class State:
    """One game in progress. Seats are dealer-relative (M-2)."""

    rules: MoskaRules
    hands: list[int]
    stock: list[int]
    trump: int
    turned: int
    key: int = 0
    attacker: int = 1
    defender: int = -1
    discard: int = 0
    table: Table = field(default_factory=Table)
    out: list[bool] = field(default_factory=list)
    known: list[int] = field(default_factory=list)
    """The cards each seat is publicly known to hold (``mc``'s view, see ``seating.MonteCarloPolicy``):
    picked up from the table, taken back after an over-play, the turned card taken by the trump-two
    swap, the stock's last card drawn; a card leaves with the hand."""
    barred: list[int] = field(default_factory=list)
    """The cards each seat's choices since its last draw say it does not hold, read as greedy's (``reads.py``),
    kept while ``reads`` (a seat's ``mc`` deals its worlds from them)."""
    reads: bool = False
    forbid: list[int] = field(default_factory=list)
    """Each seat's forbid mask (``policies.FORBID``: the optional actions its policy string forbids it)."""
    finish_order: list[int] = field(default_factory=list)
    turns: int = 0
    rounds: int = 0
    swaps: int = 0
    overplays: int = 0
    pickups: int = 0
    self_attacks: int = 0
    loser: int = -1
    truncated: bool = False
    positions: Positions = field(default_factory=Positions)
    """The positions the last rounds began in with the stock empty (M-23)."""
    log: list[tuple] = field(default_factory=list)
    """The replay's raw events (``events.py``), see ``note``."""
    on_move: Callable[[State], None] | None = None

    def __post_init__(self) -> None:
        self.out = self.out or [False] * len(self.hands)
        self.known = self.known or [0] * len(self.hands)
        self.barred = self.barred or [0] * len(self.hands)
        self.forbid = self.forbid or [0] * len(self.hands)

    @property
    def players(self) -> int:
        return len(self.hands)

    def note(self, action: str, seat: int, cards: int | tuple[int, ...] = 0, target: int = -1,
             decision: int | None = None, on: int = -1) -> None:
        """Record an event (``events.py``; ``on``: the attack card killed, or the turned card a swap takes),
        then call ``on_move``."""
        self.log.append((decision, seat, action, cards, target, tuple(self.hands), len(self.stock), self.trump,
                         self.rounds, self.table.unkilled, on))
        if self.on_move is not None:
            self.on_move(self)


# --- cards and the table ------------------------------------------------------------------

def kills(attack: int, killer: int, trump: int) -> bool:
    """M-10: same suit and higher, or a trump on a non-trump."""
    return bool(KILL[trump][attack] >> killer & 1)


def killers(attack: int, hand: int, trump: int) -> int:
    """The cards of ``hand`` that kill ``attack`` (M-10)."""
    return KILL[trump][attack] & hand


def ranks_of(mask: int) -> int:
    """Every card whose rank appears in ``mask`` (all four suits)."""
    out = 0
    for r in range(FRENCH52.n_ranks):
        if mask & RANK_MASK[r]:
            out |= RANK_MASK[r]
    return out


def allowed(s: State) -> int:
    """M-11: cards of the ranks that may be added now (``continuation``)."""
    seen = s.table.cards if s.rules.continuation == "attack_and_kill" else s.table.attack
    return ranks_of(seen)


def room(s: State) -> int:
    """M-9: how many more attack cards the cap allows now (``cap_mode``, ``cap_to_defender_hand``)."""
    r = s.rules
    cap = NO_CAP if r.attack_cap is None else r.attack_cap
    if r.cap_mode == "round":
        hand, used = s.table.start_hand, count(s.table.attack)
    else:
        hand, used = count(s.hands[s.defender]), count(s.table.unkilled)
    limit = min(cap, hand if r.cap_to_defender_hand else NO_CAP)
    return max(0, limit - used)


def is_legal_opening(cards: int, hand: int, room_: int) -> bool:
    """M-8: one card, or a union of same-rank groups of at least two cards; M-9: within the room."""
    if not cards or cards & ~hand or count(cards) > room_:
        return False
    return count(cards) == 1 or all(count(cards & m) != 1 for m in RANK_MASK)


def is_legal_addition(cards: int, hand: int, allowed_: int, room_: int) -> bool:
    """M-11: own cards of allowed ranks, any shape; M-9: alone within the room."""
    return not cards & ~hand and not cards & ~allowed_ and count(cards) <= room_


def leave_limit(rules: MoskaRules) -> int:
    """M-14 (TARAKI 3.5.3): how many cards may leave the defender's hand in a round (no limit without M-14)."""
    if not rules.defender_self_attack:
        return NO_CAP
    return SIX_CARDS if rules.attack_cap is None else rules.attack_cap


def may_kill(s: State) -> bool:
    """M-14: once the six-card limit is reached, the defender kills nothing more this round."""
    return s.table.gone < leave_limit(s.rules)


def self_attack_killers(s: State, card: int) -> int:
    """M-14: the killers with which the defender may self-attack ``card`` now (0: not legal)."""
    r, hand = s.rules, s.hands[s.defender]
    if not r.defender_self_attack or not hand >> card & 1 or not allowed(s) >> card & 1:
        return 0
    if room(s) < 2:
        return 0  # the table is full or one short: no "virpiminen" (TARAKI glossary)
    if s.table.gone + 2 > leave_limit(r):
        return 0  # the pair would break the six-card limit (TARAKI 3.5.3)
    if r.cap_mode == "unkilled" and count(hand) - 2 < count(s.table.unkilled):
        return 0  # M-9: the defender's hand must still cover the unkilled cards
    return killers(card, hand & ~(1 << card), s.trump)


def leave_hand(s: State, seat: int, cards: int) -> None:
    """``cards`` leave the hand of ``seat`` (to the table, or under the stock by the swap of M-6)."""
    s.hands[seat] &= ~cards
    s.known[seat] &= ~cards


def next_active(s: State, seat: int) -> int:
    """The next seat clockwise after ``seat`` that is not out (M-7, M-16)."""
    for step in range(1, s.players + 1):
        nxt = (seat + step) % s.players
        if not s.out[nxt]:
            return nxt
    return seat


def clockwise_from(s: State, seat: int) -> list[int]:
    return [(seat + i) % s.players for i in range(s.players)]


def next_dealer(loser: int) -> int:
    """M-22: the loser deals the next game (dealer-relative seat); no loser: the same dealer."""
    return loser if loser >= 0 else 0


# --- deal, stock, swap ---------------------------------------------------------------------

def deal(rules: MoskaRules, players: int, key: int) -> State:
    """M-4, M-5: the deal of the DECISION PROTOCOL from ``permutation(key, DEAL, 52)``."""
    perm = rng.permutation(key, rng.Stream.DEAL, DECK_SIZE)
    n = players * rules.hand_size
    hands = [0] * players
    for j in range(n):
        hands[(1 + j) % players] |= 1 << perm[j]
    turned = perm[n]
    return State(rules, hands, stock=list(perm[n + 1:]) + [turned], trump=FRENCH52.suit(turned),
                 turned=turned, key=key)


def refill(s: State, seat: int) -> None:
    """M-13, M-18: draw up to ``hand_size`` from the stock front; no cards and no stock = out.

    M-6: right after drawing the trump 2, before the next card, the drawer swaps it if possible.
    """
    drawn: list[int] = []
    two = trump_two(s)
    if s.stock and count(s.hands[seat]) < s.rules.hand_size:
        s.barred[seat] = 0  # unseen cards come in: what its choices said of its hand no longer holds
    while s.stock and count(s.hands[seat]) < s.rules.hand_size:
        card = s.stock.pop(0)
        s.hands[seat] |= 1 << card
        if not s.stock:
            s.known[seat] |= 1 << card  # the card under the stock was face up
        drawn.append(card)
        if card == two and can_swap(s, seat):
            s.note("draw", seat, tuple(drawn))
            drawn = []
            swap_trump_two(s, seat)
    if drawn:
        s.note("draw", seat, tuple(drawn))
    if not s.stock and not s.hands[seat] and not s.out[seat]:
        s.out[seat] = True
        s.finish_order.append(seat)
        s.note("out", seat)


def trump_two(s: State) -> int:
    """The 2 of the trump suit (M-6)."""
    return FRENCH52.card(s.trump, TRUMP_TWO_RANK)


def can_swap(s: State, seat: int) -> bool:
    """M-6: the trump 2 may replace the turned card while that card is still under the stock."""
    return (s.rules.trump_two_swap and bool(s.stock) and s.stock[-1] == s.turned
            and bool(s.hands[seat] >> trump_two(s) & 1) and not s.forbid[seat] & FORBID_SWAP)


def swap_after_deal(s: State) -> None:
    """M-6: the seat dealt the trump 2 swaps at once, before round 1."""
    for seat in range(s.players):
        if can_swap(s, seat):
            swap_trump_two(s, seat)


def swap_trump_two(s: State, seat: int) -> None:
    """M-6: the holder's trump 2 goes under the stock, the turned card to their hand."""
    two = trump_two(s)
    leave_hand(s, seat, 1 << two)
    s.hands[seat] |= 1 << s.turned
    s.known[seat] |= 1 << s.turned
    s.stock[-1] = two
    s.swaps += 1
    s.note("swap", seat, (two,), on=s.turned)


# --- decisions -----------------------------------------------------------------------------

def decide(s: State, seat: int) -> int:
    """Start one decision of ``seat``: M-21 truncation; its turn."""
    if s.turns == s.rules.max_turns:
        s.truncated = True
        s.note("truncated", -1)
        s.note("table", -1, s.table.cards)
        raise GameOver
    s.turns += 1
    return s.turns - 1


def view(s: State, seat: int, turn: int, room_: int) -> View:
    return View(s.key, turn, seat, s.hands[seat], s.trump, len(s.stock), room_, game=s)


def holds_cards(s: State, seat: int) -> bool:
    """A seat's hand is not empty, or it is the defender with unkilled cards to pick up (M-15)."""
    return bool(s.hands[seat]) or (seat == s.defender and bool(s.table.unkilled))


def check_end(s: State) -> None:
    """M-19, M-20: with the stock empty and at most one seat holding cards, the game is over."""
    if s.stock:
        return
    holders = [p for p in range(s.players) if holds_cards(s, p)]
    if len(holders) <= 1:
        s.loser = holders[0] if holders else -1
        s.note("lose" if holders else "no_loser", s.loser)
        raise GameOver


def opening_step(s: State, policy) -> None:
    """M-8: the attacker opens; M-13: refills; then the end check."""
    a = s.attacker
    turn = decide(s, a)
    cards = policy.open(view(s, a, turn, room(s)))
    if not is_legal_opening(cards, s.hands[a], room(s)):
        raise IllegalMove(f"seat {a} opened {FRENCH52.names(cards)} from {FRENCH52.names(s.hands[a])}")
    if s.reads:
        s.barred[a] |= reads.opening(cards, s.trump)
    leave_hand(s, a, cards)
    s.table.attack |= cards
    s.table.unkilled |= cards
    s.note("open", a, cards, s.defender, turn)
    refill(s, a)
    check_end(s)


def kill(s: State, attack: int, killer: int, turn: int | None = None) -> None:
    """M-10: the defender kills ``attack`` with ``killer`` from hand (in decision ``turn``)."""
    d = s.defender
    if not (s.table.unkilled >> attack & 1 and s.hands[d] >> killer & 1 and kills(attack, killer, s.trump)
            and may_kill(s)):
        raise IllegalMove(f"seat {d} cannot kill {FRENCH52.name(attack)} with {FRENCH52.name(killer)}")
    leave_hand(s, d, 1 << killer)
    s.table.unkilled &= ~(1 << attack)
    s.table.kills |= 1 << killer
    s.table.gone += 1
    s.note("kill", d, (killer,), decision=turn, on=attack)


def self_attack(s: State, card: int, killer: int, turn: int | None = None) -> None:
    """M-14: the defender puts ``card`` on the table as an attack card and kills it with ``killer``
    (in decision ``turn``)."""
    d = s.defender
    if not self_attack_killers(s, card) >> killer & 1:
        raise IllegalMove(f"seat {d} cannot self-attack {FRENCH52.name(card)} with {FRENCH52.name(killer)}")
    leave_hand(s, d, (1 << card) | (1 << killer))
    s.table.attack |= 1 << card
    s.table.kills |= 1 << killer
    s.table.gone += 2
    s.self_attacks += 1
    s.note("self_attack", d, (killer,), decision=turn, on=card)


def defence_step(s: State, policy) -> None:
    """M-15: the defender kills any subset of the unkilled cards, then (M-14) self-attacks.

    A defender without cards has nothing to do: no decision (M-15).
    """
    d = s.defender
    if not s.hands[d]:
        return
    turn = decide(s, d)
    gone = s.table.gone
    read = 0  # what the decision says of the defender's hand, kept once it is made
    for a in cards_of(s.table.unkilled):
        ks = killers(a, s.hands[d], s.trump)
        k = -1
        if ks and may_kill(s):
            k = policy.kill(view(s, d, turn, room(s)), a, ks)
        if may_kill(s):
            read |= reads.kill(a, k, KILL[s.trump][a], s.trump, len(s.stock))
        if k >= 0:
            kill(s, a, k, turn)
    if s.rules.defender_self_attack and not s.forbid[d] & FORBID_SELF_ATTACK:
        for c in range(DECK_SIZE):
            ks = self_attack_killers(s, c)
            if ks:
                k = policy.self_attack(view(s, d, turn, room(s)), c, ks)
                if k >= 0:
                    self_attack(s, c, k, turn)
    if s.reads:
        s.barred[d] |= read
    if s.table.gone == gone:
        s.note("kill", d, decision=turn)  # the decision kills nothing


def give_back(s: State, room_: int, policies: Sequence) -> None:
    """M-12: the cards over the room go back to their owners (``excess_return``); ``s.table.added`` keeps
    what stays."""
    added = s.table.added
    excess = sum(count(m) for m in added.values()) - room_
    if excess <= 0:
        return
    if s.rules.excess_return in ("defender", "attacker"):
        judge = s.defender if s.rules.excess_return == "defender" else s.attacker  # the attacker even when out
        turn = decide(s, judge)
        pool = 0
        for m in added.values():
            pool |= m
        back = policies[judge].give_back(view(s, judge, turn, room_), pool, excess)
        if count(back) != excess or back & ~pool:
            raise IllegalMove(f"seat {judge} sent back {FRENCH52.names(back)}, not {excess} added cards")
        s.note("give_back", judge, back, decision=turn)
        for p in added:
            take_back(s, p, added[p] & back)
        s.overplays += 1  # counted once the excess is back: a game truncated at this decision sent none back
        return
    for p in reversed(list(added)):  # the last over-players take theirs back first
        if excess == 0:
            break
        back = added[p]
        if count(back) > excess:
            turn = decide(s, p)
            back = policies[p].give_back(view(s, p, turn, room_), added[p], excess)
            if count(back) != excess or back & ~added[p]:
                raise IllegalMove(f"seat {p} took back {FRENCH52.names(back)}, not {excess} own cards")
            s.note("give_back", p, back, decision=turn)
        take_back(s, p, back)
        excess -= count(back)
    s.overplays += 1  # the whole excess is back (a game truncated at a partial taker's decision is not counted)


def take_back(s: State, seat: int, cards: int) -> None:
    """M-12: over-played ``cards`` of ``seat`` stay in its hand, where everyone has seen them."""
    s.table.added[seat] &= ~cards
    s.known[seat] |= cards


def addition_step(s: State, policies: Sequence) -> bool:
    """M-11, M-12, M-13: every non-defender adds at once; over-play goes back; adders refill.

    Returns whether any card stayed on the table.
    """
    room_, ok = room(s), allowed(s)
    d = s.defender
    order = [p for p in clockwise_from(s, s.attacker) if p != d and not s.out[p]]
    added = s.table.added = {}
    for p in order:
        if room_ < 1 or not s.hands[p] & ok:
            continue
        turn = decide(s, p)
        offered = ok & ranks_of(s.table.attack) if s.forbid[p] & FORBID_CONTINUATION else ok
        cards = policies[p].add(view(s, p, turn, room_), s.hands[p] & offered, room_)
        if not is_legal_addition(cards, s.hands[p], offered, room_):
            raise IllegalMove(f"seat {p} added {FRENCH52.names(cards)} (allowed {FRENCH52.names(ok & s.hands[p])},"
                              f" room {room_})")
        s.note("add", p, cards, d, turn)
        if s.reads:
            s.barred[p] |= reads.addition(cards, ok, room_, s.trump, len(s.stock))
        added[p] = cards
    chosen = dict(added)
    give_back(s, room_, policies)
    for p in added:
        if added[p] != chosen[p]:
            s.note("take_back", p, chosen[p] & ~added[p])
    s.table.added = {}
    stayed = False
    for p, cards in added.items():
        if cards:
            leave_hand(s, p, cards)
            s.table.attack |= cards
            s.table.unkilled |= cards
            s.note("lay", p, cards, d)
            stayed = True
    for p, cards in added.items():
        if cards:
            refill(s, p)
    check_end(s)
    return stayed


def end_round(s: State) -> None:
    """M-16 (all killed: discard, the defender attacks next) or M-17 (pick up, attack passes on)."""
    d, t = s.defender, s.table
    s.table = replace(t, attack=t.unkilled, kills=0)  # the killed pairs leave, the unkilled cards stay
    s.discard |= t.cards & ~t.unkilled
    if t.cards & ~t.unkilled:
        s.note("discard", -1, t.cards & ~t.unkilled)
    s.table = Table()
    s.hands[d] |= t.unkilled
    s.known[d] |= t.unkilled
    if t.unkilled:
        s.pickups += 1
        s.note("pick_up", d, t.unkilled)
    refill(s, d)
    s.attacker = next_active(s, d) if t.unkilled or s.out[d] else d
    check_end(s)


def repeats(s: State) -> bool:
    """M-23: the round about to begin, the stock empty, would begin in a position one of the last 64 did."""
    return (s.rules.repetition and not s.stock and s.turns < s.rules.max_turns
            and s.positions.recurs((s.attacker, *s.hands)))


def play_round(s: State, policies: Sequence) -> None:
    """M-15: opening, defence and addition steps until nothing stays, the defender is out or closes (M-14b);
    M-23: no round, and the game stops, where it would repeat."""
    if repeats(s):
        s.truncated = True
        s.note("repetition", -1)
        raise GameOver
    s.rounds += 1
    s.defender = next_active(s, s.attacker)
    s.table = Table(start_hand=count(s.hands[s.defender]))
    s.note("round", s.attacker, target=s.defender)
    opening_step(s, policies[s.attacker])
    while True:
        defence_step(s, policies[s.defender])
        if not s.hands[s.defender] and not s.stock:
            break  # M-15: the defender is out (M-18), nobody can add
        if s.rules.defender_closes and not s.table.unkilled:
            break  # M-14b: everything on the table is killed, the defender closes the round
        if not addition_step(s, policies):
            break
    end_round(s)


def run(s: State, policies: Sequence) -> State:
    """Play rounds from ``s`` until the game ends or is truncated."""
    try:
        while True:
            play_round(s, policies)
    except GameOver:
        pass
    return s


def record(s: State, game: int) -> dict:
    """The record row of a finished game (columns of ``GAME.columns``)."""
    return {
        "game": game, "turns": s.turns, "truncated": s.truncated, "loser": s.loser, "rounds": s.rounds,
        "first_out": s.finish_order[0] if s.finish_order else -1,
        "finish_order": ",".join(map(str, s.finish_order)), "trump_suit": s.trump, "swaps": s.swaps,
        "overplays": s.overplays, "pickups": s.pickups, "self_attacks": s.self_attacks,
    }


def play(rules: MoskaRules, players: int, seed: int, game: int, policies: Sequence[str],
         on_move: Callable[[State], None] | None = None, *, seat: Callable[[str], Any] = make_policy) -> Replay:
    """Play game ``game`` of a study with ``seed``: its record and its moves in words. ``seat`` makes each seat's
    policy object from its string: by default ``random`` and ``greedy`` only; ``seating.play`` passes
    ``seating.make_policy``, which also seats ``mc``, ``oracle`` and ``learned`` (the compiled engine decides them)."""
    s = deal(rules, players, rng.game_key(seed, game))
    s.on_move = on_move
    seated = [seat(p) for p in policies]
    s.forbid = [forbid_of(p) for p in policies]
    s.reads = any(getattr(getattr(p, "search", None), "beliefs", "") == "reads" and not p.search.sees_all
                  for p in seated)
    for p in range(players):
        s.note("deal", p, s.hands[p])
    s.note("turn", -1, (s.turned,))
    swap_after_deal(s)
    run(s, seated)
    for p in range(players):
        s.note("final", p, s.hands[p])
    return Replay("moska", record(s, game), s.log, Setup("moska", rules, players, seed, game, tuple(policies)), BOOK)
