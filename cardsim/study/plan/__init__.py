"""Plan: a study file read into a ``Study`` (``spec``), its sweep or factorial expanded (``design``) and a
ladder's seatings (``seatings``): what runs, before anything runs."""
