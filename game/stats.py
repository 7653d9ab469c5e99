"""95 % intervals for a tournament's estimates (plain Python, no SciPy: start-up time and no new dependency).

    wilson(wins, n)      the Wilson score interval of a proportion (never outside [0, 1], sound at 0 or n wins)
    t_quantile(p, df)    Student's t quantile, from the regularized incomplete beta function
    mean_interval(xs)    the mean and its Student t interval (independent observations: in a tournament, deals)
    spread_interval(xs)  the same, with no interval where the values do not vary (what a tournament shows)

Every interval here is an estimate (labelled as such wherever it is shown), not a proven bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

LEVEL = 0.95
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.95996...


def wilson(wins: int, n: int, z: float = Z) -> tuple[float, float] | None:
    """The Wilson score interval for wins/n: the p for which |wins/n - p| <= z sqrt(p(1-p)/n). None if n = 0."""
    if n <= 0:
        return None
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # exact ends at 0 and n wins (the formula gives them up to rounding)
    return (0.0 if wins == 0 else max(0.0, centre - half)), (1.0 if wins == n else min(1.0, centre + half))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2)."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return f


def incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b  # the side where it converges fast


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (0 < p < 1), by bisection on t_cdf (monotone): 100 halvings reach a float's
    precision from any bracket used here."""
    if not 0 < p < 1 or df <= 0:
        raise ValueError("t_quantile needs 0 < p < 1 and df > 0")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_interval(values: Sequence[float]) -> tuple[float | None, tuple[float, float] | None]:
    """The mean and its 95 % Student t interval, mean +- t(0.975, n-1) s / sqrt(n) (None below 2 values)."""
    n = len(values)
    if n == 0:
        return None, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def spread_interval(values: Sequence[float]) -> tuple[float | None, tuple[float, float] | None]:
    """mean_interval, with no interval (None, shown "-") where every value is the same: the t interval has
    zero width there and would claim a certainty no sample gives (two deals alike, a bot that never scores)."""
    mean, interval = mean_interval(values)
    return mean, (interval if interval is not None and min(values) != max(values) else None)
