"""Report: a study's tables and pictures from its records: the summary (``summary``, ``stats``), the
effects and their corrections (``effects``, ``multiplicity``, ``adjustment``), skill ladders (``skill``,
``skill_plot``), the plots (``plots``), ``report.html`` (``html``) and the notebooks' helpers (``explore``)."""
