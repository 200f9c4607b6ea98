"""Rounds of forks: every job once per round, groups back to back, resumable, tasks found by convention."""
from __future__ import annotations

import re

import pytest

from lrev import fork, progress
from lrev.io import read_json


def _jobs(log):
    def job(name, group=""):
        return fork.Job(name, lambda r, out: (log.append((r, name)), (out / "done").write_text(name)), group)
    return [job("alone-a", "a"), job("plain-a", "a"), job("alone-b", "b"), job("plain-b", "b"), job("mixed")]


def test_every_round_runs_every_job_once_with_groups_back_to_back():
    jobs = _jobs([])
    orders = set()
    for r in range(8):
        names = [j.name for j in fork.order(jobs, r, seed=3)]
        assert sorted(names) == sorted(j.name for j in jobs)
        for group in ("a", "b"):
            at = [i for i, n in enumerate(names) if n.endswith(f"-{group}")]
            assert at[1] - at[0] == 1, names
        orders.add(tuple(names))
    assert len(orders) > 2, "the order must change from round to round"
    assert fork.order(jobs, 5, seed=3) == fork.order(jobs, 5, seed=3)


def test_a_killed_run_resumes_and_other_settings_start_over(tmp_path):
    log: list = []
    calls = {"n": 0}

    def flaky(r, out):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("killed")
        log.append((r, "x"))
        (out / "done").write_text("x")

    jobs = [fork.Job("x", flaky), fork.Job("y", lambda r, out: (log.append((r, "y")), (out / "done").write_text("y")))]
    with pytest.raises(RuntimeError):
        fork.run_rounds(jobs, 3, 1, tmp_path / "forks", "settings-1")
    finished = sorted(p.relative_to(tmp_path / "forks") for p in (tmp_path / "forks").glob("round-*/*"))
    assert all((tmp_path / "forks" / p / "done").is_file() for p in finished)  # no half-written job folder
    assert 0 < len(log) < 6
    fork.run_rounds(jobs, 3, 1, tmp_path / "forks", "settings-1")
    assert sorted(log) == sorted({(r, n) for r in range(3) for n in "xy"}), "each job once per round, none rerun"
    timings = [read_json(p / fork.TIMING)["seconds"] for p in (tmp_path / "forks").glob("round-*/*")]
    assert len(timings) == 6 and min(timings) >= 0, "every finished job records its wall time"
    fork.run_rounds(jobs, 3, 1, tmp_path / "forks", "settings-2")
    assert len(log) == 12, "outputs of other settings are discarded and rerun"


def test_a_job_that_ends_after_the_process_that_started_the_run_died_is_not_kept(tmp_path, monkeypatch):
    """A run killed outright leaves its notebook's kernel alive for up to a second; a job ending in it is dropped."""
    def killed_meanwhile(r, out):
        (out / "done").write_text("x")
        monkeypatch.setattr(fork, "_STARTED_BY", -1)  # as if this process's parent had died while the job ran

    with pytest.raises(fork.ForkError, match="after the run that started it was killed"):
        fork.run_rounds([fork.Job("x", killed_meanwhile)], 1, 1, tmp_path / "forks", "s")
    assert not list((tmp_path / "forks").glob("round-*/*")), "nothing of the job was kept"


def test_more_rounds_measure_only_the_new_ones_and_fewer_drop_the_rest(tmp_path):
    log: list = []
    jobs = _jobs(log)
    settings = {"rounds": 2, "seed": 7}
    fork.run_rounds(jobs, 2, 1, tmp_path / "forks", fork.fingerprint(settings, []))
    three = fork.fingerprint({**settings, "rounds": 3}, [])
    assert three == fork.fingerprint(settings, []) != fork.fingerprint({**settings, "seed": 8}, [])
    fork.run_rounds(jobs, 3, 1, tmp_path / "forks", three)
    assert sorted(log[10:]) == sorted((2, j.name) for j in jobs), "rounds 0 and 1 kept, round 2 measured"
    fork.run_rounds(jobs, 1, 1, tmp_path / "forks", fork.fingerprint({**settings, "rounds": 1}, []))
    assert len(log) == 15 and [p.name for p in (tmp_path / "forks").glob("round-*")] == ["round-0"]


def test_a_changed_file_changes_the_fingerprint(tmp_path):
    code = tmp_path / "task.py"
    code.write_text("a")
    before = fork.fingerprint({}, [code])
    code.write_text("b")
    assert fork.fingerprint({}, [code]) != before


def test_tasks_are_found_by_convention():
    from lrev.pk import tasks

    assert fork.task_function("pk.measure") is tasks.measure
    with pytest.raises(KeyError, match="nosuch"):
        fork.task_function("pk.nosuch")
    with pytest.raises(KeyError, match="lrev.zz.tasks"):
        fork.task_function("zz.measure")


def test_job_names_must_be_unique(tmp_path):
    job = fork.Job("x", lambda r, out: None)
    with pytest.raises(ValueError, match="unique"):
        fork.run_rounds([job, job], 1, 1, tmp_path, "s")


def test_a_job_limited_to_the_first_rounds_runs_only_in_those(tmp_path):
    log: list = []

    def job(name, rounds=None):
        return fork.Job(name, lambda r, out: (log.append((r, name)), (out / "done").write_text(name)), rounds=rounds)

    out = fork.run_rounds([job("alone"), job("mixed", rounds=2)], 4, 1, tmp_path / "forks", "s")
    assert sorted(log) == sorted([(r, "alone") for r in range(4)] + [(0, "mixed"), (1, "mixed")])
    assert not (out / "round-2" / "mixed").exists()


def test_a_round_the_budget_added_for_some_contenders_runs_only_theirs_and_records_whose_forks_they_were(tmp_path):
    log: list = []

    def job(name, contender):
        return fork.Job(name, lambda r, out: (log.append((r, name)), (out / "done").write_text(name)),
                        contender=contender)

    jobs = [job("alone-a", "a"), job("alone-b", "b"), job("mixed", None)]
    only = fork.partial_rounds({"budget_contenders": {"2": ["b"]}})
    assert only == {2: {"b"}}
    out = fork.run_rounds(jobs, 3, 1, tmp_path / "forks", "s", only=only)
    assert sorted(log) == sorted([(r, n) for r in range(2) for n in ("alone-a", "alone-b", "mixed")] + [(2, "alone-b")])
    assert sorted(p.name for p in (out / "round-2").iterdir()) == ["alone-b"]
    assert read_json(out / "round-2" / "alone-b" / fork.TIMING)["contender"] == "b"
    # The budget's rounds are not settings a fork was made with: a run with them resumes a run without.
    assert fork.fingerprint({"x": 1, "rounds": 3, "budget_contenders": {"2": ["b"]}}, []) == fork.fingerprint(
        {"x": 1, "rounds": 2}, [])


def test_a_check_after_each_round_that_raises_stops_the_run_there(tmp_path):
    log: list = []
    checked: list = []
    job = fork.Job("only", lambda r, out: (log.append(r), (out / "done").write_text(str(r))))

    def check(out):
        checked.append(sorted(p.name for p in out.glob("round-*")))
        if len(checked) == 2:
            raise ValueError("answers differ")

    with pytest.raises(ValueError, match="answers differ"):
        fork.run_rounds([job], 4, 1, tmp_path / "forks", "s", after_round=check)
    assert log == [0, 1]
    assert checked == [["round-0"], ["round-0", "round-1"]]


def test_progress_goes_to_the_terminal_and_the_log_with_an_eta(tmp_path, capfd):
    log: list = []
    jobs = _jobs(log)
    fork.run_rounds(jobs, 2, 1, tmp_path / "forks", "s", label="alpha 9.12.3")
    lines = (tmp_path / "forks" / progress.LOG).read_text().splitlines()
    assert len(lines) == 10
    assert re.search(r" alpha 9\.12\.3: fork 1/10, round 1/2, \S+ \d+\.\d s, elapsed \d+s, ETA \d+s$", lines[0])
    assert re.search(r"fork 10/10, round 2/2, .*, ETA 0s$", lines[-1])
    assert "alpha 9.12.3: 10/10 forks" in capfd.readouterr().err  # the process's own stderr, not sys.stderr's
    fork.run_rounds(jobs, 3, 1, tmp_path / "forks", "s", label="alpha 9.12.3")
    resumed = (tmp_path / "forks" / progress.LOG).read_text().splitlines()[10:]
    assert [("resumed" in line) for line in resumed] == [True] * 10 + [False] * 5


def test_eta_is_the_forks_left_times_their_mean_time(tmp_path):
    with progress.ForkProgress("x", 4, 2, tmp_path) as p:
        assert p.eta() is None
        p.finished(0, "a", 10.0, resumed=True)
        p.finished(0, "b", 20.0, resumed=False)
        assert p.eta() == 2 * 15.0
    assert progress.duration(75) == "1m15s" and progress.duration(None) == "?"


def test_before_the_first_fork_ends_the_eta_is_the_plans_then_the_forks_own(tmp_path, capfd):
    with progress.ForkProgress("x", 4, 2, tmp_path, expected=30.0) as p:
        assert p.eta() == 4 * 30.0
        p.starting(0, "a")
        assert "ETA 2m00s (plan)" in p.bar.postfix[0]
        p.finished(0, "a", 10.0, resumed=False)
        assert p.eta() == 3 * 10.0
    assert (tmp_path / progress.LOG).read_text().rstrip().endswith("ETA 30s")


def test_the_plans_fork_estimate_comes_from_forks_on_disk(tmp_path):
    """Two forks of a study at the default scale on disk: before any of this run's forks ends, the ETA per fork is
    the model's, what those forks spent beyond the loops their config sets (here the mean) plus the loops of the
    fork to come; with none on disk there is no estimate."""
    from lrev import config, plan
    settings = config.load({"scale": "default"}).study("join")
    loops = plan.hook("join").configured
    root = tmp_path / "default"
    assert plan.fork_seconds(root, "join", settings, ["10.6.0_block"]) is None
    on_disk = {"10.6.0_block": 20.0, "10.6.0_scan": 30.0}
    for name, seconds in on_disk.items():
        (root / "results" / "join" / "forks" / "round-0" / name).mkdir(parents=True)
        (root / "results" / "join" / "forks" / "round-0" / name / fork.TIMING).write_text(f'{{"seconds": {seconds}}}')
    rest = sum(seconds - loops(settings, name) for name, seconds in on_disk.items()) / len(on_disk)
    assert rest > 0
    assert plan.fork_seconds(root, "join", settings, ["10.6.0_block"]) == pytest.approx(
        rest + loops(settings, "10.6.0_block"))


def test_a_forks_output_goes_to_its_log_and_a_failure_quotes_it(tmp_path, capfd):
    """Nothing a fork prints reaches the terminal (one progress line per study does); when it fails, the error
    quotes the end of its log, whatever made it fail (here a payload the task does not take, or an engine not
    built)."""
    with pytest.raises(fork.ForkError) as err:
        fork.run("pk.measure", "10.6.0", {"no_such_argument": 1}, tmp_path)
    log = tmp_path / fork.FORK_LOG
    assert "Traceback" in log.read_text()
    assert str(log) in str(err.value) and "exited with status 1" in str(err.value)
    assert log.read_text()[-200:] in str(err.value)
    assert "Traceback" not in capfd.readouterr().err
