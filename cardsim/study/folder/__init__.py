"""Folder: where a study folder lives and how a new study replaces it (``place``, ``lock``), the
records of a run in progress (``pieces``), the folder's files (``storage``) and what it claims
(``manifest``)."""
