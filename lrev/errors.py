"""The error a bad config or input stops with. Its own module so that :mod:`lrev.config` and the study plug-ins
(:mod:`lrev.studies`), which each call the other, share it without importing one another."""


class ConfigError(ValueError):
    """A configuration problem, stated with the key path it concerns."""
