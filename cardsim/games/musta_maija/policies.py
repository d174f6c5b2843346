"""Musta-Maija's self-play policies, each specified once here. ``random`` and ``greedy`` are
implemented twice: scalar here (``declaration``/``attack``/``defence``, for reference.py) and
in numba (compiled_policies.py, for compiled.py); ``mc`` once, in numba (both engines use
it). Not the rules: the reference engine checks every move a policy makes.

A policy sees only its own hand, the table, the trump, the public hand sizes (MM-15)
and whether the stock is empty. Its randomness is ``u_k = rng.draw(key, Stream.POLICY,
turn, k)``, ``turn`` = the game's decision counter. "Lower" within a suit means lower
rank, then copy 0 before copy 1; across suits rank, then suit, then copy. A card of
copy 0 with code ``c`` "is in the bits of u" when bit ``c`` of u is set; a copy-1 card
of code ``52 + b`` when bit ``b`` of the second draw named is set.

**The defence procedure** ``beat_with(table, willing)`` (MM-10; both policies use it;
the table holds one suit s): the attack cards other than the Black Maria are taken
lowest first; sweeping ranks low to high, each willing card of suit s at rank r (copy 0
first; never the Black Maria) beats the lowest still-unbeaten attack card of rank < r,
if any. If s is not trump, the willing trumps, lowest first, beat the lowest unbeaten
cards left. Then with ``black_maria="highest_trump"`` a willing Black Maria beats the
lowest card still unbeaten (MM-3). The Black Maria on the table is never beaten (MM-2).

**The duty to beat** (MM-10, ``must_beat="all_if_possible"``): the engine tells the
policy ``must`` when the defender can beat every attack card (a complete assignment of
distinct beaters exists: reference.py searches one by augmenting paths; compiled.py asks
whether ``beat_with(table, hand)`` beats every card, the same question by what follows). Then
``beat_with(table, hand)`` beats every card: its same-suit sweep is a largest matching
of the beaters of suit s to lower attack cards (beaters taken lowest first, each with
any lower card left), and the trumps (s not trump) and a ``highest_trump`` Black Maria
beat any card, so they cover as many of the rest as there are of them. So a policy
bound by the duty can always fall back on ``beat_with(table, hand)``.

``random`` — uniform over each of these choice coordinates:
- declare (MM-5): with options (suits in suit order), ``j = below(u0, 1 + len(options))``;
  ``j = 0`` declares nothing, else ``options[j - 1]``.
- attack: the suit ``held[below(u1, len(held))]`` among the suits held (suit order);
  the cards of that suit in the bits of ``u2`` (copy 0) / ``u3`` (copy 1); if none, the
  lowest card of the suit; in the endgame (MM-13) only the ``cap`` lowest of them.
- defence: willing = the hand's cards in the bits of ``u1`` (copy 0) / ``u2`` (copy 1);
  the move is ``beat_with(table, willing)``; under the duty (``must``), if that leaves
  a card unbeaten, the move is ``beat_with(table, hand)`` instead (same draws).

``greedy`` — the seed's tips; its only draw (``u1``) picks an attack's suit:
- declare: at the first chance, the option suit with the most cards in hand (ties: the
  lower suit).
- attack before the endgame, "shed low cards, keep kings and queens": the low cards
  are the non-trump cards of rank 2..J; if any, all low cards of the suit
  ``low_suits[below(u1, len(low_suits))]`` among the suits holding low cards (suit
  order). If none, the lowest card other than the Black Maria alone (the Black Maria
  if it is the only card).
- attack in the endgame (stock empty), shedding as many cards as it may: with the Black
  Maria ("held for the endgame", the card nobody can beat) the Black Maria and the
  ``cap - 1`` lowest other spades; otherwise the ``cap`` lowest cards of the suit
  ``held[below(u1, len(held))]``.
- Why the draws: a deterministic attack lets a low card nobody can beat circle the
  table for ever (each defender picks it up and sheds it next), before the endgame as
  in it; a random suit breaks such cycles.
- defence: ``beat_with(table, hand)`` (the Black Maria willing only with
  ``highest_trump``) if it beats every card or the stock is empty (every card beaten is
  one card fewer to shed); otherwise, since it must pick up anyway, it beats only with
  low cards (non-trump, rank 2..J), keeping the rest: ``beat_with(table, low cards)``.
  It beats every card whenever it can, so the duty to beat never changes its move.

``mc`` — ``mc(determinizations=32, base=greedy)`` (docs/design.md; parameters ``core/search.py``),
determinized Monte Carlo, one implementation (compiled.py ``search``; the reference engine
asks it on ``compiled.state_from`` of its table). At each decision:
- candidates (``compiled.candidates``), greedy's whole decision first, duplicates dropped:
  for greedy's declaration, then no declaration, then each other suit it may declare
  (MM-5), the decisions below under the trump that leaves.
  *Attack* (MM-9, MM-13), suit by suit in suit order: the whole suit; its low cards (rank
  2..J, not trump); spades without the Black Maria; each single card (of two equal copies
  only copy 0). In the endgame each set is cut to its ``cap`` lowest cards.
  *Defence* (MM-10): ``beat_with(table, W)`` for W = the hand (the Black Maria only with
  ``highest_trump``), its non-trumps, its low cards, its low cards and trumps (keeping the
  high non-trumps), nothing. Under the duty to beat only those that beat every card.
  With one candidate it is taken at once: no world, no play-out.
- worlds ``j = 0 .. determinizations-1``, keyed ``w_j = rng.world_key(key, turn, j)``: the
  cards the player cannot see — the deck less its hand, the discard, the table, the cards
  known to be in other hands (picked up, MM-12; a marriage's king and queen, MM-5; the
  turned card drawn, MM-7) and the turned card while it lies under the stock — in code
  order, permuted by ``w_j`` (``DEAL`` stream), fill the other hands after their known
  cards to their sizes (seat order), then the stock from its top. Not used: what a
  pick-up under the duty to beat says (that hand could not beat every card).
  ``beliefs="reads"`` (``MC_EXTRA``): each other hand takes first the hidden cards its
  seat's reads do not bar (``reads.py``: what its choices with the stock empty say it does
  not hold, read as greedy's), then as far as the cards go (``compiled.determinize``).
- play-outs: in each world each candidate is applied to a copy and played to the end with
  ``base`` in every seat, ``w_j`` standing in for the game key (its policy draws); a
  play-out scores 1 when the player does not lose (a truncated one too, MM-16).
- the candidate with the highest total is chosen, ties to the first (greedy's).
- ``base`` may be ``learned(model=NAME)``: the play-outs are the learned policy's.

``learned`` — ``learned(model=NAME)`` (docs/design.md#learned-players): a scorer (linear, or a small network:
``core.learned``) over ``mc``'s candidates (``compiled.decision_candidates``, greedy's first), each described by
the integer features of ``learned_features.py``, computed from the deciding seat's view only (its hand, the
table, the discard, the trump after the candidate's declaration; the cards it cannot place are one pool); its
score is the model's fixed-point weights of the block of the decision's kind and stage dotted with them, plus a
network's rectified units over them (``core.learned.score``); the highest score wins, ties to the first (so a
model of zero weights is ``greedy``). No draws. ``NAME`` is a committed model (``cardsim/models/musta_maija/``)
or a model file's path; without it, ``DEFAULT_MODEL``. One implementation, in numba: the reference engine asks
it on ``compiled.state_from`` of its table, as for ``mc``.

``forbid=OPTION`` (every policy; ``rules.OPTIONS``; issue 27's restricted play): the seat never takes that
optional action. ``declare``: it never declares a marriage (MM-5) — ``random`` and ``greedy`` decide as if
they had no option to declare (no draw is looked at for it), ``mc`` and ``learned`` drop every candidate
that declares, ``mc`` also at its own seat's play-out decisions (the other seats of a play-out play its
base unrestricted). Not declaring is always legal, so the restriction always has an alternative.
"""
from __future__ import annotations

from collections import deque

from cardsim.core import rng
from cardsim.core.search import MC, ORACLE, MonteCarlo, PolicyStrings
from cardsim.games.musta_maija.cards import BLACK_MARIA, JACK, RANKS, SPADES, SUITS, cards, mask, rank, suit, suit_cards
from cardsim.games.musta_maija.rules import OPTIONS

LEARNED = "learned"
BASES = ("random", "greedy", LEARNED)
"""The policies that decide without search: ``mc``'s play-out policies."""
POLICIES = (*BASES, MC, ORACLE)
DECIDED_COMPILED = (MC, ORACLE, LEARNED)
"""The policies the compiled engine decides for the reference engine too (``seating.py`` passes it
``compiled.decide_from``)."""
DEFAULT_MODEL = "musta_maija_4p_agg_g2"
"""The model of ``learned`` without a ``model``: the strongest committed generation, the aggregated chain's second
(docs/ladder.md); the committed studies seating plain ``learned`` name its digest, so switching means running
them again."""
HIGHEST_TRUMP = "highest_trump"
DECLARE = 1
"""``forbid=declare`` as a bit of the policy table's ``FORBID`` column (bit ``i``: ``rules.OPTIONS[i]``)."""
MC_EXTRA = {"beliefs": "uniform"}
"""``mc``'s further parameter: ``beliefs="reads"`` deals its worlds to meet what the other seats' choices with the
stock empty say of their hands, read as greedy's (``reads.py``)."""
STRINGS = PolicyStrings("musta_maija", POLICIES, BASES, tuple(OPTIONS), DEFAULT_MODEL, MC_EXTRA)
parse, parse_policy, policy_name = STRINGS.parse, STRINGS.policy, STRINGS.name
"""A policy string's name, for ``mc`` and ``learned`` its parameters, and its ``forbid`` bits (``parse``; one
``ValueError`` line if bad: ``core.search.PolicyStrings``); the first two (``parse_policy``); the name."""


def reads(policy: str) -> bool:
    """Whether a seat of ``policy`` deals its worlds from the reads (``mc(beliefs=reads)``; not ``oracle``)."""
    search = parse_policy(policy)[1]
    return isinstance(search, MonteCarlo) and search.beliefs == "reads" and not search.sees_all


def _u(key, turn, k):
    return rng.draw(key, rng.Stream.POLICY, turn, k)


def _in_bits(hand: int, u_copy0: int, u_copy1: int) -> int:
    """The cards of ``hand`` in the bits of the two draws (copy 0, copy 1)."""
    return hand & ((u_copy0 & ((1 << 52) - 1)) | (u_copy1 & ((1 << 52) - 1)) << 52)


def lowest(hand: int, k: int) -> int:
    """The ``k`` lowest cards of a one-suit hand (all if fewer)."""
    return mask(cards(hand)[:k])


def low_cards(hand: int, trump: int) -> int:
    """Greedy's cards to shed: non-trump cards of rank 2..J."""
    return mask(c for c in cards(hand) if rank(c) <= JACK and suit(c) != trump)


def declaration(policy: str, hand: int, options: list[int], key: int, turn: int) -> int:
    """The suit to declare trump (MM-5), or -1 (always with ``forbid=declare``)."""
    if not options or parse(policy)[2] & DECLARE:
        return -1
    if policy_name(policy) == "random":
        j = rng.below(_u(key, turn, 0), 1 + len(options))
        return options[j - 1] if j else -1
    return max(options, key=lambda s: (len(cards(suit_cards(hand, s))), -s))


def attack(policy: str, hand: int, trump: int, cap: int | None, key: int, turn: int) -> int:
    """The attack cards (one suit, MM-9); ``cap`` is the defender's hand size in the endgame (MM-13)."""
    held = [s for s in range(SUITS) if suit_cards(hand, s)]
    if policy_name(policy) == "random":
        own = suit_cards(hand, held[rng.below(_u(key, turn, 1), len(held))])
        pick = _in_bits(own, _u(key, turn, 2), _u(key, turn, 3)) or lowest(own, 1)
        return pick if cap is None else lowest(pick, cap)
    if cap is not None and hand >> BLACK_MARIA & 1:
        return 1 << BLACK_MARIA | lowest(suit_cards(hand, SPADES) & ~(1 << BLACK_MARIA), cap - 1)
    if cap is not None:
        return lowest(suit_cards(hand, held[rng.below(_u(key, turn, 1), len(held))]), cap)
    low = low_cards(hand, trump)
    if not low:
        rest = cards(hand & ~(1 << BLACK_MARIA)) or cards(hand)
        return 1 << rest[0]
    low_suits = [s for s in range(SUITS) if suit_cards(low, s)]
    return suit_cards(low, low_suits[rng.below(_u(key, turn, 1), len(low_suits))])


def beat_with(table: int, willing: int, trump: int, black_maria: str) -> list[tuple[int, int]]:
    """The defence procedure of the module docstring: pairs (beater, attack card)."""
    s = suit(cards(table)[0])
    attack_cards = [c for c in cards(table) if c != BLACK_MARIA]
    own = [c for c in cards(suit_cards(willing, s)) if c != BLACK_MARIA]
    pairs: list[tuple[int, int]] = []
    unbeaten: deque[int] = deque()
    for r in range(RANKS):
        for d in (c for c in own if rank(c) == r):
            if unbeaten:
                pairs.append((d, unbeaten.popleft()))
        unbeaten.extend(c for c in attack_cards if rank(c) == r)
    if 0 <= trump != s:
        for d in cards(suit_cards(willing, trump)):
            if unbeaten:
                pairs.append((d, unbeaten.popleft()))
    if black_maria == HIGHEST_TRUMP and willing >> BLACK_MARIA & 1 and unbeaten:
        pairs.append((BLACK_MARIA, unbeaten.popleft()))
    return pairs


def defence(policy: str, hand: int, table: int, trump: int, black_maria: str, endgame: bool, must: bool, key: int,
            turn: int) -> list[tuple[int, int]]:
    """The defender's pairs (beater, attack card); unbeaten cards are picked up (MM-10..MM-12).

    ``must``: the duty to beat binds (MM-10), every attack card must be beaten.
    """
    if policy_name(policy) == "random":
        pairs = beat_with(table, _in_bits(hand, _u(key, turn, 1), _u(key, turn, 2)), trump, black_maria)
        return beat_with(table, hand, trump, black_maria) if must and len(pairs) < len(cards(table)) else pairs
    willing = hand if black_maria == HIGHEST_TRUMP else hand & ~(1 << BLACK_MARIA)
    pairs = beat_with(table, willing, trump, black_maria)
    if endgame or len(pairs) == len(cards(table)):
        return pairs
    return beat_with(table, low_cards(hand, trump), trump, black_maria)
