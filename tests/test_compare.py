"""`./run compare A B`: flipped verdicts (each claim's statement beside its id), measurements that moved beyond their
intervals, config and environment differences, whether A and B are the same run; writes beside the runs, and refuses
what is not a run."""
from __future__ import annotations

import json
import shutil
import tarfile
from contextlib import ExitStack

import pytest

from conftest import run_smoke
from lrev import artifact, compare, stability
from lrev.config import REPO
from lrev.io import write_json


def results_copy(root, dest):
    """A run folder holding a copy of ``root``'s results (the part compare reads)."""
    shutil.copytree(root / "results", dest / "results", ignore=shutil.ignore_patterns("forks"))
    return dest


def open_both(a, b):
    stack = ExitStack()
    return stack, compare.open_run(a, stack), compare.open_run(b, stack)


def test_a_verdict_changed_in_a_copy_is_the_only_flipped_row(smoke_run, tmp_path):
    root, _, _ = smoke_run
    copy = results_copy(root, tmp_path / "b")
    path = copy / "results" / "join" / "claims.json"
    claims = json.loads(path.read_text())
    cell = claims["verdicts"][0]
    old, new = cell["verdict"], "fails" if cell["verdict"] != "fails" else "holds"
    cell["verdict"] = new
    path.write_text(json.dumps(claims))
    stack, a, b = open_both(root, copy)
    with stack:
        assert compare.flipped(a, b) == [{"study": "join", "claim": cell["claim"], "version": cell["version"],
                                          "a": old, "b": new}]
        assert compare.moved(a, b) == [] and compare.config_differences(a, b) == []
        assert compare.environment_differences(a, b) == []


def test_two_smoke_runs_with_different_configs(smoke_run, tmp_path):
    a_root, _, _ = smoke_run
    # B starts from A's join corpora, indexes and forks (their times kept), so that B, given a third round,
    # measures that round only.
    for part in ("corpora", "indexes", "results"):
        shutil.copytree(a_root / part / "join", tmp_path / "runs" / "smoke" / part / "join")
    b_root, _, _ = run_smoke(tmp_path / "runs", "studies=[join]", "join={rounds: 3}",
                             options=("--forcerun", "join_run"))
    kept = a_root / "results/join/forks/round-1"
    assert all((b_root / "results/join/forks/round-1" / f.name / "timing.json").read_text()
               == (f / "timing.json").read_text() for f in kept.iterdir() if f.is_dir())
    stack, a, b = open_both(a_root, b_root)
    with stack:
        va = {(v["claim"], v["version"]): v["verdict"] for v in a.claims["join"]["verdicts"]}
        vb = {(v["claim"], v["version"]): v["verdict"] for v in b.claims["join"]["verdicts"]}
        expected = sorted((c, v, va[(c, v)], vb[(c, v)]) for c, v in va if va[(c, v)] != vb[(c, v)])
        assert [(r["claim"], r["version"], r["a"], r["b"]) for r in compare.flipped(a, b)] == expected
        assert ("join.rounds", 2, 3) in compare.config_differences(a, b)
        assert {s for s, _, _ in compare.only_in(a, b)} == set(a.claims) - {"join"}
        assert compare.only_in(b, a) == []
        for r in compare.moved(a, b):
            assert r["a_ci"][1] < r["b_ci"][0] or r["b_ci"][1] < r["a_ci"][0]
        out = tmp_path / "report.md"
        assert compare.main([str(a_root), str(b_root), "--out", str(out)]) == 0
        text = out.read_text()
        # B's rounds and studies differ: the differing verdicts are not flips of one experiment.
        assert text.split("\n")[5].startswith("**Not the same experiment**: config digest: A ")
        assert f"## Verdicts that differ, with the config ({len(expected)})" in text
        said = {c["id"]: c["statement"] for c in a.claims["join"]["claims"]}
        for claim, version, was, now in expected:
            assert f"| join | {claim} | {' '.join(said[claim].split())} | {version} | {was} | {now} |" in text
        assert "The same run" not in text
        assert "| `join.rounds` | 2 | 3 |" in text


def test_an_archive_compares_like_its_run_folder(smoke_run, tmp_path):
    root, _, _ = smoke_run
    archive = artifact.build(root, "smoke")
    stack, a, b = open_both(root, archive)
    with stack:
        assert compare.flipped(a, b) == [] and compare.moved(a, b) == []
        assert compare.config_differences(a, b) == []
        assert compare.sameness(a, b)[0] == ("**The same run** (the same measurements: every result table's sha256 "
                                             "equal).")


def test_a_run_compared_with_itself_or_a_copy_is_the_same_run(smoke_run, tmp_path):
    root, _, _ = smoke_run
    out = tmp_path / "self.md"
    assert compare.main([str(root), str(root), "--out", str(out)]) == 0
    assert out.read_text().split("\n")[5] == "**The same run** (one folder)."
    stack, a, b = open_both(root, results_copy(root, tmp_path / "copy"))
    with stack:
        assert compare.same_run(a, b) == "the same measurements: every result table's sha256 equal"
    # Another run of the same experiment is not the same run: its tables hold other timings.
    other = results_copy(root, tmp_path / "other")
    path = next((other / "results").glob("*/*/manifest.json"))
    manifest = json.loads(path.read_text())
    table = next(iter(manifest["sha256"]))
    manifest["sha256"][table] = "0" * 64
    path.write_text(json.dumps(manifest))
    stack, a, b = open_both(root, other)
    with stack:
        assert compare.same_run(a, b) is None and "The same run" not in compare.report(a, b)


@pytest.mark.parametrize("kind", ["empty folder", "missing path", "not an archive"])
def test_what_is_not_a_run_is_refused_and_nothing_written(tmp_path, capsys, kind):
    target = {"empty folder": tmp_path / "empty", "missing path": tmp_path / "nowhere",
              "not an archive": tmp_path / "notes.txt"}[kind]
    if kind == "empty folder":
        target.mkdir()
    elif kind == "not an archive":
        target.write_text("hello")
    out = tmp_path / "report.md"
    assert compare.main([str(target), str(target), "--out", str(out)]) == 2
    assert str(target) in capsys.readouterr().err
    assert not out.exists()


def test_an_archive_failing_its_checksums_is_refused(smoke_run, tmp_path, capsys):
    root, _, _ = smoke_run
    top = artifact.extract(artifact.build(root, "smoke"), tmp_path / "x")
    (top / "paper" / "numbers.json").write_text("{}")
    bad = tmp_path / "bad.tar.gz"
    with tarfile.open(bad, "w:gz") as tar:
        tar.add(top, arcname=top.name)
    out = tmp_path / "report.md"
    assert compare.main([str(root), str(bad), "--out", str(out)]) == 2
    assert "paper/numbers.json fails its checksum" in capsys.readouterr().err
    assert not out.exists()


def hand_made(root, verdicts, scale="smoke", digest=None):
    """A run folder of study alpha: its claims.json with ``verdicts`` ({(claim, version): verdict}), a result
    manifest per version recording ``scale``, and, with ``digest``, a stability run's record of its config."""
    versions = sorted({v for _, v in verdicts})
    write_json(root / "results/alpha/claims.json", {"study": "alpha", "versions": versions, "verdicts": [
        {"claim": c, "version": v, "verdict": x, "parts": []} for (c, v), x in verdicts.items()], "claims": [
        {"id": c, "statement": f"{c} is | true"} for c in dict.fromkeys(c for c, _ in verdicts)]})
    for version in versions:
        write_json(root / "results/alpha" / version / "manifest.json", {
            "scale": scale, "parameters": {"rounds": 2}, "lucene_version_reported": version,
            "jdk": {"vendor": "v", "version": "21", "flags": []},
            "host": {"cpu_model": "cpu", "cores": 2, "ram_bytes": 1, "kernel": "k"}, "git": {"sha": "abc"}})
    if digest:
        write_json(root / stability.RECORD, {"scale": scale, "config_digest": digest})
    return root


A_VERDICTS = {("c1", "9.12.3"): "holds", ("c2", "9.12.3"): "holds", ("c3", "9.12.3"): "n/a",
              ("c4", "9.12.3"): "inconclusive"}
B_VERDICTS = {("c1", "9.12.3"): "holds", ("c2", "9.12.3"): "fails", ("c3", "9.12.3"): "n/a",
              ("c4", "9.12.3"): "underpowered"}


def test_agreement_of_two_runs_per_study_and_their_holds_fails_flips(tmp_path):
    a = hand_made(tmp_path / "a", A_VERDICTS, digest="d1")
    b = hand_made(tmp_path / "b", B_VERDICTS, digest="d1")
    stack, ra, rb = open_both(a, b)
    with stack:
        rows = compare.agreement(ra, rb)
        assert compare.agreement_by_study(rows) == {"alpha": {"applicable": 3, "agreeing": 1, "share": 1 / 3,
                                                              "flips": 1}}
        assert compare.mismatches(ra, rb) == []
        out = tmp_path / "report.md"
        assert compare.main([str(a), str(b), "--out", str(out)]) == 0
    text = out.read_text()
    assert "Same experiment: scale smoke, config digest d1 in both." in text
    assert "## Agreement: 1 of 3 applicable cells (33%) have the same verdict" in text
    assert "| alpha | 1 | 3 | 33% |" in text
    flips = text.split("## holds ↔ fails flips (1)")[1].split("##")[0]
    assert "| alpha | c2 | c2 is \\| true | 9.12.3 | holds | fails |" in flips and "c4" not in flips
    assert "## Verdicts that flipped (2)" in text
    assert "| alpha | c4 | c4 is \\| true | 9.12.3 | inconclusive | underpowered |" in text
    assert "The same run" not in text


@pytest.mark.parametrize("what", ["scale", "config digest"])
def test_runs_of_different_scales_or_configs_say_so_first_and_report_no_flips(tmp_path, what):
    a = hand_made(tmp_path / "a", A_VERDICTS, digest="d1")
    b = hand_made(tmp_path / "b", B_VERDICTS, scale="default" if what == "scale" else "smoke",
                  digest="d2" if what == "config digest" else "d1")
    out = tmp_path / "report.md"
    assert compare.main([str(a), str(b), "--out", str(out)]) == 0
    text = out.read_text()
    first = text.split("\n")[5]
    assert first.startswith("**Not the same experiment**: ")
    assert {"scale": "scale: A smoke, B default", "config digest": "config digest: A d1, B d2"}[what] in first
    assert "flipped" not in text and "flips" not in text
    assert "## holds ↔ fails differences, with the config (1)" in text
    assert "## Verdicts that differ, with the config (2)" in text


def test_a_run_without_a_recorded_digest_is_said_to_be_unchecked(tmp_path):
    a = hand_made(tmp_path / "a", A_VERDICTS, digest="d1")
    b = hand_made(tmp_path / "b", A_VERDICTS)
    stack, ra, rb = open_both(a, b)
    with stack:
        assert compare.mismatches(ra, rb) == []
        assert compare.sameness(ra, rb) == ["Same experiment: scale smoke in both.",
                                            "B's config digest is not recorded, so it was not checked."]


def test_runs_that_share_no_cell_say_so(tmp_path):
    a = hand_made(tmp_path / "a", {("c1", "9.12.3"): "holds"}, digest="d1")
    b = hand_made(tmp_path / "b", {("c1", "10.6.0"): "fails"}, digest="d1")
    out = tmp_path / "report.md"
    assert compare.main([str(a), str(b), "--out", str(out)]) == 0
    text = out.read_text()
    assert "## Agreement: the two runs share no cell" in text and "None" not in text.split("## Verdicts")[0]
    assert "Judged in A only: alpha c1 on 9.12.3." in text and "Judged in B only: alpha c1 on 10.6.0." in text


def test_the_report_goes_beside_the_runs_not_into_this_clone(tmp_path):
    a = hand_made(tmp_path / "runs" / "a", A_VERDICTS, digest="d1")
    b = hand_made(tmp_path / "elsewhere" / "b", B_VERDICTS, digest="d1")
    assert compare.main([str(a), str(b)]) == 0
    assert (tmp_path / "runs" / "compare" / "runs-a-vs-elsewhere-b.md").is_file()
    assert not (REPO / "runs" / "compare" / "runs-a-vs-elsewhere-b.md").exists()
