"""`./run stability`: the agreement of K runs' verdicts, the checks before any run (corpus and index checksums,
`--runs`, one config for every run folder), on hand-made run folders; no pipeline runs here."""
from __future__ import annotations

import json
import os

import pytest

from lrev import config, plan, stability
from lrev.io import ChecksumError, read_json, sha256_file, tree_checksums, write_json

STUDIES = ("alpha", "beta")


def fake_config(tmp_path, rounds=2):
    """A resolved config of two made-up studies at smoke scale, its outdir ``tmp_path``."""
    raw = {"scale": "smoke", "outdir": str(tmp_path), "exclusive_scales": [], "lucene_versions": ["8.11.4", "9.12.3"],
           "steady": {"penalty": 2.0, "min_steady": 5}}
    return config.Config(raw=raw, studies={s: {"rounds": rounds} for s in STUDIES})


def claims(root, study, verdicts):
    """``results/<study>/claims.json`` below ``root`` with ``verdicts``: {(claim, version): verdict}."""
    write_json(root / "results" / study / "claims.json",
               {"study": study, "versions": sorted({v for _, v in verdicts}),
                "verdicts": [{"claim": c, "version": v, "verdict": x} for (c, v), x in verdicts.items()]})
    return root


RUNS = [  # three runs of alpha: c1 agrees, c2 flips, c3 is n/a throughout, c4 n/a once
    {("c1", "9.12.3"): "holds", ("c2", "9.12.3"): "holds", ("c3", "9.12.3"): "n/a", ("c4", "9.12.3"): "n/a"},
    {("c1", "9.12.3"): "holds", ("c2", "9.12.3"): "fails", ("c3", "9.12.3"): "n/a", ("c4", "9.12.3"): "inconclusive"},
    {("c1", "9.12.3"): "holds", ("c2", "9.12.3"): "holds", ("c3", "9.12.3"): "n/a", ("c4", "9.12.3"): "n/a"},
]


def three_runs(tmp_path):
    return [claims(tmp_path / f"run-{k}" / "smoke", "alpha", run) for k, run in enumerate(RUNS, 1)]


def test_agreement_counts_the_majority_and_flags_holds_fails_flips(tmp_path):
    cells = stability.agreement([stability.verdicts(root, ["alpha"]) for root in three_runs(tmp_path)])
    by_claim = {c["claim"]: c for c in cells}
    assert by_claim["c1"] == {"study": "alpha", "claim": "c1", "version": "9.12.3",
                              "verdicts": ["holds"] * 3, "agree": 3, "of": 3, "flip": False}
    assert (by_claim["c2"]["verdicts"], by_claim["c2"]["agree"], by_claim["c2"]["flip"]) == \
        (["holds", "fails", "holds"], 2, True)
    assert (by_claim["c4"]["agree"], by_claim["c4"]["flip"]) == (2, False)
    # c3 is n/a in every run: not applicable; c4, n/a in two runs only, is.
    assert stability.summary(cells) == {"applicable": 3, "agreeing": 1, "share": 1 / 3, "flips": 1}


def test_a_cell_one_run_lacks_counts_as_absent_there(tmp_path):
    a = claims(tmp_path / "a", "alpha", {("c1", "9.12.3"): "holds", ("c1", "10.6.0"): "fails"})
    b = claims(tmp_path / "b", "alpha", {("c1", "9.12.3"): "holds"})
    cells = stability.agreement([stability.verdicts(a, ["alpha"]), stability.verdicts(b, ["alpha"])])
    assert [c["version"] for c in cells] == ["9.12.3", "10.6.0"]  # numeric order
    assert cells[1]["verdicts"] == ["fails", stability.ABSENT] and cells[1]["agree"] == 1


def test_an_untestable_cell_is_compared_by_its_verdict_at_the_seeds_size(tmp_path):
    """Two runs that both say `untestable` agree only where their ladders draw the same verdict at the seed's size,
    checked alike; a checked extrapolation against a measured verdict can flip."""
    def row(claim, verdict, grown=None, checked=True):
        return {"claim": claim, "version": "9.12.3", "verdict": verdict,
                "extrapolated": None if grown is None else {"verdict": grown, "checked": checked}}

    runs = [[row("same", "untestable", "holds"), row("unchecked", "untestable", "holds"),
             row("flip", "untestable", "fails"), row("none", "untestable", None), row("loose", "untestable", "holds")],
            [row("same", "untestable", "holds"), row("unchecked", "untestable", "holds", checked=False),
             row("flip", "holds"), row("none", "untestable", None), row("loose", "untestable", "fails", False)]]
    for k, rows in enumerate(runs):
        write_json(tmp_path / f"r{k}" / "results" / "alpha" / "claims.json",
                   {"study": "alpha", "versions": ["9.12.3"], "verdicts": rows})
    cells = {c["claim"]: c for c in stability.agreement(
        [stability.verdicts(tmp_path / f"r{k}", ["alpha"]) for k in range(2)])}
    assert cells["same"]["verdicts"] == ["holds (extrapolated)"] * 2 and cells["same"]["agree"] == 2
    assert cells["unchecked"]["verdicts"] == ["holds (extrapolated)", "holds (extrapolated, unchecked)"]
    assert cells["unchecked"]["agree"] == 1 and not cells["unchecked"]["flip"]
    assert cells["flip"]["flip"] and cells["none"]["agree"] == 2
    assert not cells["loose"]["flip"], "an unchecked line decides nothing, so it flips nothing"


def test_only_n_a_cells_leave_no_share(tmp_path):
    cells = stability.agreement([{("alpha", "c", "9.12.3"): "n/a"}] * 2)
    assert stability.summary(cells) == {"applicable": 0, "agreeing": 0, "share": None, "flips": 0}


def test_the_report_is_written_as_json_of_the_agreed_shape_and_markdown(tmp_path):
    cfg = fake_config(tmp_path)
    roots = three_runs(tmp_path / "smoke" / "stability")
    for root in roots:
        claims(root, "beta", {("b1", "8.11.4"): "answer"})
    rep = stability.report(cfg, roots)
    text = stability.write_report(tmp_path / "smoke", rep)
    saved = read_json(tmp_path / "smoke" / "stability" / "agreement.json")
    assert saved == json.loads(json.dumps(rep))
    assert set(saved) == {"scale", "config_digest", "runs", "run_dirs", "cells", "summary"}
    assert (saved["scale"], saved["config_digest"], saved["runs"]) == ("smoke", cfg.digest, 3)
    assert saved["run_dirs"] == [str(r) for r in roots]
    assert all(set(c) == {"study", "claim", "version", "verdicts", "agree", "of", "flip"} for c in saved["cells"])
    assert saved["summary"] == {"applicable": 4, "agreeing": 2, "share": 0.5, "flips": 1}
    assert (tmp_path / "smoke" / "stability" / "agreement.md").read_text() == text
    assert "**2 of 4 applicable cells (50%) have the same verdict in all 3 runs; holds↔fails flips: 1.**" in text
    assert "| alpha | c2 | 9.12.3 | holds | fails | holds | 2 of 3 | **holds↔fails** |" in text
    assert "| alpha | c3 |" not in text  # n/a in every run


def test_a_missing_claims_file_is_named(tmp_path):
    with pytest.raises(stability.StabilityError, match="run-1/smoke/results/beta/claims.json is missing"):
        stability.verdicts(three_runs(tmp_path)[0], ["alpha", "beta"])


def main_root_with_shared(tmp_path):
    """A main run folder with one corpus (files and their manifest) and one index (a folder, checksummed as a tree)
    of study alpha."""
    root = tmp_path / "smoke"
    corpus = root / "corpora" / "alpha" / "c1"
    corpus.mkdir(parents=True)
    (corpus / "docs.tsv").write_text("1\tone\n2\ttwo\n")
    write_json(corpus / "manifest.json", {"synthetic": True, "sha256": {"docs.tsv": sha256_file(corpus / "docs.tsv")}})
    index = root / "indexes" / "alpha" / "9.12.3" / "c1"
    (index / "index").mkdir(parents=True)
    (index / "index" / "_0.cfs").write_bytes(b"segment")
    write_json(index / "manifest.json", tree_checksums(index, ["index"]))
    return root


def test_checked_corpora_and_indexes_pass(tmp_path):
    stability.verify_shared(main_root_with_shared(tmp_path), fake_config(tmp_path))


@pytest.mark.parametrize("tampered", ["corpora/alpha/c1/docs.tsv", "indexes/alpha/9.12.3/c1/index/_0.cfs"])
def test_a_changed_corpus_or_index_file_stops_naming_it(tmp_path, tampered):
    root = main_root_with_shared(tmp_path)
    with open(root / tampered, "a") as f:
        f.write("changed")
    with pytest.raises(ChecksumError, match=str(root / tampered)):
        stability.verify_shared(root, fake_config(tmp_path))


def no_snakemake(*_, **__):
    raise AssertionError("Snakemake must not run")


def test_main_stops_before_any_run_on_a_changed_corpus(tmp_path, monkeypatch, capsys):
    root = main_root_with_shared(tmp_path)
    (root / "corpora/alpha/c1/docs.tsv").write_text("3\tthree\n")
    monkeypatch.setattr(config, "from_snakemake_args", lambda argv: fake_config(tmp_path))
    monkeypatch.setattr(stability, "ensure_main", lambda *_: None)
    monkeypatch.setattr(stability, "run_once", no_snakemake)
    assert stability.main(["--config", "scale=smoke"]) == 2
    assert str(root / "corpora/alpha/c1/docs.tsv") in capsys.readouterr().err
    assert not (root / "stability").exists()


@pytest.mark.parametrize("runs", ["1", "0", "-1"])
def test_runs_below_two_is_an_error_naming_the_option(runs, monkeypatch, capsys):
    monkeypatch.setattr(config, "from_snakemake_args", no_snakemake)
    assert stability.main(["--runs", runs]) == 2
    assert f"--runs must be at least 2 (the main run and a rerun), not {runs}" in capsys.readouterr().err


def test_the_main_run_is_the_first_of_the_runs_compared_and_is_not_measured_again(tmp_path, monkeypatch):
    cfg = fake_config(tmp_path)
    main = (tmp_path / "smoke").resolve()
    for study, verdict in (("alpha", "holds"), ("beta", "answer")):
        claims(main, study, {(f"{study}1", "9.12.3"): verdict})
    reruns = []

    def rerun(cfg_, argv, main_root, k):
        root = stability.run_outdir(main_root, k) / "smoke"
        claims(root, "alpha", {("alpha1", "9.12.3"): "fails"})
        claims(root, "beta", {("beta1", "9.12.3"): "answer"})
        reruns.append(k)
        return root

    monkeypatch.setattr(config, "from_snakemake_args", lambda argv: cfg)
    monkeypatch.setattr(stability, "ensure_main", lambda *_: None)
    monkeypatch.setattr(stability, "run_once", rerun)
    text = stability.stability(["--runs", "2"])
    assert reruns == [1]  # two runs: the main run and one rerun
    saved = read_json(main / "stability" / "agreement.json")
    assert saved["runs"] == 2
    assert saved["run_dirs"] == [str(main), str(stability.run_outdir(main, 1) / "smoke")]
    assert [c["verdicts"] for c in saved["cells"]] == [["holds", "fails"], ["answer", "answer"]]
    assert saved["summary"] == {"applicable": 2, "agreeing": 1, "share": 0.5, "flips": 1}
    assert "| study | claim | version | main | run-1 | agree | flip |" in text


def test_runs_defaults_to_two_and_leaves_snakemake_its_options():
    assert stability.parse(["--config", "scale=smoke", "--cores", "1"]) == (2, ["--config", "scale=smoke",
                                                                               "--cores", "1"])
    assert stability.parse(["--runs", "3", "--rerun-triggers", "mtime"]) == (3, ["--rerun-triggers", "mtime"])


def test_a_run_folder_of_another_config_is_refused(tmp_path, monkeypatch, capsys):
    made = fake_config(tmp_path, rounds=2)
    write_json(tmp_path / "smoke/stability/run-1/smoke" / stability.RECORD,
               {"scale": "smoke", "config_digest": made.digest})
    now = fake_config(tmp_path, rounds=3)
    assert now.digest != made.digest
    stability.check_records(tmp_path / "smoke", made)  # the same config goes on
    monkeypatch.setattr(config, "from_snakemake_args", lambda argv: now)
    monkeypatch.setattr(stability, "ensure_main", no_snakemake)
    assert stability.main([]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "smoke/stability/run-1/smoke") in err
    assert f"config digest {made.digest}" in err and f"config digest {now.digest}" in err
    assert "not compared" in err


def test_a_run_folder_links_the_main_corpora_and_indexes(tmp_path):
    main = main_root_with_shared(tmp_path)
    root = stability.run_outdir(main, 1) / "smoke"
    stability.link_shared(main, root)
    stability.link_shared(main, root)  # a resumed run finds its links
    assert (root / "corpora/alpha/c1/docs.tsv").read_text() == "1\tone\n2\ttwo\n"
    assert all((root / f).is_symlink() for f in stability.SHARED)
    (root / "corpora").unlink()
    (root / "corpora").mkdir()
    with pytest.raises(stability.StabilityError, match=f"{root / 'corpora'} exists and is not a link"):
        stability.link_shared(main, root)


def test_a_dry_run_that_would_rebuild_an_index_stops(tmp_path, monkeypatch):
    monkeypatch.setattr(stability.plan, "dry_run_jobs", lambda argv: [
        ("alpha_index", {"version": "9.12.3", "corpus": "c1"}), ("alpha_run", {})])
    with pytest.raises(stability.StabilityError, match=r"alpha_index \(version=9.12.3, corpus=c1\)"):
        stability.check_no_rebuild([], ["alpha_corpus", "alpha_index"], tmp_path)
    stability.check_no_rebuild([], ["beta_index"], tmp_path)


def test_stability_runs_measure_the_rounds_the_main_runs_budget_added(tmp_path):
    argv = ["--config", "scale=smoke", f"outdir={tmp_path}"]
    assert stability.with_main_rounds(argv) == argv
    added = tmp_path / "smoke" / "budget" / "rounds.yaml"
    added.parent.mkdir(parents=True)
    added.write_text("pk:\n  rounds: 4\n")
    argv_budget = stability.with_main_rounds(argv)
    assert argv_budget == [*argv, "--configfile", str(added)]
    assert config.from_snakemake_args(argv_budget).study("pk")["rounds"] == 4


def test_the_main_runs_targets_are_outputs_the_pipeline_knows(tmp_path):
    # A relative outdir, as the README's runs use: its resolved path names no rule's output (Snakemake matches
    # paths as written), and `./run stability` stopped there with "No rule to produce".
    options = ["--config", "scale=smoke", f"outdir={os.path.relpath(tmp_path, config.REPO)}"]
    cfg = config.from_snakemake_args(options)
    argv = stability.main_argv(cfg, options)
    targets = argv[:argv.index("--cores")]
    assert targets == stability.claims_targets(cfg.root, cfg)
    jobs = plan.dry_run_jobs([*targets, *options])  # raises PlanError on a target no rule produces
    assert sorted(w["study"] for rule, w in jobs if rule == "claims") == sorted(cfg.studies)
    assert set(stability.shared_rules(cfg)) & {rule for rule, _ in jobs}
