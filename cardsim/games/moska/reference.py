"""Moska reference engine: one game in plain Python, rules M-1…M-22, a record and a trace.

This file is the oracle that ``vector.py`` must reproduce game for game; it is written
to be read next to shared/rules/moska.md. It is not fast. The decision protocol below
is normative for both engines (and for ``policies.py``): change it only with a note
here and in the commit message.

DECISION PROTOCOL (v1)
======================
Cards: code ``c = suit * 13 + rank`` (core/cards.py FRENCH52: suits ♣♦♥♠ = 0..3,
ranks 2..A = 0..12). ``kills(a, k)``: ``k`` has the suit of ``a`` and a higher rank,
or ``k`` is a trump and ``a`` is not (M-10). ``KILL[t][a]`` is the mask of killers.

Deal (M-4, M-5). ``key = rng.game_key(seed, game)``,
``perm = rng.permutation(key, Stream.DEAL, 52)``, ``H = hand_size``, ``P = players``.
``perm[j]`` for ``j < P*H`` goes to seat ``(1 + j) % P`` (one card at a time,
clockwise from seat 1). ``perm[P*H]`` is the turned card; its suit is trump. The
stock is drawn from the front: ``perm[P*H+1], ..., perm[51]``, then the turned card
last. So game i deals the same cards under every variant with the same P and H.

Trump-two swap (M-6, knob ``trump_two_swap``). Possible while the stock is not empty,
its last card is still the turned card, and the turned card is not the trump 2.
Immediately before each decision (below) of the player who holds the trump 2, if
possible, that player swaps: the turned card goes to their hand, the 2 becomes the
stock's last card. Not a decision; no draw. At most one swap per game.

Room (M-9). ``cap = attack_cap`` (None = 52). Mode ``"round"``:
``room = min(cap, D0 if cap_to_defender_hand else 52) - (attack cards this round)``,
D0 = defender's hand size when the round began. Mode ``"unkilled"``:
``room = min(cap, |defender hand now| if cap_to_defender_hand else 52) - (unkilled
cards)``. Room below 0 counts as 0. Attack cards of the round include the
defender's own cards of M-14. Allowed ranks (M-11): ranks of the attack cards on the
table this round, plus ranks of kill cards with ``continuation="attack_and_kill"``.

A decision is one call of a seat's policy; ``turn`` counts decisions from 0 and is
the ``turn`` of ``rng.draw(key, Stream.POLICY, turn, k)``. Before each decision, if
``turn == max_turns`` the game stops: ``truncated=True``, ``loser=-1`` (M-21).

A round (M-7, M-15). Attacker A (seat 1 in round 1), defender D = next seat
clockwise (+1) after A that is not out.
1. Opening: one decision of A (M-8: one card, or a union of same-rank groups of >= 2
   cards, at most ``room`` cards). A refills (M-13), then the end check (E).
2. Defence step: one decision of D, always (even with nothing to kill): kill any
   subset of the unkilled cards, each with its own killer (M-10); then, with
   ``defender_self_attack``, self-attack pairs (M-14) one after another. A pair
   (c, k) is legal when: c, k in D's hand, rank(c) allowed now, kills(c, k),
   room >= 1 now, and (if attack_cap is not None) ``gone + 2 <= attack_cap`` where
   gone = D's cards that left D's hand this round (kill cards and self-attack cards).
   If D's hand is now empty the round ends at once [decision] (go to 4).
3. Addition step (M-11, M-12): room R and allowed ranks are fixed at the start of the
   step. The adders are the seats other than D that are not out, holding a card of
   an allowed rank, when R >= 1, taken clockwise starting at A. Each adder makes one
   decision: a set of their cards of allowed ranks, at most R cards (may be empty).
   If the total T exceeds R, e = T - R cards go back (M-12), one more decision:
   ``"defender"``: D chooses e of the cards added in this step; ``"last"``: adders
   latest in clockwise order from A take all theirs back first; the one adder who
   must take back only part (if any) chooses which; whole take-backs are automatic.
   The cards that stay go on the table; their owners refill in clockwise order from
   A (M-13); then the end check (E). If no card stayed, the round ends (go to 4);
   otherwise go back to 2.
4. Round end. All attack cards killed (M-16): table to discard, D refills, the next
   attacker is D, or if D is out the next seat left of D not out. Otherwise (M-17):
   killed pairs to discard, D picks up the unkilled cards, refills, the next attacker
   is the next seat left of D not out. Then the end check (E).
Refill: draw from the stock front until ``hand_size`` cards or the stock is empty.
Out (M-18): a seat with no cards while the stock is empty, checked for each refilling
seat right after its refill (in refill order), appended to ``finish_order``.
(E) End check (M-19, M-20): if the stock is empty and at most one seat holds cards,
the game ends: that seat loses; nobody holding cards = no loser (-1).

Record: ``turns`` = decisions made; ``rounds`` = openings; ``first_out``,
``finish_order``, ``trump_suit``, ``swaps``, ``overplays`` (addition steps with
cards sent back), ``pickups`` (rounds ending by M-17), ``self_attacks`` (pairs of
M-14). What each policy does at each decision, and its draws ``k``, is specified in
``policies.py``.
"""
