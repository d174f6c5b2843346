"""Run: the planned tasks played into records (``runner``, ``execution``, ``workers``), stepped on to a
precision (``stepping``, ``precision``), the disk a run needs (``disk``) and how a stopped run ends
(``signals``)."""
