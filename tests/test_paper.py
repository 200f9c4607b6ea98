"""The paper's verdict matrix, its counts, the claims tables' text and the stability column, from a hand-made
claims file that holds every verdict (no run needed)."""
from __future__ import annotations

import json
import re
import shutil

import matplotlib.pyplot as plt
import pandas as pd
import pytest
import typst
from pypdf import PdfReader

from lrev import cite, claims, config, paper, pdftext
from lrev.config import REPO, version_key
from lrev.io import write_json

# Out of release order on purpose, and 10.6.0 before 6.6.6 as strings.
VERSIONS = ["7.7.3", "10.6.0", "4.10.4", "6.6.6", "9.12.3"]


def _part(verdict, value=1.5, low=1.2, high=1.9, n=5, aa=None, leaning=None, converged=True):
    return {"label": "speed-up", "quantity": "q", "pairing": "paired by round", "value": value, "low": low,
            "high": high, "n": n, "converged": converged, "verdict": verdict, "aa": aa, "leaning": leaning,
            "where_a": {"corpus": "seq"}, "statistic": "geomean of per-fork mean ratios"}


PASSING_AA = {"a": "default-aa", "b": "default", "value": 1.02, "low": 0.97, "high": 1.08, "n": 5, "tolerance": 1.1, "biased": False, "jvm_sd": 0.03}
BIASED_AA = {"a": "default-aa", "b": "default", "value": 1.2, "low": 1.05, "high": 1.37, "n": 5, "tolerance": 1.1, "biased": True, "jvm_sd": 0.07}
ANSWER = {"contender": "FST50", "family": "FST50", "runner_up": "default",
          "margin_vs_runner_up": {"value": 1.3, "low": 1.1, "high": 1.5, "n": 4}}

# Registry order c-2 before c-1; the ten cells hold the ten verdicts.
PACE_MISSED = {"required": 0.9, "lowest": 0.13, "slowest": "reindex", "reached": False, "lagging": [1],
               "moves": "either", "kept": False}
SCALE_MISSED = {"quantity": "hot_share_ceiling", "at_least": 0.9, "why": "the index is too small", "lowest": 0.73,
                "kept": False}
CELLS = {
    ("c-2", "7.7.3"): ("holds", None, [_part("holds", aa=PASSING_AA)]),
    ("c-2", "10.6.0"): ("fails", None, [_part("fails", value=0.5, low=0.4, high=0.6)]),
    ("c-2", "4.10.4"): ("inconclusive", None, [_part("inconclusive", low=0.8)]),
    ("c-2", "6.6.6"): ("underpowered", "holds", [_part("underpowered", n=2, leaning="holds")]),
    ("c-1", "7.7.3"): ("biased", "fails", [{**_part("biased", aa=BIASED_AA, leaning="fails"),
                                              "where_a": {"corpus": "rnd"}}]),
    ("c-1", "10.6.0"): ("unconverged", "inconclusive",
                        [_part("unconverged", converged=False, leaning="inconclusive")]),
    ("c-1", "4.10.4"): ("n/a", None, []),
    ("c-2", "9.12.3"): ("fell-behind", "holds", [{**_part("fell-behind", leaning="holds"), "pace": PACE_MISSED}]),
    ("c-1", "9.12.3"): ("untestable", "fails", [{**_part("untestable", leaning="fails"), "scale": SCALE_MISSED}]),
    ("c-1", "6.6.6"): ("answer", None, [{"label": "fastest", "verdict": "answer", "converged": True,
                                         "answer": ANSWER, "value": 2.0, "low": 1.8, "high": 2.2, "n": 4}]),
}


def _verdict_row(claim, version):
    verdict, leaning, parts = CELLS[(claim, version)]
    row = {"claim": claim, "version": version, "kind": "claim", "verdict": verdict, "parts": parts,
           "reason": "the format is gone" if verdict == "n/a" else None}
    if leaning:
        row["leaning"] = leaning
    if verdict == "answer":
        row["answer"] = ANSWER
    return row


@pytest.fixture
def fixture_claims():
    return {"study": "fx", "versions": VERSIONS, "aa_tolerance": 1.1, "min_rounds": 3, "looks": 3,
            "confidence": 1 - 0.05 / 3,
            "claims": [{"id": c, "seed": "s", "kind": "claim", "statement": "st", "quote": "q", "claimed": "2x"}
                       for c in ("c-2", "c-1")],
            "verdicts": [_verdict_row(c, v) for c in ("c-2", "c-1") for v in VERSIONS]}


def test_the_fixture_holds_every_verdict(fixture_claims):
    assert sorted(r["verdict"] for r in fixture_claims["verdicts"]) == sorted(claims.VERDICTS)


def test_versions_sort_by_release_number_not_as_strings():
    assert sorted(VERSIONS, key=version_key) == ["4.10.4", "6.6.6", "7.7.3", "9.12.3", "10.6.0"]


def test_counts_leave_na_out_of_the_applicable_cells():
    counts = paper.tally(["holds", "fails", "answer", "inconclusive", "n/a", "n/a", "underpowered", "holds"])
    assert counts["cells"] == 8 and counts["applicable"] == 6 and counts["decided"] == 4
    assert counts["decided_share"] == pytest.approx(4 / 6) and counts["decided_percent"] == "67%"
    assert counts["by_verdict"] == {"holds": 2, "fails": 1, "answer": 1, "inconclusive": 1, "untestable": 0,
                                    "underpowered": 1,
                                    "fell-behind": 0, "biased": 0, "unconverged": 0, "n/a": 2}
    assert list(counts["by_verdict"]) == list(claims.VERDICTS)
    assert paper.tally(["n/a"])["decided_percent"] == "n/a"
    with pytest.raises(ValueError, match="maybe"):
        paper.tally(["maybe"])


def test_matrix_has_registry_rows_and_release_columns(fixture_claims):
    m = paper.matrix(fixture_claims)
    assert m["versions"] == ["4.10.4", "6.6.6", "7.7.3", "9.12.3", "10.6.0"]
    assert [r["claim"] for r in m["rows"]] == ["c-2", "c-1"]
    grid = {(r["claim"], c["version"]): c for r in m["rows"] for c in r["cells"]}
    for (claim, version), (verdict, leaning, _) in CELLS.items():
        cell = grid[(claim, version)]
        assert (cell["verdict"], cell["leaning"]) == (verdict, leaning)
    assert [c["verdict"] for c in m["rows"][0]["cells"]] == ["inconclusive", "underpowered", "holds", "fell-behind",
                                                              "fails"]
    # Leaning shows beside the verdict's mark; leaning neither way adds nothing.
    assert grid[("c-2", "6.6.6")]["mark"] == paper.MARKS["underpowered"] + "↑"
    assert grid[("c-1", "7.7.3")]["mark"] == paper.MARKS["biased"] + "↓"
    assert grid[("c-1", "10.6.0")]["mark"] == paper.MARKS["unconverged"]
    assert len({paper.MARKS[v] for v in claims.VERDICTS}) == len(claims.VERDICTS)
    counts = m["counts"]
    assert (counts["cells"], counts["applicable"], counts["decided"]) == (10, 9, 3)
    assert counts["by_verdict"] == {v: 1 for v in claims.VERDICTS}


def test_overall_counts_add_the_studies_matrices(fixture_claims):
    one = {"matrix": paper.matrix(fixture_claims)}
    total = paper.matrix_numbers([one, one])
    assert (total["cells"], total["applicable"], total["decided"], total["withheld"]) == (20, 18, 6, 10)
    assert [(e["verdict"], e["count"]) for e in total["legend"]] == [(v, 2) for v in claims.VERDICTS]
    other = {"matrix": {"versions": ["9.12.3", "4.10.4"], "rows": []}}
    assert paper.matrix_numbers([one, other])["versions"] == ["4.10.4", "6.6.6", "7.7.3", "9.12.3", "10.6.0"]


def test_claim_rows_print_every_interval_with_its_n_and_the_aa_check(fixture_claims):
    rows = {(r["claim"], r["version"]): r for r in paper.claim_rows(fixture_claims)}
    held = rows[("c-2", "7.7.3")]["measured"]
    assert held.startswith("speed-up: 1.50 [1.20, 1.90], n=5")
    assert held.endswith("A/A default-aa ÷ default 1.02 [0.970, 1.08], n=5: no bias beyond ×1.10")
    assert ("A/A default-aa ÷ default 1.20 [1.05, 1.37], n=5 ≠ biased beyond ×1.10"
            in rows[("c-1", "7.7.3")]["measured"])
    assert rows[("c-2", "10.6.0")]["measured"].endswith("; no A/A")
    assert "n=2" in rows[("c-2", "6.6.6")]["measured"]
    assert rows[("c-1", "6.6.6")]["measured"] == "fastest: FST50; ×1.30 [1.10, 1.50], n=4 over default"
    assert rows[("c-1", "10.6.0")]["measured"].endswith("(a series did not converge)")
    assert rows[("c-1", "4.10.4")]["measured"] == "the format is gone"
    assert rows[("c-2", "9.12.3")]["measured"].endswith(
        "(reindex reached 13% of its asked rate, under the 90% required)")


def test_a_cell_is_unladderable_when_any_untestable_part_is(fixture_claims):
    row = next(r for r in fixture_claims["verdicts"] if (r["claim"], r["version"]) == ("c-1", "9.12.3"))
    ceiling = {**SCALE_MISSED, "unladderable": "residency is a step function of the index"}
    laddered = {**_part("untestable", leaning="fails"), "scale": SCALE_MISSED}

    def cell():
        grid = {(r["claim"], c["version"]): c for r in paper.matrix(fixture_claims)["rows"] for c in r["cells"]}
        return grid[("c-1", "9.12.3")]["unladderable"]

    assert not cell()
    # The first untestable part has a ladder, the second none: no ladder decides the cell.
    row["parts"] = [laddered, {**laddered, "scale": ceiling}]
    assert cell()
    # A part that was judged does not mark the cell, nor a cell that is not untestable.
    row["parts"] = [laddered, {**_part("holds"), "scale": ceiling}]
    assert not cell()
    row.update(verdict="inconclusive", parts=[{**_part("untestable"), "scale": ceiling}])
    assert not cell()


def test_a_verdict_kept_although_a_side_lagged_says_so(fixture_claims):
    row = next(r for r in fixture_claims["verdicts"] if (r["claim"], r["version"]) == ("c-2", "7.7.3"))
    row["parts"][0]["pace"] = {**PACE_MISSED, "moves": "up", "kept": True}
    rows = {(r["claim"], r["version"]): r for r in paper.claim_rows(fixture_claims)}
    assert rows[("c-2", "7.7.3")]["measured"].endswith(
        "(holds although reindex reached 13% of its asked rate, under the 90% required)")
    assert rows[("c-1", "9.12.3")]["measured"].endswith(
        "(untestable at this scale: hot_share_ceiling 0.730, under the 0.900 its mechanism needs: the index is too "
        "small)")
    assert [rows[k]["leaning"] for k in (("c-2", "6.6.6"), ("c-1", "7.7.3"), ("c-2", "7.7.3"))] == \
        ["holds", "fails", None]


GROWN = {"over": "corpus", "at": 3e8, "why": "the seed's 300M docs", "model": "loglog", "sizes": [1e6, 4e6, 1.6e7],
         "points": [{"size": s, "value": 1.0, "low": 0.9, "high": 1.1, "n": 4} for s in (1e6, 4e6, 1.6e7)],
         "prediction": {"value": 140.0, "low": 110.0, "high": 180.0, "n": 4}, "verdict": "holds", "leaning": None,
         "reason": None}


def test_a_verdict_at_the_seed_size_sits_beside_the_measured_one_and_is_counted_apart(fixture_claims):
    row = next(r for r in fixture_claims["verdicts"] if (r["claim"], r["version"]) == ("c-1", "9.12.3"))
    row["parts"][0].update(extrapolated=GROWN, claimed=100.0)
    row["extrapolated"] = {"verdict": "holds", "reason": None}
    grid = {(r["claim"], c["version"]): c for r in paper.matrix(fixture_claims)["rows"] for c in r["cells"]}
    cell = grid[("c-1", "9.12.3")]
    assert (cell["verdict"], cell["extrapolated"], cell["extrapolated_mark"]) == ("untestable", "holds", "✓")
    assert grid[("c-2", "9.12.3")]["extrapolated"] is None
    m = paper.matrix(fixture_claims)
    assert m["counts"]["by_verdict"]["holds"] == 1 and m["extrapolated_counts"]["by_verdict"]["holds"] == 1
    assert m["extrapolated_counts"]["cells"] == 1
    assert paper.matrix_numbers([{"matrix": m}])["extrapolated"] == {"cells": 1, "words": [{"verdict": "holds",
                                                                                           "count": 1}]}
    (grown,) = paper.growth_rows(fixture_claims)
    assert (grown["claim"], grown["version"], grown["measured_verdict"], grown["verdict"]) == \
        ("c-1", "9.12.3", "untestable", "holds")
    assert (grown["predicted"], grown["at"], grown["claimed"]) == ("140 [110, 180], n=4", "300,000,000", "100")
    text = {(r["claim"], r["version"]): r for r in paper.claim_rows(fixture_claims)}[("c-1", "9.12.3")]
    assert text["extrapolated"] == "holds"
    assert text["measured"].endswith("; at the seed's size (the seed's 300M docs): holds, extrapolated (loglog fit "
                                     "through corpus sizes 1,000,000, 4,000,000, 16,000,000: 140 [110, 180], "
                                     "n=4)")


def test_a_ladder_without_a_verdict_at_the_seed_size_says_why():
    one = {"over": "corpus", "at": 3e8, "why": "the seed's 300M docs", "model": "loglog", "verdict": None,
           "reason": "one size measured (corpus 1000000.0)", "points": []}
    assert paper.seed_size(one) == "at the seed's size (the seed's 300M docs): no verdict, one size measured (corpus " \
                                   "1000000.0)"
    bent = {**GROWN, "verdict": None, "reason": "the measured sizes bend away from a line"}
    assert paper.seed_size(bent).startswith("at the seed's size (the seed's 300M docs): no verdict, the measured sizes "
                                            "bend away from a line (loglog fit")


def _agreement(scale="smoke", digest="abc"):
    return {"scale": scale, "config_digest": digest, "runs": 3, "run_dirs": ["a", "b", "c"],
            "cells": [{"study": "fx", "claim": "c-2", "version": "7.7.3", "verdicts": ["holds"] * 3,
                       "agree": 3, "of": 3, "flip": False},
                      {"study": "fx", "claim": "c-1", "version": "7.7.3",
                       "verdicts": ["biased", "fails", "biased"], "agree": 2, "of": 3, "flip": True}],
            "summary": {"applicable": 7, "agreeing": 6, "share": 6 / 7, "flips": 1}}


def _manifest(version, disk=True):
    """A result manifest's provenance (lrev.manifest), as a run on one machine writes it."""
    return {"lucene_version_reported": version, "started": "2026-11-29T10:00:00+00:00",
            "finished": "2026-11-29T10:30:00+00:00", "git": {"sha": "f" * 40, "dirty": False},
            "jdk": {"vendor": "Eclipse Adoptium", "version": "25.0.1", "flags": ["-Xmx2g", "-XX:+UseParallelGC"],
                    **({"vm_options": {"CICompilerCount": "2", "ParallelGCThreads": "2"}} if disk else {})},
            "host": {"cpu_model": "Xeon", "cores": 2, "ram_bytes": 24 * 2**30, "kernel": "Linux 6",
                     **({"disk": {"device": "vda", "model": None, "rotational": True, "read_ahead_kb": 8192},
                         "transparent_hugepages": "madvise"} if disk else {})},
            "corpora": {"main": {"docs": 1000, "sha256": {"docs.tsv": "0" * 64}}}}


def test_the_title_page_gets_one_machine_from_every_provenance_row_old_or_new(fixture_claims):
    study = {"versions": ["9.12.3", "4.10.4"],
             "provenance": [paper.provenance_row("9.12.3", _manifest("9.12.3")),
                            paper.provenance_row("4.10.4", _manifest("4.10.4", disk=False))]}
    machine = paper.machine_numbers({"fx": study})
    assert machine["cpu"] == ["Xeon"] and machine["cores"] == [2] and machine["ram"] == ["24.0 GiB"]
    # A manifest from before disks were recorded adds nothing, rather than a None.
    assert machine["disk"] == ["vda, rotational as the kernel reports it, read-ahead 8,192 KiB"]
    assert machine["thp"] == ["madvise"] and machine["vm_options"] == [{"CICompilerCount": "2",
                                                                        "ParallelGCThreads": "2"}]
    assert machine["studies"]["fx"] == {"versions": ["4.10.4", "9.12.3"],
                                        "corpora": [{"name": "main", "docs": "1,000"}]}


@pytest.mark.parametrize("value, text", [(0.0012, "0.00120"), (1.3149, "1.31"), (47.62, "47.6"), (191.4, "191"),
                                         (1234.5, "1,234"), (0.0, "0"), (-0.0, "0"), (-0.5, "-0.500"), (None, "n/a"),
                                         (9.996, "10.0"), (-0.9999999999999996, "-1.00"), (0.99949, "0.999"),
                                         (float("nan"), "n/a")])
def test_numbers_print_with_significant_digits_not_fixed_decimals(value, text):
    assert paper.fmt(value) == text


def test_run_time_sums_the_jobs_benchmarks_and_spans_them(tmp_path):
    assert paper.run_time(tmp_path) is None
    for rule, seconds in (("a", 1800.0), ("b", 3600.0)):
        (tmp_path / rule).mkdir()
        (tmp_path / rule / "job.tsv").write_text(f"s\th:m:s\n{seconds}\t0:00:00\n")
    assert paper.run_time(tmp_path) == {"jobs": 2, "hours": "1.50", "span_hours": "1.00"}


def _numbers(fixture_claims):
    grid = paper.matrix(fixture_claims)
    study = {"versions": VERSIONS, "claims": fixture_claims["claims"], "claim_rows": paper.claim_rows(fixture_claims),
             "matrix": grid, "verdict_counts": grid["counts"]["by_verdict"],
             "provenance": [paper.provenance_row(v, _manifest(v)) for v in VERSIONS],
             "aa_rows": paper.aa_rows(fixture_claims)}
    return {"meta": {"scale": "smoke", "config_digest": "abc", "confidence": "95%"}, "order": ["fx"],
            "matrix": paper.matrix_numbers([study]), "studies": {"fx": study}, "stability": None}


def test_stability_gives_each_cell_its_k_of_k_runs(fixture_claims):
    merged = paper.with_stability(_numbers(fixture_claims), _agreement())
    rows = {(r["claim"], r["version"]): r["stability"] for r in merged["studies"]["fx"]["claim_rows"]}
    assert rows[("c-2", "7.7.3")] == {"agree": 3, "of": 3, "flip": False}
    assert rows[("c-1", "7.7.3")] == {"agree": 2, "of": 3, "flip": True}
    assert rows[("c-1", "4.10.4")] is None  # a cell the repeated runs did not judge
    cells = {(r["claim"], c["version"]): c["stability"] for r in merged["studies"]["fx"]["matrix"]["rows"]
             for c in r["cells"]}
    assert cells == rows
    assert merged["stability"] == {"runs": 3, "applicable": 7, "agreeing": 6, "percent": "86%", "flips": 1,
                                   "config_digest": "abc", "same_config": True}
    assert paper.with_stability(_numbers(fixture_claims), _agreement(digest="other"))["stability"]["same_config"] \
        is False
    with pytest.raises(ValueError, match="scale 'paper'"):
        paper.with_stability(_numbers(fixture_claims), _agreement(scale="paper"))


def _text(node) -> str:
    """The text of a queried Typst element, its pieces joined as they print."""
    if isinstance(node, list):
        return "".join(_text(n) for n in node)
    if not isinstance(node, dict):
        return ""
    if node.get("func") == "space":
        return " "
    return node.get("text", "") + "".join(_text(node[k]) for k in ("body", "child", "children") if k in node)


@pytest.mark.parametrize("stable", [False, True])
def test_lib_renders_the_matrix_and_claims_table(fixture_claims, tmp_path, stable):
    """paper/lib.typ's matrix, legend and claims table compile from the fixture's numbers: one colour per verdict,
    columns in release order, leanings and n printed, and the stability column only when repeated runs are given."""
    numbers = _numbers(fixture_claims)
    if stable:
        numbers = paper.with_stability(numbers, _agreement())
    write_json(tmp_path / "numbers.json", numbers)
    doc = tmp_path / "doc.typ"
    doc.write_text(f'#import "{REPO / "paper" / "lib.typ"}": numbers, verdict-matrix, matrix-legend, claims-table\n'
                   '#verdict-matrix("fx")\n#matrix-legend\n#claims-table(numbers.studies.fx)\n')
    compile_args = {"root": "/", "sys_inputs": {"numbers": str(tmp_path / "numbers.json")}}
    pdf = tmp_path / "doc.pdf"
    typst.compile(str(doc), output=str(pdf), **compile_args)
    assert pdf.read_bytes().startswith(b"%PDF")

    grid, table = json.loads(typst.query(str(doc), "table", **compile_args))
    header, *body = grid["children"]
    assert [_text(c) for c in header["children"]] == ["fx", "4.10.4", "6.6.6", "7.7.3", "9.12.3", "10.6.0"]
    assert [_text(c) for c in body[:6]] == ["c-2", "?", "n↑", "✓", "b↑", "✗"]
    fills = [c["fill"] for c in body if c.get("fill")]
    assert len(fills) == 10 and len(set(fills)) == 10  # ten verdicts, ten colours

    rows = _text(table)
    assert "(leans holds)" in rows and "n=5" in rows and "no bias beyond ×1.10" in rows
    assert ("same verdict in k of K runs" in " ".join(rows.split())) is stable
    assert ("2 of 3" in rows) is stable


@pytest.mark.parametrize("stable", [False, True])
def test_compile_writes_the_matrix_counts_and_stability_only_when_given(fixture_claims, tmp_path, monkeypatch, stable):
    numbers = _numbers(fixture_claims)
    write_json(tmp_path / "fx.json", numbers["studies"]["fx"])
    write_json(tmp_path / "plan.json", {"scale": "seed", "totals": {"jobs": 2, "estimated_jobs": 1, "hours": 1.0,
                                                                     "peak_memory_gib": 1.0, "disk_gib": 1.0},
                                        "fitted_on": [], "unestimated": [], "degenerate": [],
                                        "studies_totals": [{"study": "fx", "hours": 1.0}]})
    write_json(tmp_path / "agreement.json", _agreement())
    compiled = []
    monkeypatch.setattr(paper, "compile_pdf", lambda numbers_file, out: compiled.append(out))
    resolved = {"scale": "smoke", "exclusive": False, "lucene_versions": VERSIONS, "studies": {"fx": {"docs": 10}}}
    write_json(tmp_path / "config.json", resolved)
    paper.main(["compile", "--scale", "smoke", "--config", str(tmp_path / "config.json"), "--study", "fx",
                str(tmp_path / "fx.json"),
                "--plan", str(tmp_path / "plan.json"), "--out", str(tmp_path / "paper.pdf"),
                *(["--stability", str(tmp_path / "agreement.json")] if stable else [])])
    written = json.loads((tmp_path / "numbers.json").read_text())
    assert compiled == [tmp_path / "paper.pdf"]
    assert (written["matrix"]["applicable"], written["matrix"]["by_verdict"]["n/a"]) == (9, 1)
    assert (written["stability"] is not None) is stable
    assert all(("stability" in r) is stable for r in written["studies"]["fx"]["claim_rows"])
    assert written["plan"]["study_hours"] == {"fx": "1.00"} and written["plan"]["degenerate"] == 0
    # The digest is the config's, which the paper prints whole; no benchmarks given, no time.
    assert written["meta"]["config"] == resolved and written["meta"]["config_digest"] == config.digest(resolved)
    assert written["meta"]["time"] is None and written["meta"]["machine"]["cores"] == [2]
    # The paper cites itself as this run: its scale, commit and config digest.
    run = cite.Run.of("smoke", written["meta"]["git"], config.digest(resolved))
    assert written["meta"]["citation"]["bibtex"] == cite.bibtex(run=run)


def test_the_method_block_counts_aas_biases_spreads_and_versions_without_an_aa(fixture_claims):
    m = paper.method_numbers(fixture_claims)
    assert (m["confidence"], m["looks"], m["min_rounds"], m["aa_tolerance"]) == ("98.3%", 3, 3, "×1.10")
    assert (m["aa_checked"], m["aa_biased"], m["aa_withheld"]) == (2, 1, 1)
    assert m["aa_jvm_sd"] == "5.0%"  # the median of 3% and 7%
    # Eight ratio parts (the answer is not one), six without an A/A beside them.
    assert (m["ratios"], m["no_aa"], m["no_aa_quantities"]) == (8, 6, ["q"])
    assert (m["parts"], m["converged"], m["rounds"]) == (8, 7, "2-5")


def test_every_aa_is_listed_once_with_its_interval_and_the_cells_it_withheld(fixture_claims):
    rows = paper.aa_rows(fixture_claims)
    assert [(r["version"], r["aa"], r["biased"], r["withheld"]) for r in rows] == [
        ("7.7.3", "default-aa ÷ default", True, ["c-1"]), ("7.7.3", "default-aa ÷ default", False, [])]
    assert rows[0]["estimate"] == "1.20 [1.05, 1.37], n=5" and rows[0]["where"] == "corpus=rnd"
    # Two parts beside one A/A list it once.
    twice = {**fixture_claims, "verdicts": fixture_claims["verdicts"] + [
        {**_verdict_row("c-1", "7.7.3"), "claim": "c-3"}]}
    assert [r["withheld"] for r in paper.aa_rows(twice)] == [["c-1", "c-3"], []]


def test_lib_renders_a_verdict_at_the_seed_size_in_the_matrix_and_its_figure(fixture_claims, tmp_path):
    """The untestable cell c-1 on 9.12.3 holds at the seed's size: its mark is followed by →✓, and the claim's
    growth figure prints with that verdict in its caption."""
    row = next(r for r in fixture_claims["verdicts"] if (r["claim"], r["version"]) == ("c-1", "9.12.3"))
    row["parts"][0]["extrapolated"] = GROWN
    row["extrapolated"] = {"verdict": "holds", "reason": None}
    numbers = _numbers(fixture_claims)
    figure = tmp_path / "figures" / "growth-c-1.png"
    figure.parent.mkdir()
    # An empty plot stands in for the figure: the test reads the caption, not the plot.
    plt.figure(figsize=(1, 1)).savefig(figure)
    plt.close("all")
    numbers["studies"]["fx"].update(growth=[{"claim": "c-1", "figure": "growth-c-1"}],
                                    growth_rows=paper.growth_rows(fixture_claims),
                                    method=paper.method_numbers(fixture_claims),
                                    figures={"growth-c-1": "figures/growth-c-1.png"})
    write_json(tmp_path / "numbers.json", numbers)
    doc = tmp_path / "doc.typ"
    doc.write_text(f'#import "{REPO / "paper" / "lib.typ"}": verdict-matrix, growth-figures\n'
                   '#verdict-matrix("fx")\n#growth-figures("fx")\n')
    compile_args = {"root": "/", "sys_inputs": {"numbers": str(tmp_path / "numbers.json"), "run_root": str(tmp_path)}}
    typst.compile(str(doc), output=str(tmp_path / "doc.pdf"), **compile_args)
    grid = json.loads(typst.query(str(doc), "table", **compile_args))[0]
    _, *body = grid["children"]
    c1 = [_text(c) for c in body[6:]]
    assert c1[0] == "c-1" and c1[4] == "s↓ →✓"
    table, image = json.loads(typst.query(str(doc), "figure", **compile_args))
    rows = " ".join(_text(table["body"]).split())
    assert "9.12.3speed-up1.50 [1.20, 1.90], n=5 untestable" in rows  # cells print without a space between them
    assert "loglog: 1,000,000, 4,000,000, 16,000,000140 [110, 180], n=4 holds" in rows
    caption = " ".join(_text(image["caption"]).split())
    assert "Claim c-1 at the seeds size" in caption and "9.12.3 holds" in caption  # smart quotes print apart


def test_plan_numbers_give_each_fit_its_error_in_sample_and_held_out():
    errors = [{"study": "fx", "kind": "index", "shape": "full", "sizes": [100000, 300000, 3000000], "in_sample": 0.123,
               "held_out": {"docs": 3000000, "predicted": 32.0, "measured": 40.0, "error": -0.2}},
              {"study": "fx", "kind": "run", "shape": "", "sizes": [10000, 100000], "in_sample": 0.0, "held_out": None}]
    result = {"scale": "seed", "totals": {"jobs": 2, "estimated_jobs": 1, "hours": 1.0, "peak_memory_gib": 1.0,
                                          "disk_gib": 1.0}, "fitted_on": [], "unestimated": {}, "degenerate": [],
              "studies_totals": [], "errors": errors}
    got = paper.plan_numbers(result)["errors"]
    assert got[0] == {"study": "fx", "kind": "index builds", "sizes": "100,000, 300,000, 3,000,000", "in_sample": "12%",
                      "held_out": {"docs": "3,000,000", "error": "-20%"}}
    assert (got[1]["kind"], got[1]["held_out"]) == ("forks", None)


FIXTURE_SECTION = """#import "lib.typ": study, claims-one-by-one
#let N = study("fx")
#let method = (directory: [`MMapDirectory`], pinning: [none], reimplemented: [a stand-in],
  iterations: [≥ 100 ms each])
= The `fx` study <fx>
#claims-one-by-one(N)
"""


def test_the_whole_paper_compiles_around_a_study_and_reads_clean(fixture_claims, tmp_path, monkeypatch):
    """paper/lucene-revisited.typ with every shared section, around one fixture study: page 1 names the machine and
    the run's time, the resolved config is printed, and the PDF's text has no leaked markup and counts that add
    up (lrev.pdftext)."""
    shutil.copytree(REPO / "paper", tmp_path / "paper")
    (tmp_path / "paper" / "fx.typ").write_text(FIXTURE_SECTION)
    monkeypatch.setattr(paper, "SOURCE", tmp_path / "paper" / "lucene-revisited.typ")
    study = {**_numbers(fixture_claims)["studies"]["fx"], "claims": fixture_claims["claims"], "growth_rows": [],
             "method": paper.method_numbers(fixture_claims),
             "steady": paper.steady_numbers(pd.DataFrame({"steady": ["flat", "warm-up", "warm-up", "no steady state"]}),
                                            fixture_claims)}
    # One version's manifest predates the disk, huge-page and JVM-option records: the paper still compiles.
    study["provenance"] = [{**paper.provenance_row(v, _manifest(v, disk=v != VERSIONS[0])), "parameters": "10 docs"}
                           for v in VERSIONS]
    run = tmp_path / "run"
    write_json(run / "fx.json", study)
    write_json(run / "plan.json", {"scale": "seed", "totals": {"jobs": 2, "estimated_jobs": 1, "hours": 1.0,
                                                                "peak_memory_gib": 1.0, "disk_gib": 1.0},
                                   "fitted_on": [], "unestimated": {}, "degenerate": [],
                                   "studies_totals": [{"study": "fx", "hours": 1.0}]})
    write_json(run / "config.json", {"scale": "smoke", "exclusive": False, "lucene_versions": VERSIONS,
                                     "studies": {"fx": {"docs": 10}}})
    (run / "benchmarks" / "a").mkdir(parents=True)
    (run / "benchmarks" / "a" / "job.tsv").write_text("s\th:m:s\n5400.0\t1:30:00\n")
    pdf = run / "paper" / "lucene-revisited.pdf"
    paper.main(["compile", "--scale", "smoke", "--config", str(run / "config.json"), "--study", "fx",
                str(run / "fx.json"), "--plan", str(run / "plan.json"), "--benchmarks", str(run / "benchmarks"),
                "--out", str(pdf)])
    assert pdftext.problems(pdf) == []
    first = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert "Xeon, 2 cores, 24.0 GiB RAM" in first and "1.50 h in 1 job (" in first
    assert "Abstract." in first
    whole = " ".join(pdftext.text(pdf).split())
    for section in ("Method", "Threats to validity", "Related work", "Reproduce this report", "References",
                    "The resolved config"):
        assert section in whole, section


SWALLOWED = re.compile(r"#[A-Za-z_][\w.-]*(?:\([^()\n]*\))*;(?=\s|$)", re.M)


def test_no_semicolon_after_an_embedded_expression_is_swallowed():
    """In Typst markup `#f(x);` ends the expression at the `;`, which then never prints: text that means a `;`
    after an expression escapes it (`\\;`). The PDF's text cannot show a character that is missing."""
    found = [f"{typ.name}: {m.group(0)}" for typ in sorted((REPO / "paper").glob("*.typ"))
             for m in SWALLOWED.finditer(typ.read_text())]
    assert found == []
    assert SWALLOWED.search("disk #listed(M.disk); #listed(M.kernel)") and not SWALLOWED.search("_#t.term;_")


def test_the_methods_print_each_groups_prior_and_its_check(fixture_claims):
    judged = {**fixture_claims, "priors": {
        "ratio": {"d0": 4.2, "s0": 0.031, "cells": 8, "used": True, "coverage": {"overall": 0.951, "noisiest": 0.93}},
        "level": {"d0": None, "s0": 0.2, "cells": 5, "used": False, "coverage": {"overall": 0.9, "noisiest": 0.7}}}}
    judged["verdicts"][0]["parts"][0]["moderation"] = {"group": "ratio", "df": 6.2, "hypervariable": True,
                                                       "plain": {"low": 1.1, "high": 2.0}}
    rows = paper.method_numbers(judged)["moderation"]
    assert rows == [
        {"group": "ratio", "cells": 8, "d0": "4.20", "s0": "3.1%", "coverage": "95.1% / 93.0%", "used": True,
         "hypervariable": 1},
        {"group": "level", "cells": 5, "d0": "∞", "s0": "20.0%", "coverage": "90.0% / 70.0%", "used": False,
         "hypervariable": 0}]


def test_the_steady_state_numbers_count_each_class_and_list_the_cells_the_jit_compiled_through():
    series = pd.DataFrame({"steady": ["flat", "warm-up", "warm-up", "no steady state", "slowdown"]})
    verdicts = {"verdicts": [
        {"claim": "x-1", "version": "10.6.0", "verdict": "holds",
         "parts": [{"steadiness": {"converged": True, "unsteady": {}, "jit_share": 0.031}}]},
        {"claim": "x-2", "version": "10.6.0", "verdict": "unconverged",
         "parts": [{"steadiness": {"converged": False, "unsteady": {"a": [2, 3]}, "jit_share": 0.01}}]},
        {"claim": "x-3", "version": "10.6.0", "verdict": "fails", "parts": [{"steadiness": None}]},
        {"claim": "x-4", "version": "10.6.0", "verdict": "holds",
         "parts": [{"steadiness": {"converged": False, "unsteady": {"a": [2, 3]}, "jit_share": 0.0,
                                   "bracketed": True}}]}]}
    rows = paper.claim_rows({"verdicts": [{**v, "parts": [{"label": "p", "value": 2.0, "low": 1.5, "high": 2.5, "n": 3,
                                                            "aa": None, **v["parts"][0]}]} for v in verdicts["verdicts"]]})
    assert rows[0]["measured"].endswith("(the JIT compiled for 3.1% of the steady segments)")
    assert "JIT" not in rows[1]["measured"] and "JIT" not in rows[2]["measured"]
    got = paper.steady_numbers(series, verdicts)
    assert got["classes"] == {"flat": 1, "warm-up": 2, "slowdown": 1, "no steady state": 1}
    assert (got["unconverged"], got["bracketed"]) == (1, 1)
    assert got["jit_cells"] == [{"claim": "x-1", "version": "10.6.0", "verdict": "holds", "jit_share": "3.1%"}]
