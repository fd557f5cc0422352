"""Published movement figures reproduced: the rounds, boards, skips, relays and board flow that
published movement cards and lists give, checked against the movements cardlab makes.

No ACBL or EBU card could be read whole here, so the figures are those quoted by the pages
cited beside them: a club's list of the EBU-style movements it runs, and BridgeHands' reading of
an ACBL guide card.  Pairs and board sets are numbered as the publications number them for the
Mitchells (the same rule: NS pair *t* and EW pair *t* start at table *t* with set *t*).  The
Howells are checked up to a relabelling of the tables: a publication's table numbers follow its
own layout, and what is compared is the board flow, the relay stacks between tables, which a
renumbering of tables keeps (as a cycle, read either way round).
"""

from __future__ import annotations

from cardlab.club.movement import MovementPlan, howell, mitchell

# Exeter Bridge Club, "Movements" (http://www.bridgewebs.com/exeter/info.html), the club's list
# of the movements it runs for each table count, with the movement book's page for each:
EXETER = {
    # Howells: tables -> (rounds, boards in play, boards a round, relay stacks between tables)
    "howell": {4: (7, 28, 4, {(1, 2): 1, (4, 1): 2}),   # "1 relay between tables 1 & 2 and
                                                        #  2 relays between tables 4 & 1"
               5: (9, 27, 3, {(5, 1): 4}),              # "4 relays between tables 5 & 1"
               7: (13, 26, 2, {(7, 1): 6})},            # "6 relays between tables 7 & 1"
    # Mitchells: tables -> (rounds, boards a round, board sets, skip after round)
    "mitchell": {9: (9, 3, 9, None),                    # "Mitchell, 9 rounds, 27 boards"
                 10: (9, 3, 10, 5),                     # "10 sets of 3 boards, skip after round 5"
                 13: (13, 2, 13, None),                 # "Mitchell, 13 rounds, 26 boards"
                 14: (13, 2, 14, 7)},                   # "14 sets of 2 boards, skip after round 7
                                                        #  (26 boards played)"
}


def board_flow(plan: MovementPlan) -> list[tuple[int, int, int]]:
    """The tables in the order boards pass through them: (table, next table, rounds the boards
    wait between them), from the seatings alone: a set played at a table in round 1 is next
    played at the next table, after waiting that many rounds in a relay stack."""
    where = {(s.round, s.board_set): s.table for s in plan.seatings}
    flow: dict[int, tuple[int, int]] = {}
    for s in plan.seatings:
        if s.round != 1:
            continue
        later = min(r for r in range(2, plan.rounds + 1) if (r, s.board_set) in where)
        flow[s.table] = (where[(later, s.board_set)], later - 2)
    cycle, table = [], 1
    for _ in range(plan.tables):
        following, waits = flow[table]
        cycle.append((table, following, waits))
        table = following
    assert table == 1 and len({t for t, _, _ in cycle}) == plan.tables  # one circuit
    return cycle


def relay_cycle(waits: list[int]) -> set[tuple[int, ...]]:
    """Every reading of a cycle of relay counts: each starting point, both ways round."""
    readings = set()
    for sequence in (waits, waits[::-1]):
        for start in range(len(sequence)):
            readings.add(tuple(sequence[start:] + sequence[:start]))
    return readings


def test_howells_have_the_published_rounds_boards_and_relay_stacks():
    for tables, (rounds, boards, per_round, relays) in EXETER["howell"].items():
        plan = howell(tables, boards_per_round=per_round)
        assert (plan.rounds, plan.boards) == (rounds, boards), tables
        # the publication's tables in board order 1, 2, ..., n (either way round): its relays
        published = [relays.get((t, t % tables + 1), relays.get((t % tables + 1, t), 0))
                     for t in range(1, tables + 1)]
        ours = [waits for _, _, waits in board_flow(plan)]
        assert tuple(ours) in relay_cycle(published), (tables, ours, published)


def test_the_acbl_seven_table_howell_guide_card():
    """BridgeHands, "Guide Card" (https://www.bridgehands.com/G/Guide_Card.htm), on the ACBL
    guide card for table 1 of a 7-table (14-pair) Howell: "26 Boards in play, 2 at each table",
    boards "moved to the next lower Table" each round, table 1's boards 1-2 going to the
    "Assembly Table" after round 1 and table 1 playing boards 3-4 in round 2, while "Boards 15
    and 16" come "into play at Table 7".  Up to the numbering of tables and sets: every table
    but one passes its boards straight to one other table, and the sets not in play wait in one
    stack (6 sets: the 13 sets less the 7 in play) before the last table."""
    plan = howell(7)
    assert (plan.boards, plan.rounds, len({s.board_set for s in plan.seatings if s.round == 1})
            ) == (26, 13, 7)
    waits = sorted(w for _, _, w in board_flow(plan))
    assert waits == [0, 0, 0, 0, 0, 0, 6]
    # the card's table 1 is the table whose boards go to the stack; its next set is the one
    # its neighbour played: round 1 set s, round 2 set s + 1 (boards 1-2, then 3-4)
    first = next(t for t, _, w in board_flow(plan) if w == 6)
    sets = [plan.seat(first, r).board_set for r in (1, 2)]
    nxt = next(t for t, following, w in board_flow(plan) if following == first)
    assert plan.seat(nxt, 1).board_set == sets[1]
    # the last table (after the stack) starts on a set nobody played in round 1
    last = next(following for t, following, w in board_flow(plan) if w == 6)
    in_play = {s.board_set for s in plan.seatings if s.round == 1}
    assert plan.seat(last, 2).board_set not in in_play


def test_mitchells_have_the_published_rounds_boards_and_skip():
    for tables, (rounds, per_round, sets, skip) in EXETER["mitchell"].items():
        plan = mitchell(tables, rounds, per_round, even="skip" if skip else None)
        assert (plan.rounds, plan.sets, plan.boards) == (rounds, sets, sets * per_round)
        # NS stationary; EW up one table a round, two after the skip round; boards down one
        for pair in range(1, tables + 1):
            seat = {r: next(s.table for s in plan.seatings if s.round == r
                            and s.ew == ("EW", str(pair))) for r in range(1, rounds + 1)}
            steps = [(seat[r + 1] - seat[r]) % tables for r in range(1, rounds)]
            assert steps == [2 if r == skip else 1 for r in range(1, rounds)], (tables, pair)
        for s in plan.seatings:
            assert s.ns == ("NS", str(s.table))
            if s.round > 1:
                assert plan.seat(s.table % tables + 1, s.round - 1).board_set == s.board_set
        assert sum(len(plan.board_numbers(s.board_set)) for s in plan.seatings
                   if s.ns == ("NS", "1")) == rounds * per_round  # "27 boards", "26 boards played"


def test_relay_mitchell_as_club_table_cards_lay_it_out():
    """Arran Bridge Club, "Table Cards" (https://www.bridgewebs.com/arran/page2.html): "with an
    even number there needs to be a relay and shared boards. The relay is always halfway and
    shared boards are between the first and last tables"."""
    for tables in (6, 8, 10):
        plan = mitchell(tables, even="relay")
        half = tables // 2
        for r in range(1, tables + 1):
            assert plan.seat(1, r).board_set == plan.seat(tables, r).board_set
        # the set leaving table half + 1 waits a round (the relay) before table half
        for r in range(1, tables - 1):
            leaving = plan.seat(half + 1, r).board_set
            assert leaving not in {s.board_set for s in plan.seatings if s.round == r + 1}
            assert plan.seat(half, r + 2).board_set == leaving
