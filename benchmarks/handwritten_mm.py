"""Mächtige Monster written by hand in plain Python, as a yardstick for the engine (issue 11): the rules of
rulesets/maechtige_monster/ (base game and its variants waechterkette, koenigs_neue_regeln and
billiges_verdraengen), played with uniformly random decisions. It is a benchmark, not the engine: no
hidden information, no log, no history, no saving; tests/test_handwritten_mm.py checks that it plays
the same game (same distribution of decisions and gold)."""
from __future__ import annotations

import random

HAND_SIZE = 3
START_GOLD = 8
TREASURY_FEE = 1
KING_TILES = {3: 6, 4: 6, 5: 5, 6: 6}  # rounds by player count
OWNER_FEE = (0, 0, 1, 2)  # by guard level (index 0 unused)
CHEAP_OWNER_FEE = (0, 0, 0, 1)  # the house rule billiges_verdraengen
HEAL = (0, 1, 1, 2, 2, 3)  # by monster strength
COSTLY_HEAL = (0, 1, 1, 2, 4, 4)  # the king tile costly_healing
MONSTER_TYPES = 6

# level, highest strength (its back), strength, loot: the 36 guards of game.rules
GUARDS = tuple((lv, smax, s, loot) for lv, smax, rows in (
    (1, 6, ((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5), (5, 6), (6, 5), (6, 6), (6, 7))),
    (2, 8, ((5, 6), (5, 7), (5, 8), (6, 8), (6, 9), (6, 11), (7, 8), (7, 9), (7, 10), (8, 9), (8, 10), (8, 11))),
    (3, 10, ((7, 9), (7, 10), (7, 11), (8, 10), (8, 11), (8, 12), (9, 11), (9, 12), (9, 13), (10, 12), (10, 13),
             (10, 14))),
) for s, loot in rows)

# the twelve king tiles, in the order of game.rules
(NO_WEAKLINGS, EQUAL_PAIRS, STRONG_HANDS, FIRST_RICH, FIRST_TWO_POOR, LAST_TWO_RICH, COSTLY_HEALING,
 WEAKEST_PAIR_RICH, NO_CHANGE, SECOND_STRONG_RICH, LAST_VERY_RICH, LAST_WEAK_POOR) = range(12)

VARIANTS = ("waechterkette", "koenigs_neue_regeln", "billiges_verdraengen")


def guard_strength(tile: int, guard: tuple[int, int, int, int], i: int, n: int) -> int:
    """The strength of the guard at place i (from 0) under the round's king tile."""
    bonus = 2 if tile == SECOND_STRONG_RICH and i == 1 else -3 if tile == LAST_WEAK_POOR and i == n - 1 else 0
    return guard[2] + bonus


def guard_loot(tile: int, guard: tuple[int, int, int, int], i: int, attack: list[list[tuple[int, int]]]) -> int:
    """The loot of the guard at place i under the round's king tile (all places are full when it is asked)."""
    n = len(attack)
    loot = guard[3]
    if tile == EQUAL_PAIRS:
        loot += 3 if attack[i][0][1] == attack[i][1][1] else 0
    elif tile == FIRST_RICH:
        loot += 3 if i == 0 else 0
    elif tile == FIRST_TWO_POOR:
        loot -= 2 if i <= 1 else 0
    elif tile == LAST_TWO_RICH:
        loot += 4 if i >= n - 2 else 0
    elif tile == WEAKEST_PAIR_RICH:
        sums = [a[1] + b[1] for a, b in attack]
        loot += 3 if sums[i] == min(sums) else 0
    elif tile == SECOND_STRONG_RICH:
        loot += 3 if i == 1 else 0
    elif tile == LAST_VERY_RICH:
        loot += 10 if i == n - 1 else 0
    elif tile == LAST_WEAK_POOR:
        loot -= 5 if i == n - 1 else 0
    return loot


def play(n: int, rng: random.Random, variants: frozenset[str] = frozenset()) -> tuple[int, list[int]]:
    """One game of n players with uniformly random decisions; returns (decisions, each seat's gold)."""
    chain = "waechterkette" in variants
    king = "koenigs_neue_regeln" in variants
    owner_fee = CHEAP_OWNER_FEE if "billiges_verdraengen" in variants else OWNER_FEE
    decisions = 0
    types = MONSTER_TYPES
    hands: list[list[int]] = []  # a seat's monsters are its own type: strengths 1 to 5
    reserves: list[list[int]] = []
    for _ in range(n):
        rng.randrange(types)  # the monster type: a decision that changes nothing else
        types -= 1
        decisions += 1
        cards = [1, 2, 3, 4, 5]
        rng.shuffle(cards)
        hands.append(cards[:HAND_SIZE])
        reserves.append(cards[HAND_SIZE:])
    start = rng.randrange(n)
    tiles = rng.sample(range(12), KING_TILES[n])
    deck = list(GUARDS)
    rng.shuffle(deck)
    gold = [START_GOLD] * n
    for tile in tiles:
        row = [deck.pop() for _ in range(n)]
        if chain:
            row.sort(key=lambda g: g[0])  # stable: equal levels stay in drawn order
        if not king:
            tile = NO_CHANGE
        if tile == STRONG_HANDS:
            for p in range(n):
                cards = hands[p] + reserves[p]
                hands[p] = [s for s in cards if s >= 3]
                reserves[p] = [s for s in cards if s <= 2]
        weakest = 2 if tile == NO_WEAKLINGS else 1  # the weakest monster that may be played
        attack: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        castle = [0] * n
        free = 2 * n
        p = start
        while free:
            if castle[p] == 2:
                p = (p + 1) % n
                continue
            hand = hands[p]
            options: list[tuple[int, int, int, int]] = []  # (place, monster from hand, victim's owner, victim's strength)
            for i, place in enumerate(attack):
                if len(place) < 2:
                    options += [(i, s, -1, 0) for s in hand if s >= weakest]
            for i, place in enumerate(attack):
                if sum(c[1] for c in place) >= row[i][1]:
                    continue
                for o, v in place:
                    cost = TREASURY_FEE + (0 if o == p else owner_fee[row[i][0]])
                    if v < 5 and gold[p] >= cost:
                        options += [(i, s, o, v) for s in hand if s > v and s >= weakest]
            i, s, o, v = options[rng.randrange(len(options))]
            decisions += 1
            hand.remove(s)
            if o >= 0:
                gold[p] -= TREASURY_FEE
                if o != p:
                    fee = owner_fee[row[i][0]]
                    gold[p] -= fee
                    gold[o] += fee
                attack[i].remove((o, v))
                hands[o].append(v)
                castle[o] -= 1
            else:
                free -= 1
            attack[i].append((p, s))
            castle[p] += 1
            p = (p + 1) % n
        lost = n  # the first place whose fight was lost, or none
        for i, (a, b) in enumerate(attack):
            if a[1] + b[1] < guard_strength(tile, row[i], i, n):
                lost = i
                break
            loot = max(0, guard_loot(tile, row[i], i, attack))
            if a[0] == b[0]:
                gold[a[0]] += loot
            else:
                gold[a[0]] += loot // 2
                gold[b[0]] += loot // 2
                if loot % 2 and a[1] != b[1]:
                    gold[a[0] if a[1] > b[1] else b[0]] += 1
        heal = COSTLY_HEAL if tile == COSTLY_HEALING else HEAL
        for place in attack[lost:]:
            for o, s in place:
                gold[o] -= min(gold[o], heal[s])
        for q in range(n):
            hands[q] += reserves[q]
            reserves[q] = []
        for place in attack:
            for o, s in place:
                reserves[o].append(s)
        start = (start + 1) % n
    return decisions, gold
