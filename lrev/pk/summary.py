"""Tidy summary tables of the `pk` (primary-key lookup) study results.

Reads RESULTS/pk/<version>/*.parquet and manifest.json for the configured versions only, after
checking each table against the sha256 its manifest recorded (:mod:`lrev.manifest`). Only measured samples are
analysed: of the lookups, those in each fork's final steady segment (:data:`SERIES`, :mod:`lrev.steady`); of the
other tables, ``phase == "measure"``.

Statistical unit: the fork. Every contender runs alone in one JVM per round; a fork's iterations
are its samples. Comparisons between contenders, conditions or thread counts pair by round
(:mod:`lrev.rounds`), and intervals resample forks first, then iterations within a fork.

Every table is long-format (one row per estimate) so that seaborn can facet it directly and the
paper can look values up by key.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import scipy.stats

from lrev import manifest, rounds, stats, steady
from lrev.pk import layout
from lrev.pk.results import TABLES
from lrev.pk.layout import AA, CONDITION, FOOTPRINT_CONDITION
from lrev.pk.layout import BASELINE_CONTENDER as BASELINE
from lrev.tables import by_version, estimate_columns, select

STUDY = "pk"
FOOTPRINT_METRICS = ("heap", "mapped", "ram", "disk")
#: Agreement asked of the harness's ratio to the default with the plain loop's, and of the A/A ratio with 1.
CROSSCHECK_TOLERANCE = 0.10
AA_TOLERANCE = 0.05
#: A fork's lookups, warm-up and measured iterations in turn, per condition: the series whose steady state is read.
SERIES = (steady.Series("lookups", CONDITION, ("iteration",), "lookups_per_s", "higher", ("phase", "measure")),)


@dataclass(frozen=True)
class PkResults(manifest.Results):
    """All `pk` results of the configured versions, measure phase only."""

    lookups: pd.DataFrame
    mixed: pd.DataFrame
    plain: pd.DataFrame
    footprint: pd.DataFrame
    reopen: pd.DataFrame


def load(results: str | Path, versions: Sequence[str]) -> PkResults:
    """Load the given versions' results (oldest first); a missing or altered one is an error naming its file."""
    frames, manifests = manifest.load(Path(results) / STUDY, versions, TABLES, series=SERIES)
    return PkResults(**frames, manifests=manifests)


def converged_share(lookups: pd.DataFrame) -> float:
    """Share of measured samples whose fork's warm-up converged."""
    return float(lookups["stable"].mean()) if len(lookups) else math.nan


def jit_share(lookups: pd.DataFrame) -> float:
    """Share of the measured samples' time during which the JIT compilers worked (summed over compiler threads)."""
    return float(lookups["jit_ms"].sum() * 1e6 / lookups["nanos"].sum()) if len(lookups) else math.nan


def lookups_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Geometric mean lookups/s over forks (95% CI, on the log scale), median and p90 of the samples, and
    converged share, per contender × condition."""
    rows = []
    keys = ["version", "contender", "family", *CONDITION]
    for key, group in lookups.groupby(keys, sort=True):
        sp = stats.spread(group["lookups_per_s"].to_numpy())
        rows.append({**dict(zip(keys, key)), **estimate_columns(rounds.location(group, "lookups_per_s", log=True)),
                     "median": sp.median, "p90": sp.p90, "std": sp.std,
                     "stable_fraction": float(group["stable"].mean())})
    return by_version(pd.DataFrame(rows))


def ratio_table(lookups: pd.DataFrame, baseline: str = BASELINE) -> pd.DataFrame:
    """Lookups/s of every contender ÷ ``baseline`` per version × condition, paired by round.

    Includes the A/A contender, whose ratio is the noise floor of those rounds; ``stable`` is whether
    both sides' forks all converged.
    """
    rows = []
    for key, group in lookups.groupby(["version", *CONDITION], sort=True):
        base = group[group["contender"] == baseline]
        if base.empty:
            continue
        for (contender, fam), mine in group.groupby(["contender", "family"], sort=True):
            if contender == baseline:
                continue
            rows.append({**dict(zip(["version", *CONDITION], key)), "contender": contender, "family": fam,
                         **estimate_columns(rounds.ratio(mine, base, "lookups_per_s")),
                         "stable": bool(mine["stable"].all() and base["stable"].all())})
    return by_version(pd.DataFrame(rows))


def noise_table(ratios: pd.DataFrame) -> pd.DataFrame:
    """A/A rows of :func:`ratio_table` with their noise factor ``floor``."""
    aa = ratios[ratios["contender"] == AA].copy()
    aa["floor"] = [stats.noise_floor(lo, hi) for lo, hi in zip(aa["low"], aa["high"])]
    return aa.reset_index(drop=True)


def footprint_table(footprint: pd.DataFrame) -> pd.DataFrame:
    """Mean heap/mapped/ram/disk bytes per doc (95% CI over forks) per contender × corpus × layout.
    Unavailable values (NaN) are left out."""
    rows = []
    keys = ["version", "contender", "family", *FOOTPRINT_CONDITION]
    for key, group in footprint.groupby(keys, sort=True):
        for metric in FOOTPRINT_METRICS:
            column = f"{metric}_bytes_per_doc"
            valid = group[group[column].notna()]
            if len(valid):
                rows.append({**dict(zip(keys, key)), "metric": metric,
                             **estimate_columns(rounds.location(valid, column))})
    return by_version(pd.DataFrame(rows))


def reopen_table(reopen: pd.DataFrame) -> pd.DataFrame:
    """NRT reopen latency per contender × corpus: geometric mean over forks of each fork's median (95% CI, on
    the log scale), and p90 and std of all reopens, in ms."""
    rows = []
    keys = ["version", "contender", "family", "corpus"]
    for key, group in reopen.groupby(keys, sort=True):
        sp = stats.spread(group["reopen_ms"].to_numpy())
        est = rounds.location(group, "reopen_ms", "median", log=True)
        rows.append({**dict(zip(keys, key)), **estimate_columns(est), "p90": sp.p90, "std": sp.std})
    return by_version(pd.DataFrame(rows))


def scaling_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Lookups/s at 2 threads ÷ 1 thread per contender × condition: both run in the same fork, paired by round."""
    rows = []
    keys = ["version", "contender", "family", "corpus", "layout", "miss_rate"]
    for key, group in lookups.groupby(keys, sort=True):
        if {1, 2} <= set(group["threads"]):
            est = rounds.ratio(group[group["threads"] == 2], group[group["threads"] == 1], "lookups_per_s")
            rows.append({**dict(zip(keys, key)), **estimate_columns(est)})
    return by_version(pd.DataFrame(rows))


def collector_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Each G1 contender ÷ the same contender under the parallel collector (its own JVMs each), seed setting,
    paired by round; ``contender`` and ``family`` name the format."""
    return _variant_table(lookups, lambda c: layout.collector(c) == "g1", default_over_variant=False)


def jdk_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Each contender on the default JDK ÷ the same contender on another JDK (``java``: its feature version), its
    own JVMs each, seed setting, paired by round: above 1, today's JDK looks keys up faster."""
    table = _variant_table(lookups, lambda c: layout.java(c) is not None, default_over_variant=True)
    return table.assign(java=table["variant"].map(layout.java)) if len(table) else table


def _variant_table(lookups: pd.DataFrame, is_variant, default_over_variant: bool) -> pd.DataFrame:
    """A JVM variant's lookups/s against the same contender's in the default JVM, seed setting, paired by round."""
    alone = seed_setting(lookups)
    rows = []
    for (version, contender), mine in alone.groupby(["version", "contender"], sort=True):
        if not is_variant(contender):
            continue
        name = layout.engine_name(contender)
        base = alone[(alone["version"] == version) & (alone["contender"] == name)]
        if base.empty:
            continue
        a, b = (base, mine) if default_over_variant else (mine, base)
        rows.append({"version": version, "contender": name, "variant": contender, "family": base["family"].iloc[0],
                     **estimate_columns(rounds.ratio(a, b, "lookups_per_s")),
                     "stable": bool(mine["stable"].all() and base["stable"].all())})
    return by_version(pd.DataFrame(rows))


def seed_setting(frame: pd.DataFrame) -> pd.DataFrame:
    return select(frame, **layout.SEED_SETTING)


def mixed_table(lookups: pd.DataFrame, mixed: pd.DataFrame) -> pd.DataFrame:
    """Each contender in the mixed JVM (all contenders interleaved) ÷ the same contender alone in its JVM,
    seed setting, paired by round."""
    alone, shared = seed_setting(lookups), seed_setting(mixed)
    rows = []
    for (version, contender, fam), mine in shared.groupby(["version", "contender", "family"], sort=True):
        own = alone[(alone["version"] == version) & (alone["contender"] == contender)]
        # The mixed JVM runs in the first mixed_rounds rounds only; pair with those.
        own = own[own["round"].isin(mine["round"].unique())]
        rows.append({"version": version, "contender": contender, "family": fam,
                     **estimate_columns(rounds.ratio(mine, own, "lookups_per_s"))})
    return by_version(pd.DataFrame(rows))


def crosscheck_table(lookups: pd.DataFrame, plain: pd.DataFrame) -> pd.DataFrame:
    """The harness against PlainLookupLoop alone in its JVMs, seed setting, for every contender the plain loop
    runs: each side's ratio to the default (paired by round) and their quotient ``agreement``, with the means
    of each side and their slowest and fastest fork. The A/A row's harness ratio is also checked against 1."""
    alone = seed_setting(lookups)
    rows = []
    for version, plain_v in plain.groupby("version", sort=True):
        harness_v = alone[alone["version"] == version]
        h_base, p_base = harness_v[harness_v["contender"] == BASELINE], plain_v[plain_v["contender"] == BASELINE]
        for contender in sorted(set(plain_v["contender"]) - {BASELINE}):
            h = harness_v[harness_v["contender"] == contender]
            p = plain_v[plain_v["contender"] == contender]
            harness, plain_ratio = rounds.ratio(h, h_base, "lookups_per_s"), rounds.ratio(p, p_base, "lookups_per_s")
            # Per round: (harness c / harness default) / (plain c / plain default), via per-fork means.
            ha, hb = rounds.paired(h, h_base, "lookups_per_s")
            pa, pb = rounds.paired(p, p_base, "lookups_per_s")
            per_round = [np.array([np.mean(x) / np.mean(y)]) for x, y in zip(ha, hb)]
            plain_round = [np.array([np.mean(x) / np.mean(y)]) for x, y in zip(pa, pb)]
            agreement = stats.ratio(per_round, plain_round)
            tolerance = AA_TOLERANCE if contender == AA else CROSSCHECK_TOLERANCE
            h_forks = h.groupby("round")["lookups_per_s"].mean()
            p_forks = p.groupby("round")["lookups_per_s"].mean()
            rows.append({"version": version, "contender": contender,
                         "harness_lookups_per_s": rounds.location(h, "lookups_per_s").value,
                         "plain_lookups_per_s": rounds.location(p, "lookups_per_s").value,
                         # JVM to JVM: the slowest and fastest fork of each side.
                         "harness_min": h_forks.min(), "harness_max": h_forks.max(),
                         "plain_min": p_forks.min(), "plain_max": p_forks.max(),
                         "harness_ratio": harness.value, "harness_low": harness.low, "harness_high": harness.high,
                         "plain_ratio": plain_ratio.value, "plain_low": plain_ratio.low,
                         "plain_high": plain_ratio.high, **estimate_columns(agreement),
                         "tolerance": tolerance,
                         "within": bool(abs(agreement.value - 1) <= CROSSCHECK_TOLERANCE
                                        and (contender != AA or abs(harness.value - 1) <= AA_TOLERANCE))})
    return by_version(pd.DataFrame(rows))


@dataclass(frozen=True)
class CrosscheckPower:
    """What ``rounds`` forks per side can resolve in the cross-check. ``harness_sd`` and ``plain_sd``: the
    spread, round to round, of one contender's log ratio to the default (pooled over rows, so ≈ a CV);
    ``agreement_sd``: the resulting spread of the agreement's log; ``expected_within``: the share of rows
    that noise alone would leave within ``tolerance``; ``rounds_for_95``: rounds per side for 95% of them."""

    rounds: int
    harness_sd: float
    plain_sd: float
    agreement_sd: float
    tolerance: float
    expected_within: float
    rounds_for_95: int


def agreement_power(harness_sd: float, plain_sd: float, rounds_: int, tolerance: float) -> CrosscheckPower:
    """The agreement is a difference of two means of ``rounds_`` independent per-round log ratios, so its
    spread is √(harness_sd² + plain_sd²)/√rounds; read against a normal distribution."""
    per_round = math.hypot(harness_sd, plain_sd)
    sd = per_round / math.sqrt(rounds_)
    bound = math.log1p(tolerance)
    z95 = float(scipy.stats.norm.ppf(0.975))
    return CrosscheckPower(rounds=rounds_, harness_sd=harness_sd, plain_sd=plain_sd, agreement_sd=sd,
                           tolerance=tolerance, expected_within=float(2 * scipy.stats.norm.cdf(bound / sd) - 1),
                           rounds_for_95=math.ceil((z95 * per_round / bound) ** 2))


def crosscheck_power(lookups: pd.DataFrame, plain: pd.DataFrame) -> CrosscheckPower | None:
    """The cross-check's power on these results: per side, the round-to-round spread of each row's log ratio
    to the default, pooled (root mean square) over the rows of every version; None with fewer than 2 rounds."""
    alone = seed_setting(lookups)
    spreads: dict[str, list[float]] = {"harness": [], "plain": []}
    counts = []
    for version, plain_v in plain.groupby("version", sort=True):
        sides = {"harness": alone[alone["version"] == version], "plain": plain_v}
        for contender in sorted(set(plain_v["contender"]) - {BASELINE}):
            for side, frame in sides.items():
                a, b = rounds.paired(frame[frame["contender"] == contender], frame[frame["contender"] == BASELINE],
                                     "lookups_per_s")
                logs = np.log([np.mean(x) / np.mean(y) for x, y in zip(a, b)])
                if len(logs) < 2:
                    return None
                spreads[side].append(float(np.var(logs, ddof=1)))
                counts.append(len(logs))
    if not counts:
        return None
    return agreement_power(math.sqrt(np.mean(spreads["harness"])), math.sqrt(np.mean(spreads["plain"])),
                           int(np.median(counts)), CROSSCHECK_TOLERANCE)
