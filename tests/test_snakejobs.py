"""The job list comes from Snakemake's structured job records, not from the dry run's printed text."""
import pytest

from lrev import config, snakejobs


def smoke(tmp_path, *options):
    return config.snakemake_argv(["--config", "scale=smoke", f"outdir={tmp_path}", *options])


def test_every_job_of_a_study_is_listed_with_its_wildcards_and_nothing_is_written(tmp_path, capsys):
    # --forceall: the engines may be built already (./run test builds them first), and then have no job.
    jobs = snakejobs.jobs(["--forceall", *smoke(tmp_path, "studies=[pk]")], config.REPO)
    rules = [rule for rule, _ in jobs]
    versions = config.load({"scale": "smoke", "studies": ["pk"]}).study("pk")["versions"]
    assert rules.count("paper") == 1 and rules.count("pk_run") == rules.count("engine") == len(versions)
    for rule in ("pk_run", "engine"):
        assert sorted(w["version"] for r, w in jobs if r == rule) == sorted(versions)
    assert all(w["study"] == "pk" for rule, w in jobs if rule == "engine")
    assert list(tmp_path.iterdir()) == []
    assert capsys.readouterr().out == ""  # the dry run's own listing is not printed


def test_two_calls_list_the_same_jobs_in_the_same_order(tmp_path):
    argv = smoke(tmp_path, "studies=[dvjump]")
    assert snakejobs.jobs(argv, config.REPO) == snakejobs.jobs(argv, config.REPO)


def test_a_config_error_is_raised_naming_the_key(tmp_path):
    with pytest.raises(snakejobs.SnakemakeError, match="config error at 'scale'"):
        snakejobs.jobs(config.snakemake_argv(["--config", "scale=huge", f"outdir={tmp_path}"]), config.REPO)


def test_a_target_no_rule_makes_is_raised_with_snakemakes_message(tmp_path):
    with pytest.raises(snakejobs.SnakemakeError, match="no-such-target"):
        snakejobs.jobs([str(tmp_path / "no-such-target"), *smoke(tmp_path)], config.REPO)
