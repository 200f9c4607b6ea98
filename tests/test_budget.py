"""The budget's driver: which study gets another round, and the loop that reruns the pipeline for it."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import scipy.stats
import yaml

from lrev import budget, claims, config
from lrev.io import write_json


def _cfg(tmp_path: Path, budgets: dict | None = None, **overrides) -> config.Config:
    return config.load({"outdir": str(tmp_path), "studies": ["dvjump"],
                        "budgets": {"default": budgets if budgets is not None else
                                    {"dvjump": {"max_rounds": 5, "minutes": 1}}}, **overrides})


def _fork(root: Path, study: str, round_: int, job: str, seconds: float, contender: str | None = None) -> None:
    record = {"seconds": seconds} if contender is None else {"seconds": seconds, "contender": contender}
    write_json(root / "results" / study / "forks" / f"round-{round_}" / job / "timing.json", record)


#: The contenders of every cell _claims writes, and the A/A beside them; a budget round runs these and dvjump's A/A.
SIDES = {"a": "lucene10", "b": "lucene6", "aa": {"a": "lucene7-index-aa", "b": "lucene7-index"}}
ROUND = ["lucene10", "lucene6", "lucene7-index", "lucene7-index-aa"]


def _claims(root: Path, study: str, verdicts: list[str]) -> None:
    write_json(root / "results" / study / "claims.json",
               {"verdicts": [{"claim": f"c-{i}", "version": "1.0.0", "verdict": v, "parts": [dict(SIDES)]}
                             for i, v in enumerate(verdicts)]})


def test_spent_counts_rounds_and_sums_fork_seconds(tmp_path):
    root = _cfg(tmp_path).root
    for r in range(3):
        _fork(root, "dvjump", r, "a", 4.0)
        _fork(root, "dvjump", r, "b", 1.0)
    assert budget.spent(root, "dvjump") == budget.Spent(3, 15.0)


@pytest.mark.parametrize("verdicts, rounds, seconds, expected", [
    (["holds", "inconclusive"], 3, 5.0, 4),       # undecided, room for one more round of ~5 s
    (["holds", "biased"], 3, 5.0, None),        # a bias needs a fix to the apparatus, not more rounds
    (["holds", "underpowered"], 3, 5.0, 4),
    (["holds", "fails", "unconverged"], 3, 5.0, None),  # more rounds do not converge a warm-up
    (["holds", "inconclusive"], 5, 5.0, None),    # at max_rounds
    (["holds", "inconclusive"], 3, 20.0, None),   # another round of 20 s would pass the minute
])
def test_next_round(tmp_path, verdicts, rounds, seconds, expected):
    cfg = _cfg(tmp_path)
    for r in range(rounds):
        _fork(cfg.root, "dvjump", r, "a", seconds)
    _claims(cfg.root, "dvjump", verdicts)
    got = budget.next_round(cfg, "dvjump")
    assert (got and got.rounds) == expected
    if got:
        assert got.contenders == ROUND


def test_a_round_runs_only_the_undecided_cells_contenders_and_is_priced_at_their_forks(tmp_path):
    # Three rounds of a 4 s fork of a cell's contender and a 12 s one of a decided cell's: 48 s of the minute. A whole
    # round more (16 s) would pass the minute; a round of the undecided cell's contenders (4 s) fits.
    cfg = _cfg(tmp_path)
    for r in range(3):
        _fork(cfg.root, "dvjump", r, "lucene10", 4.0, "lucene10")
        _fork(cfg.root, "dvjump", r, "lucene9", 12.0, "lucene9")
    _claims(cfg.root, "dvjump", ["holds", "inconclusive"])
    assert budget.spent(cfg.root, "dvjump").by_contender == {"lucene10": 4.0, "lucene9": 12.0}
    assert budget.next_round(cfg, "dvjump") == budget.Round(4, ROUND)
    _fork(cfg.root, "dvjump", 0, "lucene8", 30.0)  # a timing that does not say whose it was: priced as a whole round
    assert budget.spent(cfg.root, "dvjump").by_contender is None
    assert budget.next_round(cfg, "dvjump") is None


def test_a_study_without_a_budget_runs_its_rounds_and_stops(tmp_path):
    cfg = _cfg(tmp_path, scale="smoke")  # the smoke scale has no budgets
    assert cfg.budget("dvjump") is None
    _fork(cfg.root, "dvjump", 0, "a", 1.0)
    _claims(cfg.root, "dvjump", ["inconclusive"])
    assert budget.next_round(cfg, "dvjump") is None


def test_the_loop_adds_rounds_until_decided_then_builds_the_rest(tmp_path, monkeypatch):
    argv = ["--config", f"outdir={tmp_path}", "studies=[dvjump]",
            "budgets={default: {dvjump: {max_rounds: 5, minutes: 1}}}"]
    calls = []

    def fake_snakemake(args, targets):
        cfg = config.from_snakemake_args(args)
        calls.append((cfg.study("dvjump")["rounds"], targets))
        for r in range(cfg.study("dvjump")["rounds"]):
            _fork(cfg.root, "dvjump", r, "a", 2.0)
        # Decided once four rounds are in.
        _claims(cfg.root, "dvjump", ["holds", "inconclusive" if cfg.study("dvjump")["rounds"] < 4 else "fails"])

    monkeypatch.setattr(budget, "snakemake", fake_snakemake)
    monkeypatch.setattr(budget.plan, "dry_run_jobs", lambda args: [("dvjump_run", {})])
    assert budget.main(argv) == 0
    base = config.from_snakemake_args(argv).study("dvjump")["rounds"]
    assert [c[0] for c in calls] == [*range(base, 5), 4]
    assert calls[0][1] == [str(tmp_path / "default" / "results" / "dvjump" / "claims.json")]
    assert calls[-1][1] == []  # the whole pipeline, the paper included
    assert yaml.safe_load((tmp_path / "default" / "budget" / "rounds.yaml").read_text()) == {
        "dvjump": {"rounds": 4, "budget_contenders": {str(r): ROUND for r in range(base, 4)}}}


def _budgeted(tmp_path: Path, monkeypatch, verdicts: list[str], jobs: tuple = ()) -> tuple[list[str], list, list]:
    """A dvjump run of 4 rounds, the budget's rounds file raising its rounds to 4 (the config's being fewer), claims
    of ``verdicts``, and a dry run that lists ``jobs``; returns the argv, the dry runs' options and the rounds of
    each Snakemake call."""
    argv = ["--config", f"outdir={tmp_path}", "studies=[dvjump]",
            "budgets={default: {dvjump: {max_rounds: 5, minutes: 1}}}"]
    cfg = config.from_snakemake_args(argv)
    assert cfg.study("dvjump")["rounds"] < 4
    for r in range(4):
        _fork(cfg.root, "dvjump", r, "a", 2.0)
    _claims(cfg.root, "dvjump", verdicts)
    budget.write_rounds(budget.rounds_file(cfg), {"dvjump": {"rounds": 4, "budget_contenders": {"3": ROUND}}})
    dry_runs, calls = [], []
    monkeypatch.setattr(budget.plan, "dry_run_jobs", lambda args: dry_runs.append(args) or list(jobs))

    def fake_snakemake(args, targets):  # runs the rounds it is given; five decide
        rounds = config.from_snakemake_args(args).study("dvjump")["rounds"]
        calls.append(rounds)
        for r in range(rounds):
            _fork(cfg.root, "dvjump", r, "a", 2.0)
        _claims(cfg.root, "dvjump", ["holds", "fails" if rounds == 5 else "inconclusive"])

    monkeypatch.setattr(budget, "snakemake", fake_snakemake)
    return argv, dry_runs, calls


def test_a_finished_run_has_nothing_to_do_at_the_rounds_the_budget_added(tmp_path, monkeypatch, capsys):
    """The one dry run sees the rounds file the loop would run with (without it, the config's fewer rounds would
    look like work, or hide it); no job and no round to add: nothing to do, said with the paper's path."""
    argv, dry_runs, calls = _budgeted(tmp_path, monkeypatch, ["holds", "fails"])
    assert budget.main(argv) == 0
    (options,) = dry_runs
    assert config.from_snakemake_args(options).study("dvjump")["rounds"] == 4
    assert calls == []
    pdf = (tmp_path / "default" / "paper" / "lucene-revisited.pdf").resolve()
    assert capsys.readouterr().out == f"paper: nothing to do, every output is up to date: {pdf}\n"


def test_a_run_with_no_job_left_but_a_round_to_add_runs_it(tmp_path, monkeypatch, capsys):
    argv, _, calls = _budgeted(tmp_path, monkeypatch, ["holds", "inconclusive"])
    assert budget.main(argv) == 0
    assert calls == [4, 5, 5] and "nothing to do" not in capsys.readouterr().out  # claims, round 5, the rest
    assert yaml.safe_load((tmp_path / "default" / "budget" / "rounds.yaml").read_text()) == {
        "dvjump": {"rounds": 5, "budget_contenders": {"3": ROUND, "4": ROUND}}}


def test_a_dry_run_shows_snakemakes_dry_run_once_and_adds_no_round(tmp_path, monkeypatch, capsys):
    """A dry run measures nothing, so the loop could never see the round it adds (and would add it forever): it
    shows Snakemake's dry run of the whole pipeline once and writes nothing."""
    argv, _, calls = _budgeted(tmp_path, monkeypatch, ["holds", "inconclusive"], jobs=(("dvjump_run", {}),))
    rounds = tmp_path / "default" / "budget" / "rounds.yaml"
    before = rounds.read_text()
    assert budget.main([*argv, "--dry-run"]) == 0
    assert calls == [4] and rounds.read_text() == before
    assert capsys.readouterr().out.startswith("paper: dry run, nothing was built")


def test_the_targets_survive_config_values_on_the_command_line():
    from snakemake.cli import get_argument_parser
    argv = ["--cores", "2", "--config", "scale=paper", "--config", "studies=[dvjump]"]
    args = get_argument_parser().parse_args(budget.command(argv, ["runs/paper/results/dvjump/claims.json"])[3:])
    assert args.targets == ["runs/paper/results/dvjump/claims.json"]
    assert args.config == ["scale=paper", "studies=[dvjump]"]
    assert args.cores == 2


@pytest.mark.parametrize("budgets, key", [
    ({"dvjump": {"max_rounds": 5, "minutes": 0}}, "budgets.default.dvjump.minutes"),
    ({"dvjump": {"max_rounds": 5, "minutes": -2}}, "budgets.default.dvjump.minutes"),
    ({"dvjump": {"max_rounds": 2, "minutes": 3}}, "budgets.default.dvjump.max_rounds"),
    ({"nope": {"max_rounds": 5, "minutes": 3}}, "budgets.default.nope"),
])
def test_a_bad_budget_is_a_config_error_naming_the_key(tmp_path, budgets, key):
    with pytest.raises(config.ConfigError, match=key.replace(".", r"\.")):
        _cfg(tmp_path, budgets=budgets)


def test_fewer_max_rounds_than_the_study_runs_anyway_is_an_error(tmp_path):
    with pytest.raises(config.ConfigError, match=r"budgets\.default\.dvjump\.max_rounds.*fewer than the 4"):
        _cfg(tmp_path, budgets={"dvjump": {"max_rounds": 3, "minutes": 3}}, dvjump={"rounds": 4})


def _part(value: float, s: float, n: int, direction: str = "greater", claimed: float = 1.5, **extra) -> dict:
    """A part whose 95% t interval over ``n`` rounds has per-round log spread ``s`` around ``value``."""
    half = scipy.stats.t.ppf(0.975, n - 1) * s / math.sqrt(n)
    return {**SIDES, "value": value, "low": value * math.exp(-half), "high": value * math.exp(half), "n": n,
            "confidence": 0.95, "direction": direction, "claimed": claimed, "band": None, "verdict": "inconclusive",
            **extra}


def test_a_part_is_projected_to_the_rounds_at_which_its_interval_would_decide():
    # 2.0 against 1.5: log margin 0.288; t(m-1) 0.3 / sqrt(m) is 0.315 at 6 rounds and 0.278 at 7.
    part = _part(2.0, 0.3, 3)
    assert claims.rounds_to_decide(part, "greater", 1.5, None, 0.95, 0.95, 7) == 7
    assert claims.rounds_to_decide(part, "greater", 1.5, None, 0.95, 0.95, 6) is None
    # A stricter confidence needs more rounds; an estimate on its threshold, or without an interval, none ever.
    assert claims.rounds_to_decide(part, "greater", 1.5, None, 0.95, 0.99, 7) is None
    assert claims.rounds_to_decide(_part(1.5, 0.3, 3), "greater", 1.5, None, 0.95, 0.95, 50) is None
    assert claims.rounds_to_decide({**part, "low": None}, "greater", 1.5, None, 0.95, 0.95, 50) is None
    # Inside a band, the nearer edge decides (log margin 0.105 from 1.8 to 2.0, 0.588 from 1.0).
    assert claims.margin(1.8, "approx", 1.5, [1.0, 2.0]) == pytest.approx(math.log(2.0 / 1.8))
    assert claims.margin(2.5, "approx", 1.5, [1.0, 2.0]) == pytest.approx(math.log(2.5 / 2.0))
    # An interval symmetric on its own scale (a share) is projected on it: 0.5 +- 0.2 over 3 rounds against 0.35.
    share = {"value": 0.5, "low": 0.3, "high": 0.7, "n": 3}
    spread = 0.2 * math.sqrt(3) / scipy.stats.t.ppf(0.975, 2)
    want = next(m for m in range(3, 100) if scipy.stats.t.ppf(0.975, m - 1) * spread / math.sqrt(m) < 0.15)
    assert claims.rounds_to_decide(share, "greater", 0.35, None, 0.95, 0.95, 100) == want > 3


def _rows(root: Path, rows: list[dict], confidence: float = 0.95) -> Path:
    path = root / "results" / "dvjump" / "claims.json"
    write_json(path, {"confidence": confidence, "verdicts": rows})
    return path


def test_a_round_goes_only_to_cells_it_could_decide(tmp_path):
    near = {"claim": "near", "version": "1.0.0", "verdict": "inconclusive", "parts": [_part(2.0, 0.3, 3)]}
    far = {"claim": "far", "version": "1.0.0", "verdict": "inconclusive", "parts": [_part(1.6, 0.3, 3)]}
    path = _rows(tmp_path, [near, far])
    assert [r["claim"] for r in budget.undecided(path)] == ["near", "far"]
    assert [r["claim"] for r in budget.undecided(path, 7)] == ["near"]
    assert budget.undecided(path, 6) == []
    # A decided part of an open cell needs nothing; the open one decides the cell's reach.
    both = {**far, "parts": [{**_part(1.6, 0.3, 3), "verdict": "holds"}, _part(2.0, 0.3, 3)]}
    assert budget.undecided(_rows(tmp_path, [both]), 7) == [both]


def test_an_untestable_cell_goes_on_while_its_extrapolation_is_open(tmp_path):
    def cell(name: str, at_look: str | None, prediction: dict | None) -> dict:
        part = {**_part(1.0, 0.1, 3), "verdict": "untestable",
                "extrapolated": {"verdict": at_look, "prediction": prediction}}
        return {"claim": name, "version": "1.0.0", "verdict": "untestable", "at_look": "untestable",
                "at_look_extrapolated": at_look, "extrapolated": {"verdict": at_look}, "parts": [part]}

    prediction = {k: _part(2.0, 0.3, 3)[k] for k in ("value", "low", "high", "n")}
    open_, decided, none = cell("open", "inconclusive", prediction), cell("decided", "holds", prediction), \
        cell("none", None, None)
    path = _rows(tmp_path, [open_, decided, none])
    assert [r["claim"] for r in budget.undecided(path, 7)] == ["open"]
    # Its reach is its prediction's, not the measured part's (1.0 against 1.5, which would decide sooner).
    assert budget.undecided(path, 6) == []
