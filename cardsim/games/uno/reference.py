"""Uno reference engine: one game in plain Python, rule IDs of ``docs/rules/uno.md`` in
comments, a trace a person can follow. It is the oracle ``compiled.py`` must equal; it is
not meant to be fast.

DECISION PROTOCOL (both engines follow it to the letter)
========================================================
State. Players are indexed by their seat in the first hand (seat 0 = first dealer).
A hand is a count per card kind (``cards.py``). The draw pile is a list, ``pile[0]``
drawn first. The discard pile is its top card ``top`` (with the current ``colour``)
plus a count per kind of the cards under it.

Deal (U-4). Hand ``h`` of a game (``h = 0`` unless ``target_score``) is dealt by player
``h mod P``. The canonical deck (kinds ascending, copies adjacent) is ordered by
``rng.permutation(key, Stream.DEAL, n_cards, counter=h)``: card ``j < hand_size * P`` goes
to player ``(dealer + 1 + j) mod P``, the next card is turned as starting card, the rest
is the draw pile. A Wild Draw Four turned (U-5) goes back on top of the pile, the pile
is put in *keyed order* with words ``(Stream.EXTRA, 1, h, attempt)`` (attempt = 0, 1, ..),
and the new top card is turned.

Keyed order of a list of ``m`` cards with words ``w``: position ``i`` gets
``u_i = rng.draw(key, *w, i)``; the new list is the cards sorted by ``(u_i, i)``.

Reshuffle (U-8): when a card must be drawn from an empty pile and cards lie under the
top of the discard pile, those cards in canonical order (kinds ascending) are put in
keyed order with words ``(Stream.RESHUFFLE, r)``, ``r`` = reshuffles so far in the game,
and become the pile. With nothing to reshuffle the draw stops short.

Shuffle Hands (U-15): every hand's cards, merged in canonical order, in keyed order with
words ``(Stream.EXTRA, 0, t)`` (``t`` = the decision counter of the play); card ``j`` goes
to player ``(p + d * (j + 1)) mod P`` (``p`` the player, ``d`` the direction).

Decisions. A *decision* is one turn of one player who has a choice; it is the unit of
``turns`` (whole game) and of ``max_turns`` (per hand, U-21: a hand that has made
``max_turns`` decisions without a winner stops, truncated). Forced penalties (Draw
Two without stacking, Wild Draw Four without challenge) are applied as part of the
play that causes them and cost no decision. Policy draws are
``u_k = rng.draw(key, Stream.POLICY, t, k)``, ``t`` = decisions made before this one in
the game. In one decision of player ``p``, in this order:

1. only in a hand's first decision after a wild starting card: ``p`` names the colour
   (``u_5``);
2. a stacked Draw Two is pending (U-11, ``stack_draw_two``): ``p`` stacks a Draw Two
   (``u_0``), which is a play (step 5), or draws the total and the turn passes;
3. a Wild Draw Four hit ``p`` (U-14, ``wd4_challenge``): ``p`` challenges or not
   (``u_0``). Not: ``p`` draws 4, the turn passes. Challenged and legal: ``p`` draws 6, the
   turn passes. Challenged and illegal: its player draws 4 and ``p`` goes on to step 4;
4. a normal turn (U-6, U-7): bluff (``u_1``) or choose a legal card (``u_2``). With none,
   draw one (``draw_rule="one"``) or until a playable card comes or the cards run out
   (``"until_playable"``); a playable drawn card is played;
5. a play: the card goes on the discard pile; a wild's colour is named (``u_3``) after
   its effect; a swap target is chosen with ``u_4``. If the hand is now empty the player
   wins the hand (U-18) after the next player draws for a Draw Two (with any stacked
   total) or a Wild Draw Four, or everyone else draws one for that custom wild.

Effects: Skip passes over one player (U-9), Reverse turns the direction and with two
players passes over one (U-10), Draw Two makes the next player draw two and passes
over them (or, stacking, hands them a pending total), Wild Draw Four makes the next
player draw four and passes over them (or, with challenges, hands them a pending
challenge), every other card passes the turn to the next player.

Choices. The policy choices of a decision, by kind (``compiled.py`` waits at each, ``mc``
searches each): ``START_COLOUR`` (step 1, a colour 0..3), ``STACK`` (step 2, a Draw Two's kind
or ``TAKE``), ``CHALLENGE`` (step 3, 1 or 0), ``CARD`` (step 4, a held kind that is legal, a
Wild Draw Four even as a bluff, or ``DRAW``), ``TARGET`` (step 5, a seat to swap with) and
``COLOUR`` (step 5, the colour a wild names).

Knowledge. ``shown[holder][viewer][kind]`` counts the copies of ``kind`` that ``viewer``
knows to be in ``holder``'s hand: a challenge shows the Wild Draw Four player's hand to the
challenger (U-14); after a swap (U-16) each of the two knows the hand they gave away; a card
played leaves the count (drawn cards are unknown); Shuffle Hands (U-15) and a deal forget all.
``barred[holder]`` is what the table has read from ``holder``'s choices (for ``mc``, which reads
every other seat as ``greedy``), newest first, at most ``READ_LAYERS``: each ``[mask, cards]`` says
that ``cards`` of the hand hold none of the kinds of ``mask`` (bit ``k``: kind ``k``). A seat that
draws for its turn could play nothing (the cards it keeps: none of the legal kinds; every policy
here plays when it can); a seat that plays a card held none of the kinds ``greedy`` would have
played first (its other cards; ``policies.greedy_passes_over``). A read bars its kinds in every older layer too (those
cards are still held); a card played leaves every layer whose kinds do not include it (it may
have been one of them); a swap moves the reads with the hand; Shuffle Hands and a deal forget them.

Record. ``winner`` is the winner of the game (the hand, or the match with
``target_score``), ``points`` what they scored (U-19; their match total with
``target_score``), ``hands`` hands played; counters cover the whole game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from cardsim.core import rng
from cardsim.core.records import Replay, Setup
from cardsim.core.search import unseated
from cardsim.games.uno import policies as pol
from cardsim.games.uno.events import BOOK
from cardsim.games.uno.cards import (COLOURS, CUSTOM, DRAW_TWO, K, LEGAL, POINTS, REVERSE, SHUFFLE, SKIP, WD4,
                                     WILD, colour_of, counts_of, deck_cards, kinds, parse,
                                     symbol_of)
from cardsim.games.uno.policies import Policy, parse_policy
from cardsim.games.uno.rules import UnoRules

SHUFFLE_HANDS_TAG, STARTER_TAG = 0, 1
"""First word after ``Stream.EXTRA``: Shuffle Hands deals, Wild Draw Four starters."""
START_COLOUR_SLOT, ANSWER_SLOT, BLUFF_SLOT, CARD_SLOT, COLOUR_SLOT, TARGET_SLOT = 5, 0, 1, 2, 3, 4
START_COLOUR, STACK, CHALLENGE, CARD, TARGET, COLOUR, OVER = range(7)
"""The kinds of choice of the protocol (``OVER``: none, the game is over)."""
DRAW = TAKE = -1
"""The ``CARD`` choice that draws (U-7) and the ``STACK`` choice that takes the stacked total (U-11)."""
READ_LAYERS = 4
"""How many reads of a hand the table keeps (``read``): the oldest goes first."""


@dataclass
class State:
    """One game in progress: the current hand and the game's counters.

    ``hands[p][kind]`` copies held; ``pile`` the draw pile (``pile[0]`` drawn first);
    ``discard`` counts per kind under ``top``; ``colour`` the current colour (-1 while a
    wild starter waits for a colour); ``pending_draw`` a stacked Draw Two total waiting for
    ``current``; ``challenge_open`` a Wild Draw Four (by ``wd4_player``, bluffed or not) that
    ``current`` may challenge (``wd4_colour``: the colour it was played on); ``hand_turns`` decisions
    in this hand, ``turns`` in the game; ``shown[holder][viewer]`` what ``viewer`` knows of
    ``holder``'s hand; ``events`` the raw events of ``events.py``, with ``held`` (cards per hand,
    kept with ``hands`` so that recording an event costs no count).
    """

    rules: UnoRules
    players: int
    policies: tuple[Policy, ...]
    key: int
    hands: list[list[int]] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=lambda: [0] * K)
    top: int = -1
    colour: int = -1
    direction: int = 1
    current: int = 0
    pending_draw: int = 0
    challenge_open: bool = False
    wd4_bluffed: bool = False
    wd4_player: int = -1
    wd4_colour: int = -1
    hand_winner: int = -1
    hand_no: int = 0
    hand_turns: int = 0
    turns: int = 0
    reshuffles: int = 0
    cards_drawn: int = 0
    challenges: int = 0
    successful_challenges: int = 0
    shown: list[list[list[int]]] = field(default_factory=list)
    barred: list[list[list[int]]] = field(default_factory=list)
    events: list[tuple] = field(default_factory=list)
    search: Callable[[State, int], int] | None = field(default=None, compare=False, repr=False)
    """What decides a choice of a seat the compiled engine decides (``searched``); ``seating.play`` hands it."""

    def seat(self, steps: int) -> int:
        """The player ``steps`` places from the current one in the direction of play."""
        return (self.current + steps * self.direction) % self.players

    def note(self, action: str, seat: int, cards: tuple[int, ...] = (), target: int = -1, decided: bool = False,
             points: int | None = None) -> None:
        """Record an event (``events.py``): part of the decision being made when ``decided``."""
        self.events.append((self.turns - 1 if decided else None, seat, action, cards, target,
                            tuple(self.held), self.hand_no, len(self.pile), self.top, self.colour,
                            self.direction, self.pending_draw, points))

    def u(self, slot: int) -> int:
        """Policy draw ``slot`` of the decision being made (``self.turns`` is already counted)."""
        return rng.draw(self.key, rng.Stream.POLICY, self.turns - 1, slot)


def make_state(players: int, hands: list[str], top: str, *, colour: str | None = None, pile: str = "",
               discard: str = "", rules: UnoRules | None = None, policy: str = "random",
               current: int = 1, direction: int = 1, key: int = 0) -> State:
    """A hand position built by hand (for scenario tests): card names as in ``cards.parse``."""
    s = State(rules or UnoRules(), players, (parse_policy(policy),) * players, key,
              hands=[counts_of(h) for h in hands], held=[len(h.split()) for h in hands],
              pile=[parse(c) for c in pile.split()],
              discard=counts_of(discard), top=parse(top), current=current, direction=direction)
    s.colour = COLOURS.index(colour) if colour else colour_of(s.top)
    forget_hands(s)
    return s


# ---------------------------------------------------------------- cards moving

def keyed_order(key: int, words: tuple[int, ...], cards: list[int]) -> list[int]:
    """``cards`` sorted by ``(rng.draw(key, *words, i), i)``: the keyed order of the protocol."""
    u = [rng.draw(key, *words, i) for i in range(len(cards))]
    return [cards[i] for i in sorted(range(len(cards)), key=lambda i: (u[i], i))]


def reshuffle(s: State) -> None:
    """U-8: the discard pile except its top card becomes the new draw pile."""
    under = [k for k in range(K) for _ in range(s.discard[k])]
    s.pile = keyed_order(s.key, (rng.Stream.RESHUFFLE, s.reshuffles), under)
    s.discard = [0] * K
    s.reshuffles += 1
    s.note("reshuffle", -1, tuple(s.pile))


def draw_cards(s: State, player: int, n: int, on_turn: bool = False) -> list[int]:
    """``player`` draws ``n`` cards, reshuffling when needed (U-8); fewer if the cards run out.

    Recorded as a ``draw`` of the decision (``on_turn``, U-7) or a ``penalty``, split around a reshuffle.
    """
    drawn: list[int] = []
    noted = 0
    for _ in range(n):
        if not s.pile:
            if not any(s.discard):
                break
            if len(drawn) > noted:
                s.note("draw" if on_turn else "penalty", player, tuple(drawn[noted:]), decided=on_turn)
                noted = len(drawn)
            reshuffle(s)
        card = s.pile.pop(0)
        s.hands[player][card] += 1
        s.held[player] += 1
        drawn.append(card)
    s.cards_drawn += len(drawn)
    if n and (len(drawn) > noted or not drawn):
        s.note("draw" if on_turn else "penalty", player, tuple(drawn[noted:]), decided=on_turn)
    return drawn


# ---------------------------------------------------------------- what a player has been shown

def forget_hands(s: State) -> None:
    """Nobody knows anything of another's hand (a deal, U-15)."""
    s.shown = [[[0] * K for _ in range(s.players)] for _ in range(s.players)]
    s.barred = [[] for _ in range(s.players)]


def read(s: State, holder: int, mask: int, cards: int) -> None:
    """The table reads that ``cards`` of ``holder``'s cards are none of the kinds of ``mask`` (bits): it bars
    them in every older layer too and becomes the newest (``READ_LAYERS`` kept). An empty mask tells nothing."""
    if not mask:
        return
    layers = s.barred[holder]
    for layer in layers:
        layer[0] |= mask
    layers.insert(0, [mask, cards])
    del layers[READ_LAYERS:]


def show_hand(s: State, holder: int, viewer: int) -> None:
    """``viewer`` sees ``holder``'s whole hand."""
    s.shown[holder][viewer] = list(s.hands[holder])


def leaves_hand(s: State, player: int, kind: int) -> None:
    """A card leaves ``player``'s hand face up: whoever knew of a copy there knows one copy less, and a read
    layer whose kinds do not include it may have lost one of its cards."""
    s.hands[player][kind] -= 1
    s.held[player] -= 1
    for known in s.shown[player]:
        if known[kind] > 0:
            known[kind] -= 1
    for layer in s.barred[player]:
        if layer[1] > 0 and not layer[0] >> kind & 1:
            layer[1] -= 1


# ---------------------------------------------------------------- legality (U-6, U-12, U-13)

def holds_colour(hand: list[int], colour: int) -> bool:
    return any(hand[colour * 13:(colour + 1) * 13])


def wd4_is_legal(s: State, player: int) -> bool:
    """U-13: a Wild Draw Four is legal only without a card of the current colour."""
    return not holds_colour(s.hands[player], s.colour)


def playable(s: State, player: int, kind: int) -> bool:
    """May ``player`` legally play ``kind`` now (whether held or not)?"""
    return bool(LEGAL[s.colour, s.top, kind]) and (kind != WD4 or wd4_is_legal(s, player))


def legal_cards(s: State, player: int) -> list[bool]:
    """Per kind: held by ``player`` and legal on the discard pile."""
    hand = s.hands[player]
    return [hand[k] > 0 and playable(s, player, k) for k in range(K)]


def hand_points(s: State, winner: int) -> int:
    """U-19: the cards left in the other hands."""
    return sum(int(POINTS[k]) * s.hands[p][k] for p in range(s.players) if p != winner for k in range(K))


# ---------------------------------------------------------------- playing a card

class Chooser:
    """The choices a play may need after the card is chosen: the colour and a swap target."""

    def __init__(self, s: State, policy: Policy) -> None:
        self.s, self.policy = s, policy

    def colour(self, player: int) -> int:
        if self.policy.compiled:
            return searched(self.s, COLOUR)
        if self.policy.greedy:
            return pol.greedy_colour(self.s.hands[player])
        return pol.random_colour(self.s.u(COLOUR_SLOT))

    def target(self, player: int) -> int:
        if self.policy.compiled:
            return searched(self.s, TARGET)
        if self.policy.greedy:
            return pol.greedy_target(player, [sum(h) for h in self.s.hands])
        return pol.random_target(player, self.s.players, self.s.u(TARGET_SLOT))


class Fixed(Chooser):
    """Choices given in advance (scenario tests)."""

    def __init__(self, colour: str = "R", target: int = 0) -> None:
        self._colour, self._target = COLOURS.index(colour), target

    def colour(self, player: int) -> int:
        return self._colour

    def target(self, player: int) -> int:
        return self._target


def play_card(s: State, kind: int, choose: Chooser) -> None:
    """The current player plays ``kind`` (U-6..U-18): discard, effects, colour, next player."""
    p = s.current
    if kind == WD4:  # U-13: whether it is a bluff is known to its player; a challenge will tell
        s.wd4_bluffed, s.wd4_colour = not wd4_is_legal(s, p), s.colour
    leaves_hand(s, p, kind)
    s.discard[s.top] += 1
    s.top = kind
    if kind < WILD:
        s.colour = colour_of(kind)
    s.note("play", p, (kind,), decided=True)
    if sum(s.hands[p]) == 0:
        finish_with_last_card(s, kind)
        return
    symbol = symbol_of(kind)
    if symbol == SKIP:
        s.current = s.seat(2)  # U-9: with two players this is the player again
    elif symbol == REVERSE:
        s.direction = -s.direction  # U-10
        s.current = s.seat(1 if s.players > 2 else 2)
    elif symbol == DRAW_TWO:
        play_draw_two(s)
    elif kind == WD4:
        name_colour(s, choose)
        play_wild_draw_four(s)
    else:
        if kind == SHUFFLE:
            shuffle_hands(s)
        elif kind == CUSTOM:
            play_custom_wild(s, choose)
        if kind >= WILD:
            name_colour(s, choose)  # U-12, U-15, U-16: the colour is named after the effect
        s.current = s.seat(1)


def name_colour(s: State, choose: Chooser) -> None:
    s.colour = choose.colour(s.current)
    s.note("colour", s.current, decided=True)


def play_draw_two(s: State) -> None:
    """U-11: the next player draws two and loses the turn; stacking hands them the total."""
    if s.rules.stack_draw_two:
        s.pending_draw += 2
        s.current = s.seat(1)
    else:
        draw_cards(s, s.seat(1), 2)
        s.current = s.seat(2)


def play_wild_draw_four(s: State) -> None:
    """U-13: the next player draws four and loses the turn, unless they may challenge (U-14)."""
    if s.rules.wd4_challenge:
        s.challenge_open, s.wd4_player = True, s.current
        s.current = s.seat(1)
    else:
        draw_cards(s, s.seat(1), 4)
        s.current = s.seat(2)


def shuffle_hands(s: State) -> None:
    """U-15: all hands merged, shuffled, dealt one at a time from the next player on."""
    merged = [k for k in range(K) for p in range(s.players) for _ in range(s.hands[p][k])]
    cards = keyed_order(s.key, (rng.Stream.EXTRA, SHUFFLE_HANDS_TAG, s.turns - 1), merged)
    s.hands = [[0] * K for _ in range(s.players)]
    forget_hands(s)
    for j, card in enumerate(cards):
        s.hands[s.seat(j + 1)][card] += 1
    s.held = [sum(h) for h in s.hands]
    for j in range(1, s.players + 1):
        s.note("shuffle", s.seat(j), kinds(s.hands[s.seat(j)]))


def play_custom_wild(s: State, choose: Chooser) -> None:
    """U-16: the table's rule on the blank wilds."""
    if s.rules.custom_wild == "swap_hands":
        p = s.current
        other = choose.target(p)
        s.hands[p], s.hands[other] = s.hands[other], s.hands[p]
        s.held[p], s.held[other] = s.held[other], s.held[p]
        s.shown[p], s.shown[other] = s.shown[other], s.shown[p]  # what anyone knew of a hand follows it
        s.shown[p][p], s.shown[other][other] = [0] * K, [0] * K  # one's own hand is not "shown"
        s.barred[p], s.barred[other] = s.barred[other], s.barred[p]  # and what was read of it
        show_hand(s, other, p)  # each knows the hand they gave
        show_hand(s, p, other)
        s.note("swap", s.current, kinds(s.hands[s.current]), other,
               decided=True)
    elif s.rules.custom_wild == "everyone_draws_one":
        for i in range(1, s.players):
            draw_cards(s, s.seat(i), 1)


def finish_with_last_card(s: State, kind: int) -> None:
    """U-18: the player is out and wins the hand; a draw card still makes the others draw."""
    total, s.pending_draw = s.pending_draw + 2, 0
    if symbol_of(kind) == DRAW_TWO:
        draw_cards(s, s.seat(1), total)
    elif kind == WD4:
        draw_cards(s, s.seat(1), 4)
    elif kind == CUSTOM and s.rules.custom_wild == "everyone_draws_one":
        for i in range(1, s.players):
            draw_cards(s, s.seat(i), 1)
    s.hand_winner = s.current
    s.note("out", s.current)


# ---------------------------------------------------------------- one decision

def decide(s: State) -> None:
    """One decision of the current player, steps 1-5 of the protocol."""
    p = s.current
    policy = s.policies[p]
    hand = s.hands[p]
    s.turns += 1
    s.hand_turns += 1
    if s.colour < 0:  # U-5: a wild starter, seat 1 names the colour and plays
        if policy.compiled:
            s.colour = searched(s, START_COLOUR)
        else:
            s.colour = pol.greedy_colour(hand) if policy.greedy else pol.random_colour(s.u(START_COLOUR_SLOT))
        s.note("colour", p, decided=True)
    if s.pending_draw:
        answer_draw_two(s, policy)
        return
    if s.challenge_open and not answer_wild_draw_four(s, policy):
        return
    normal_turn(s, policy)


def answer_draw_two(s: State, policy: Policy) -> None:
    """U-11 stacking: stack a Draw Two or draw the total and lose the turn."""
    hand = s.hands[s.current]
    if policy.compiled:
        kind = searched(s, STACK)
    elif policy.forbids(pol.STACK_BIT):  # forbid=stack: the total is taken
        kind = -1
    else:
        kind = pol.greedy_stack(hand) if policy.greedy else pol.random_stack(hand, s.u(ANSWER_SLOT))
    if kind >= 0:
        play_card(s, kind, Chooser(s, policy))
        return
    s.note("no_stack", s.current, decided=True)
    total, s.pending_draw = s.pending_draw, 0
    draw_cards(s, s.current, total)
    s.current = s.seat(1)


def answer_wild_draw_four(s: State, policy: Policy) -> bool:
    """U-14: challenge or not; True when the player then takes their turn normally."""
    p = s.current
    if policy.compiled:
        challenge = searched(s, CHALLENGE)
    else:  # forbid=challenge: never
        challenge = not policy.forbids(pol.CHALLENGE_BIT) and pol.chance(s.u(ANSWER_SLOT), policy.challenge_cut)
    s.challenge_open = False
    if not challenge:
        s.note("no_challenge", p, decided=True)
        draw_cards(s, p, 4)
        s.current = s.seat(1)
        return False
    s.challenges += 1
    s.note("challenge", p, target=s.wd4_player, decided=True)
    show_hand(s, s.wd4_player, p)
    if s.wd4_bluffed:
        s.successful_challenges += 1
        draw_cards(s, s.wd4_player, 4)
        return True
    draw_cards(s, p, 6)
    s.current = s.seat(1)
    return False


def choose_card(s: State, policy: Policy) -> int:
    """Step 4: a bluffed Wild Draw Four (U-13) or the policy's legal card, ``DRAW`` for none."""
    if policy.compiled:
        return searched(s, CARD)
    p = s.current
    hand = s.hands[p]
    if hand[WD4] and not wd4_is_legal(s, p) and not policy.forbids(pol.BLUFF_BIT) \
            and pol.chance(s.u(BLUFF_SLOT), policy.bluff_cut):
        return WD4
    legal = legal_cards(s, p)
    if policy.greedy:
        return pol.greedy_card(hand, legal, s.colour, s.top)
    return pol.random_card(hand, legal, s.u(CARD_SLOT))


def normal_turn(s: State, policy: Policy) -> None:
    """U-6, U-7: play a card, or draw and play the drawn card if it is playable."""
    p = s.current
    kind = choose_card(s, policy)
    if kind >= 0:
        read(s, p, pol.greedy_passes_over(s.colour, s.top, kind), s.held[p])  # the card played leaves it
    else:
        legal = int(pol.LEGAL_BITS[s.colour, s.top])
        kind = draw_for_turn(s, p)
        read(s, p, legal, s.held[p] - (kind >= 0))  # what it kept could not be played
    if kind < 0:
        s.current = s.seat(1)
        return
    play_card(s, kind, Chooser(s, policy))


def draw_for_turn(s: State, p: int) -> int:
    """U-7: draw one card (or until a playable one); the playable drawn card or -1."""
    while True:
        drawn = draw_cards(s, p, 1, on_turn=True)
        if not drawn:
            return -1
        if playable(s, p, drawn[0]):
            return drawn[0]
        if s.rules.draw_rule == "one":
            return -1


# ---------------------------------------------------------------- hands and games

def deal(s: State, hand_no: int) -> None:
    """U-4, U-5: shuffle, deal, turn the starting card and apply it."""
    r, players = s.rules, s.players
    dealer = hand_no % players
    cards = deck_cards(r.deck)
    order = [cards[i] for i in rng.permutation(s.key, rng.Stream.DEAL, len(cards), counter=hand_no)]
    s.hands = [[0] * K for _ in range(players)]
    for j in range(r.hand_size * players):
        s.hands[(dealer + 1 + j) % players][order[j]] += 1
    s.held = [r.hand_size] * players
    s.pile = order[r.hand_size * players:]
    forget_hands(s)
    s.discard = [0] * K
    s.hand_no, s.hand_turns, s.hand_winner = hand_no, 0, -1
    s.direction, s.pending_draw, s.challenge_open, s.top, s.colour = 1, 0, False, -1, -1
    for p in range(players):
        s.note("deal", p, kinds(s.hands[p]))
    s.top = s.pile.pop(0)
    attempt = 0
    while s.top == WD4:  # U-5: the only forbidden starter goes back into the pile
        s.note("starter", dealer, (WD4,))
        s.pile, s.top = keyed_order(s.key, (rng.Stream.EXTRA, STARTER_TAG, hand_no, attempt), [WD4, *s.pile]), -1
        s.note("starter_back", dealer, (WD4,))
        s.top = s.pile.pop(0)
        attempt += 1
    start_with_card(s, dealer)


def start_with_card(s: State, dealer: int) -> None:
    """U-5: the starting card counts as if the dealer had played it."""
    s.colour = colour_of(s.top)
    s.current = dealer
    symbol = symbol_of(s.top)
    if symbol == REVERSE:
        s.direction = -1  # the dealer plays first, then to the dealer's right
    s.note("starter", dealer, (s.top,))
    if symbol == SKIP:
        s.current = s.seat(2)
    elif symbol == DRAW_TWO:
        play_draw_two(s)  # seat 1 draws two (or, stacking, may stack) [decision]
    elif symbol != REVERSE:
        s.current = s.seat(1)  # a wild leaves colour -1: seat 1 names it in its first decision


def play_hand(s: State, hand_no: int) -> bool:
    """Deal and play one hand; False when it was truncated (U-21)."""
    deal(s, hand_no)
    while s.hand_winner < 0:
        if s.hand_turns >= s.rules.max_turns:
            s.note("truncated", -1)
            s.note("table", -1, (*kinds(s.discard), s.top))  # the discard pile, its top card last
            return False
        decide(s)
    return True


def new_state(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...],
              search: Callable[[State, int], int] | None = None) -> State:
    return State(rules, players, tuple(parse_policy(p) for p in policies), rng.game_key(seed, game), search=search)


def searched(s: State, choice: int) -> int:
    """The choice (``START_COLOUR`` .. ``COLOUR``) of the current seat's ``mc``, ``oracle`` or ``learned``:
    ``s.search``'s, which ``seating.play`` hands in (the compiled policy on this position, waiting at ``choice``),
    so that both engines decide alike."""
    if s.search is None:
        raise unseated("uno", s.policies[s.current].name)
    return s.search(s, choice)


def play(rules: UnoRules, players: int, seed: int, game: int, policies: tuple[str, ...],
         search: Callable[[State, int], int] | None = None) -> Replay:
    """Play game ``game``: one hand, or hands until someone reaches ``target_score`` (U-20). ``search`` decides
    the seats the compiled engine decides (``searched``); ``seating.play`` (the ``GameSpec.play``) hands it."""
    s = new_state(rules, players, seed, game, policies, search)
    scores = [0] * players
    winner, points, truncated, hand_no = -1, 0, False, 0
    while True:
        if not play_hand(s, hand_no):
            truncated = True
            break
        w = s.hand_winner
        gained = hand_points(s, w)
        scores[w] += gained
        s.note("score", w, points=gained)
        hand_no += 1
        if rules.target_score is None or scores[w] >= rules.target_score:
            winner, points = w, (gained if rules.target_score is None else scores[w])
            break
    for p in range(players):
        s.note("final", p, kinds(s.hands[p]))
    record = {"game": game, "turns": s.turns, "truncated": truncated, "winner": winner, "points": points,
              "hands": hand_no + truncated, "cards_drawn": s.cards_drawn, "reshuffles": s.reshuffles,
              "challenges": s.challenges, "successful_challenges": s.successful_challenges}
    return Replay("uno", record, s.events, Setup("uno", rules, players, seed, game, policies), BOOK)
