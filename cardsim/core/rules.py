"""Rules objects: a frozen dataclass of knobs, named presets, validation, round trips.

Each game declares ``class <Game>Rules(Rules)`` with one ``knob(...)`` field per knob
of ``docs/rules/<game>.md`` and a ``PRESETS`` table of overrides. Everything else —
validation at construction, ``preset``/``replace``/``to_dict``/``from_dict``, the string
form ``"turamoska(attack_cap=None)"`` — lives here, once. So does the call form that
rules and policies share (``parse_call``, ``format_call``, ``normal_call``, ``split_calls``):
``"greedy"``, ``"greedy()"`` and ``" greedy"`` are one policy, and one study cell.
"""
from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

import numpy as np


@dataclass(frozen=True)
class Knob:
    """What a knob accepts: a type, optionally a set of choices, bounds, or None."""

    type: type
    doc: str
    choices: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None
    allow_none: bool = False
    deck: bool = False
    """The knob changes the deck (its cards), so game i shuffles other cards: no paired comparison across it."""

    def expectation(self) -> str:
        if self.choices is not None:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.type is bool:
            text = "True or False"
        else:
            text = {int: "an integer", float: "a number"}.get(self.type, self.type.__name__)
            text += "" if self.minimum is None else f" >= {self.minimum}"
            text += "" if self.maximum is None else f" <= {self.maximum}"
        return text + (" or None" if self.allow_none else "")

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.allow_none
        if self.type is bool:
            ok = isinstance(value, bool)
        elif self.type is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif self.type is float:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, self.type)
        if not ok:
            return False
        if self.choices is not None and value not in self.choices:
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        return self.maximum is None or value <= self.maximum


def knob(default: Any, doc: str, *, choices: tuple | None = None, minimum: int | None = None,
         maximum: int | None = None, allow_none: bool = False, type: type | None = None, deck: bool = False) -> Any:
    """A rules field: its default (the seed's), a one-line doc and what it accepts; ``deck=True``
    for a knob that changes the cards of the deck (see ``Rules.same_deck``)."""
    kind = type or (default.__class__ if default is not None else int)
    spec = Knob(kind, doc, choices, minimum, maximum, allow_none, deck)
    return field(default=default, metadata={"knob": spec})


def _value(node: ast.expr) -> Any:
    """A parameter value: a Python literal, a bare name read as its string (``base=greedy``), or a call
    read as its text (``base=learned(model=moska_4p_g3)``), names joined by ``+`` as that text (``forbid=a+b``)."""
    if isinstance(node, ast.Call):
        return ast.unparse(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # forbid=stack+challenge: "stack+challenge"
        return f"{_value(node.left)}+{_value(node.right)}"
    return node.id if isinstance(node, ast.Name) else ast.literal_eval(node)


def parse_call(text: str) -> tuple[str, dict[str, Any]]:
    """``"name(k=v, ...)"`` → ``("name", {k: v})``; values are Python literals or bare names (strings),
    each name once."""
    if not isinstance(text, str):
        raise ValueError(f"expected a string NAME or NAME(knob=value, ...), not {text!r}")
    text = text.strip()
    try:
        node = ast.parse(text if "(" in text else text + "()", mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
            raise ValueError
        names = [kw.arg for kw in node.keywords]
        if None in names:
            raise ValueError
        kwargs = {kw.arg: _value(kw.value) for kw in node.keywords}
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise ValueError(f"cannot read {text!r}: expected NAME or NAME(knob=value, ...)") from None
    twice = next((k for i, k in enumerate(names) if k in names[:i]), None)
    if twice is not None:
        raise ValueError(f"cannot read {text!r}: {twice} is given twice")
    return node.func.id, kwargs


def format_call(name: str, kwargs: dict[str, Any]) -> str:
    """The string form of ``parse_call``'s result: ``name`` alone, or ``name(k=v, ...)`` in the given order."""
    return name + (f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})" if kwargs else "")


def normal_call(text: str) -> str:
    """The one spelling of a call: no spaces around, no empty ``()``, the parameters sorted by name.

    ``"greedy"``, ``"greedy()"`` and ``" greedy"`` all give ``"greedy"``;
    ``"greedy(challenge=0.5, bluff=0.1)"`` gives ``"greedy(bluff=0.1, challenge=0.5)"``.
    """
    name, kwargs = parse_call(text)
    return format_call(name, dict(sorted(kwargs.items())))


def split_calls(text: str) -> list[str]:
    """``"greedy(bluff=0.1, challenge=0.5),random"`` → ``["greedy(bluff=0.1, challenge=0.5)", "random"]``:
    split at the commas outside parentheses, brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


@dataclass(frozen=True)
class Rules:
    """Base of every game's rules: knobs are the dataclass fields."""

    GAME: ClassVar[str]
    PRESETS: ClassVar[dict[str, dict[str, Any]]]
    DEFAULT_PRESET: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A game's ``@dataclass`` would write the field-by-field __repr__; it leaves one the class already holds.
        super().__init_subclass__(**kwargs)
        cls.__repr__ = Rules.__repr__

    def __repr__(self) -> str:
        """The string form (``turamoska(attack_cap=None)``): what a notebook or a list of rules shows."""
        return self.describe()

    def __post_init__(self) -> None:
        for name, spec in self.knobs().items():
            value = getattr(self, name)
            if isinstance(value, np.generic):  # np.int64(3) is the knob value 3, as players=np.int64(4) is 4
                value = value.item()
                object.__setattr__(self, name, value)
            if not spec.accepts(value):
                raise ValueError(f"{self.GAME} knob {name}={value!r} is invalid: expected {spec.expectation()}")
        self.check()

    def check(self) -> None:
        """Cross-knob constraints of a game; raise ``ValueError`` naming the knob."""

    def check_players(self, players: int) -> None:
        """Raise ``ValueError`` when these rules cannot be played by ``players``."""

    @classmethod
    def knobs(cls) -> dict[str, Knob]:
        return {f.name: f.metadata["knob"] for f in dataclasses.fields(cls)}

    @classmethod
    def preset(cls, name: str) -> Self:
        if name not in cls.PRESETS:
            raise ValueError(f"unknown {cls.GAME} preset {name!r}; known presets: {', '.join(cls.PRESETS)}")
        return cls(**cls.PRESETS[name])

    @classmethod
    def presets(cls) -> dict[str, Self]:
        return {name: cls.preset(name) for name in cls.PRESETS}

    def replace(self, **knobs: Any) -> Self:
        self._check_names(knobs)
        return dataclasses.replace(self, **knobs)

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.knobs()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        cls._check_names(data)
        return cls(**data)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Rules from ``"preset"`` or ``"preset(knob=value, ...)"``."""
        name, knobs = parse_call(text)
        return cls.preset(name).replace(**knobs)

    @classmethod
    def _check_names(cls, knobs: dict[str, Any]) -> None:
        unknown = sorted(set(knobs) - set(cls.knobs()))
        if unknown:
            raise ValueError(f"unknown {cls.GAME} knob {unknown[0]!r}; known knobs: {', '.join(cls.knobs())}")

    def describe(self) -> str:
        """The string form: the nearest preset plus the knobs that differ from it."""
        best = min(self.PRESETS, key=lambda p: len(self._diff(self.preset(p))))
        diff = self._diff(self.preset(best))
        return best + (f"({', '.join(f'{k}={v!r}' for k, v in diff.items())})" if diff else "")

    def same_deck(self, other: Rules) -> bool:
        """Whether game i shuffles the same cards under both rules (the knobs marked ``deck`` agree):
        then its differences against ``other`` are paired, game by game."""
        return all(getattr(self, k) == getattr(other, k) for k, spec in self.knobs().items() if spec.deck)

    def _diff(self, other: Rules) -> dict[str, Any]:
        return {k: v for k, v in self.to_dict().items() if other.to_dict()[k] != v}
