"""The events of a Moska game in progress (``reference.State.log``) as the replay's texts, for tests."""
from cardsim.games.moska.events import BOOK


def said(s) -> list[str]:
    """The text of every event so far (``Replay`` numbers the decisions; these do not)."""
    return [BOOK.text(row) for row in BOOK.rows(s.log)]


def last(s) -> str:
    """The text of the latest event."""
    return BOOK.text(BOOK.rows(s.log[-1:])[0])


def last_action(s) -> str:
    return s.log[-1][2]
