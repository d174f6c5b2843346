"""Ladder: how strong each policy is, from games where the policies share a table: its tables
(``tables``), ratings (``rating``), files (``files``), figure (``plot``) and ``cardsim ladder`` (``run``)."""
