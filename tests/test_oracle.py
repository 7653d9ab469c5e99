"""The oracle's own worked examples (tests/oracle.py, tests/oracle_score.py): small hands whose answers are
worked out by hand in the comments, then the branch-and-bound exchange distance against plain enumeration
on random tiny catalogues. The oracle judges the project, so it is checked first, by hand."""

import random

from oracle import exchange_distance, exchange_distance_bruteforce, waits
from oracle_score import best_score, enumerate_splits

UNITS = [(0,), (1, 2), (2, 3, 4), (1, 3), (4, 5)]
K = 6
R = dict(min_points=1000, member_points=2000, called="minus_member",
         ron_minus_member=True, no_win="minus_member", favourite="bonus",
         favourite_bonus=2000, sora_mode="fetch", ron_on_shika=False,
         shika=None, hand_size=5)


def h(*ks):
    """Counts per kind of a hand given as its kinds."""
    c = [0] * K
    for k in ks:
        c[k] += 1
    return c


def test_enumerate_splits_worked_examples():
    units = UNITS
    # {1,2,3,4}: (1,2)+? 3,4 no unit; (1,3)+? 2,4 no unit -> no exact split
    assert list(enumerate_splits(units, h(1, 2, 3, 4), exact=True)) == []
    # {1,2,3,4,5}: (1,3)+(2,3,4)? 3 used twice -> no; (1,2)+... 3,4,5 no.
    assert list(enumerate_splits(units, h(1, 2, 3, 4, 5), exact=True)) == []
    # {0,1,2,3,4}: (0)+(1,3)+... 2,4 no;  (0)+(1,2)+ 3,4 no -> none
    assert list(enumerate_splits(units, h(0, 1, 2, 3, 4), exact=True)) == []
    # {0,1,1,2,3}: (0)+(1,2)+(1,3): unique
    sp = list(enumerate_splits(units, h(0, 1, 1, 2, 3), exact=True))
    assert sp == [((0, ()), (1, ()), (3, ()))], sp
    # packings of {1,2,3}: {}, {(1,2)}, {(1,3)} -> 3 packings
    assert len(list(enumerate_splits(units, h(1, 2, 3), exact=False))) == 3
    # packings of {0,0}: {}, {(0)}, {(0),(0)}
    assert len(list(enumerate_splits(units, h(0, 0), exact=False))) == 3


def test_best_score_worked_examples():
    units = UNITS
    # hand {0,1,1,2,3} (5 tiles), tsumo: (0)=1000, (1,2)=2000, (1,3)=2000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 5000
    # favourite 0 bonus: +2000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=None,
                      favourite=0, rules=R, sora=None) == 7000
    # ron on 2 with ron_minus_member: (1,2) -> n_eff 1 -> 1000 => 4000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=2,
                      favourite=None, rules=R, sora=None) == 4000
    # ron on 0: (0) n_eff 0 -> max(1000, -2000) = 1000 => 5000
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=R, sora=None) == 5000
    # ron tile not held -> None
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=5,
                      favourite=None, rules=R, sora=None) is None
    # wrong size -> None
    assert best_score(units, h(1, 2), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) is None
    # hand {2,3,4} + called (1,3) [size 2] = 5 tiles, tsumo:
    #   (2,3,4)=4000; called (1,3) minus_member: n_eff 1 -> 1000 => 5000
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 5000
    # called "half": (1,3) = 2000//2 = 1000 -> 5000; favourite double on 4:
    R2 = dict(R, called="half", favourite="double", ron_minus_member=False)
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=4, rules=R2, sora=None) == 9000
    # favourite 1 (in the called unit only), bonus mode: 5000 + 2000
    assert best_score(units, h(2, 3, 4), [3], won=True, ron_tile=None,
                      favourite=1, rules=R, sora=None) == 7000
    # not won, minus_member: packing of {1,2,3,4,5}: best (2,3,4)->n_eff 2
    #   -> 2000, plus... (1,?) 1 left with 5? (4,5) uses 4. Options:
    #   (2,3,4)=2000 alone; (1,2)+(4,5)=1000+1000=2000; (1,3)+(4,5)=2000;
    #   (1,2)+... -> best 2000
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 2000
    # same, no_win "same": (1,2)+(4,5)=4000 vs (2,3,4)=4000 vs (1,3)+(4,5)=4000
    R3 = dict(R, no_win="same")
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=R3, sora=None) == 4000
    assert best_score(units, h(1, 2, 3, 4, 5), [], won=False, ron_tile=None,
                      favourite=None, rules=dict(R, no_win="none"),
                      sora=None) is None
    # nothing to score -> 0
    assert best_score(units, h(5), [], won=False, ron_tile=None,
                      favourite=None, rules=R, sora=None) == 0
    # shika rule: kind 0 is shika; ron on it with ron_on_shika False -> None
    RS = dict(R, shika=0)
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=RS, sora=None) is None
    assert best_score(units, h(0, 1, 1, 2, 3), [], won=True, ron_tile=0,
                      favourite=None, rules=dict(RS, ron_on_shika=True),
                      sora=None) == 5000


def test_best_score_with_sora():
    us = [(0,), (1, 2), (2, 3, 4), (1, 3)]
    # hand {0,1,2,3,S}: fetch -> None; wildcard: S stands for 4 in (2,3,4):
    #   (0)+(2,3,4)+? 1 left alone -> no. (0)+(1,2)+(3,S as 1) = 1000+2000+2000
    #   (0)+(1,3)+(2,S as 1)=5000; (0)+(1,2)? ... (1,S)+(2,3,4)? no 4.
    #   (0)+(1,?)...(2,3,S)=4000 + (0)=1000 + 1 alone -> no. So 5000.
    RW = dict(R, sora_mode="wildcard", ron_minus_member=False)
    assert best_score(us, h(0, 1, 2, 3, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=R, sora=5) is None
    assert best_score(us, h(0, 1, 2, 3, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=RW, sora=5) == 5000
    # sora as 0 in (0): {S,1,2,3,4}? (S=0)+(1,?)... (2,3,4)+(1,S as 3)=4000+2000
    assert best_score(us, h(1, 2, 3, 4, 5), [], won=True, ron_tile=None,
                      favourite=None, rules=RW, sora=5) == 6000


def test_exchange_distance_and_waits_worked_examples():
    units = UNITS
    cap = [3] * K
    kw = dict(cap=cap, hand_size=5, sora=None, sora_mode="fetch")
    # complete hand -> 0
    assert exchange_distance(units, h(0, 1, 1, 2, 3), [], **kw) == 0
    # {1,2,3,4,5}: best target e.g. (1,3)+(2,3,4)? -> keeps 1,3,2,4 = 4 -> h=1
    assert exchange_distance(units, h(1, 2, 3, 4, 5), [], **kw) == 1
    # 4-tile hand {0,1,2,3}: (0)+(1,2)+(1,3) keeps 4 of 5 -> h=1
    assert exchange_distance(units, h(0, 1, 2, 3), [], **kw) == 1
    # caps: forbid 1 entirely; hand {1,1,1,5,5}: targets from (0),(2,3,4),(4,5)
    cap2 = [3, 0, 3, 3, 3, 3]
    # best keeps the two 5s? (4,5)+(4,5)+(0) keeps 2 -> h=3
    assert exchange_distance(units, h(1, 1, 1, 5, 5), [], cap=cap2, hand_size=5,
                             sora=None, sora_mode="fetch") == 3
    # no target: only size-2 units, odd N
    assert exchange_distance([(0, 1)], h(0), [], cap=cap, hand_size=3,
                             sora=None, sora_mode="fetch") is None
    # wildcard: units [(0,1)], cap 0 of kind 1, sora kind 5 with cap 1
    # hand {0,5}: target (0,S) keeps both -> h=0
    cap3 = [3, 0, 3, 3, 3, 1]
    assert exchange_distance([(0, 1)], h(0, 5), [], cap=cap3, hand_size=2,
                             sora=5, sora_mode="wildcard") == 0
    assert exchange_distance([(0, 1)], h(0, 5), [], cap=cap3, hand_size=2,
                             sora=5, sora_mode="fetch") is None
    # --- waits ------------------------------------------------------------
    # {0,1,2,3} + ? : +1 -> (0)(1,2)(1,3); +0? {0,0,1,2,3} no. -> {1}
    assert waits(units, h(0, 1, 2, 3), [], **kw) == {1}
    # {1,2,1,3} + 0 -> yes; + others? {1,1,2,3,x}: x=0 only -> {0}
    assert waits(units, h(1, 1, 2, 3), [], **kw) == {0}


def test_branch_and_bound_agrees_with_enumeration_on_tiny_catalogues():
    rng = random.Random(12345)
    for trial in range(300):
        Kt = rng.randint(4, 7)
        wildm = rng.random() < 0.4
        sora_k = Kt - 1 if (wildm or rng.random() < 0.3) else None
        real = [k for k in range(Kt) if k != sora_k]
        ut = []
        for _ in range(rng.randint(1, 5)):
            n = rng.randint(1, min(3, len(real)))
            ut.append(tuple(sorted(rng.sample(real, n))))
        ut = list(dict.fromkeys(ut))
        hs = rng.randint(2, 6)
        capt = [rng.choice([0, 1, 2, 3, 3, 3]) for _ in range(Kt)]
        conc = [0] * Kt
        for _ in range(rng.randint(0, hs)):
            conc[rng.randrange(Kt)] += 1
        conc = [min(c, 3) for c in conc]
        calledt = []
        if rng.random() < 0.3:
            calledt = [rng.randrange(len(ut))]
        mode = "wildcard" if wildm else rng.choice(["fetch", "dead"])
        kwt = dict(cap=capt, hand_size=hs, sora=sora_k, sora_mode=mode)
        a = exchange_distance(ut, conc, calledt, **kwt)
        b = exchange_distance_bruteforce(ut, conc, calledt, **kwt)
        assert a == b, (ut, conc, calledt, kwt, a, b)
        # enumerate_splits gives each multiset once
        for ex in (True, False):
            cc = list(conc)
            ns = 0
            if sora_k is not None:
                ns = cc[sora_k] if wildm else 0
                cc[sora_k] = 0
            sps = [tuple(sorted(s)) for s in enumerate_splits(ut, cc, ns, exact=ex)]
            assert len(sps) == len(set(sps)), (ut, conc, ex)
            for s in sps:  # validity
                use = [0] * Kt
                us_ = 0
                for ui, sl in s:
                    us_ += len(sl)
                    for m in ut[ui]:
                        if m not in sl:
                            use[m] += 1
                assert all(use[k] <= cc[k] for k in range(Kt)) and us_ <= ns
                if ex:
                    assert use == cc and us_ == ns
