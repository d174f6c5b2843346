"""The study layer: run variant comparisons from a TOML study file, write and re-check results.

``spec`` reads study files, ``runner`` plays the games, ``stats`` summarises them,
``plots`` draws them, ``storage`` owns the folder, ``commands`` ties them together.
"""
from cardsim.study.commands import report_study, run_study, verify_study
from cardsim.study.spec import Study, StudyError, load

__all__ = ["Study", "StudyError", "load", "report_study", "run_study", "verify_study"]
