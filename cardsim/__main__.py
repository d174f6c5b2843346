"""``python -m cardsim``: the command line, as the ``cardsim`` script runs it."""
from cardsim.cli import main

raise SystemExit(main())
