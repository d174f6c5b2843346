"""Sweeps and factorials: a study's variants generated from knob values.

A ``[sweep]`` table varies one knob of a base rules over listed values; a
``[factorial]`` table crosses several knobs, every combination of their values a
variant. Variant names are the knob values in the file's order, e.g.
``attack_cap=3,continuation=attack_and_kill`` (``None`` spelled ``None``, booleans
``True``/``False``, strings without quotes). The base is the baseline: each knob's
*reference level* is the base's value, added as the first level when the file does
not list it. A combination that cannot be played (a cross-knob rule of the game, or a
player count of the study) is refused by name, or left out with
``skip_unplayable = true`` (the left-out names are kept in ``Design.skipped``).

File format (TOML; ``base`` defaults to the game's default preset and may be a string
form such as ``"turamoska(attack_cap=None)"``; the string ``"None"`` spells ``None``)::

    [sweep]
    base = "moska"
    knob = "attack_cap"
    values = [1, 2, 3, 4, 5, 6, "None"]

    [factorial]
    base = "moska"
    skip_unplayable = false
    [factorial.knobs]
    attack_cap = [1, 2, 3, 4, 5, 6, "None"]
    continuation = ["attack", "attack_and_kill"]

Pure: a table in, named rules and the design out; nothing runs or is written.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from cardsim.core.game import GameSpec
from cardsim.core.rules import Rules

KINDS = ("sweep", "factorial")
KEYS = {"sweep": ("base", "knob", "values", "skip_unplayable"), "factorial": ("base", "knobs", "skip_unplayable")}
NONE = "None"
"""How a study file spells ``None`` (TOML has no null)."""


class DesignError(ValueError):
    """A sweep or factorial that cannot be expanded: ``key`` (e.g. ``sweep.values[2]``) and a message."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key, self.message = key, message


@dataclass(frozen=True)
class Design:
    """Which knob levels each variant of a sweep or factorial has.

    ``levels``: knob -> its level labels in order (file order, the reference first when
    it was added); ``reference``: knob -> the base's level; ``cells``: variant -> its
    level of every knob (in ``levels``'s knob order); ``skipped``: unplayable
    combinations left out; ``table``: the file's table, normalised (the manifest's form).
    """

    kind: str
    base: str
    levels: dict[str, tuple[str, ...]]
    reference: dict[str, str]
    cells: dict[str, tuple[str, ...]]
    skipped: tuple[str, ...]
    table: dict[str, Any]

    @property
    def knobs(self) -> tuple[str, ...]:
        return tuple(self.levels)

    @property
    def baseline(self) -> str:
        """The variant of the reference levels: the base itself."""
        return variant_name(self.knobs, tuple(self.reference[k] for k in self.knobs))


def label(value: Any) -> str:
    """A knob value as a level label and in variant names: ``None``, ``True``, ``3``, ``attack``."""
    return NONE if value is None else str(value)


def variant_name(knobs: tuple[str, ...], levels: tuple[str, ...]) -> str:
    """``knob=level`` joined by commas, in the design's knob order."""
    return ",".join(f"{k}={v}" for k, v in zip(knobs, levels))


def expand(kind: str, table: object, g: GameSpec, players: tuple[int, ...]) -> tuple[dict[str, Rules], Design]:
    """The variants (name -> rules, in the order of the combinations) and the design of a ``[sweep]`` or
    ``[factorial]`` table of game ``g`` played by ``players``; ``DesignError`` when it cannot be."""
    if kind not in KINDS:
        raise DesignError(kind, f"expected one of {', '.join(KINDS)}")
    if not isinstance(table, dict):
        raise DesignError(kind, f"expected a table, not {table!r}")
    unknown = [k for k in table if k not in KEYS[kind]]
    if unknown:
        raise DesignError(f"{kind}.{unknown[0]}", f"unknown key; allowed keys: {', '.join(KEYS[kind])}")
    base_text = table.get("base", g.rules.DEFAULT_PRESET)
    if not isinstance(base_text, str):
        raise DesignError(f"{kind}.base", f"expected a preset or string form, not {base_text!r}")
    base = _rules(f"{kind}.base", g.rules.parse, base_text)
    skip = table.get("skip_unplayable", False)
    if not isinstance(skip, bool):
        raise DesignError(f"{kind}.skip_unplayable", f"expected true or false, not {skip!r}")
    if kind == "sweep":
        for key in ("knob", "values"):
            if key not in table:
                raise DesignError(f"sweep.{key}", "missing; a sweep needs knob and values")
        if not isinstance(table["knob"], str):
            raise DesignError("sweep.knob", f"expected a knob name, not {table['knob']!r}")
        knobs = {table["knob"]: ("sweep.values", table["values"])}
    else:
        if "knobs" not in table:
            raise DesignError("factorial.knobs", "missing; a factorial needs a table of knob = [values]")
        if not isinstance(table["knobs"], dict) or not table["knobs"]:
            raise DesignError("factorial.knobs", f"expected a table of knob = [values], not {table['knobs']!r}")
        knobs = {k: (f"factorial.knobs.{k}", v) for k, v in table["knobs"].items()}
    values = {k: _values(g.rules, base, k, key, v) for k, (key, v) in knobs.items()}
    levels = {k: tuple(label(x) for x in v) for k, v in values.items()}
    reference = {k: label(getattr(base, k)) for k in values}
    variants, cells, skipped = {}, {}, []
    for combination in itertools.product(*values.values()):
        name = variant_name(tuple(values), tuple(label(x) for x in combination))
        try:
            rules = base.replace(**dict(zip(values, combination)))
            for n in players:
                g.check_players(rules, n)
        except ValueError as err:
            if skip:
                skipped.append(name)
                continue
            raise DesignError(kind, f"the combination {name} cannot be played ({err}); "
                                    "skip_unplayable = true leaves such combinations out") from None
        variants[name], cells[name] = rules, tuple(label(x) for x in combination)
    design = Design(kind, base_text, levels, reference, cells, tuple(skipped), _normal_table(kind, table, base_text,
                                                                                               skip))
    if design.baseline not in variants:
        raise DesignError(kind, f"the base {base_text} ({design.baseline}) cannot be played, and it is the baseline")
    return variants, design


def _rules(key: str, make, *args: Any) -> Rules:
    try:
        return make(*args)
    except (ValueError, TypeError) as err:
        raise DesignError(key, str(err)) from None


def _values(cls: type[Rules], base: Rules, knob: str, key: str, listed: object) -> list[Any]:
    """The checked values of ``knob``, the base's value first when the file leaves it out."""
    if knob not in cls.knobs():
        raise DesignError(key, f"unknown {cls.GAME} knob {knob!r}; known knobs: {', '.join(cls.knobs())}")
    if not isinstance(listed, list) or not listed:
        raise DesignError(key, f"expected a non-empty list of values, not {listed!r}")
    values = [None if v == NONE else v for v in listed]
    for i, v in enumerate(values):
        spec = cls.knobs()[knob]
        if not spec.accepts(v):
            raise DesignError(f"{key}[{i}]", f"{cls.GAME} knob {knob}={listed[i]!r} is invalid: "
                                             f"expected {spec.expectation()}")
    labels = [label(v) for v in values]
    repeated = next((x for i, x in enumerate(labels) if x in labels[:i]), None)
    if repeated is not None:
        raise DesignError(key, f"the value {repeated} is listed twice")
    own = getattr(base, knob)
    return values if label(own) in labels else [own, *values]


def _normal_table(kind: str, table: dict[str, Any], base: str, skip: bool) -> dict[str, Any]:
    """The table as the manifest keeps it: every key present; a factorial's knobs as a list of
    ``[knob, values]`` pairs, in the file's order (a JSON object's keys would be sorted)."""
    out = {"base": base, "skip_unplayable": skip}
    if kind == "sweep":
        return out | {"knob": table["knob"], "values": list(table["values"])}
    return out | {"knobs": [[k, list(v)] for k, v in table["knobs"].items()]}


def from_manifest(table: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The kind and the file's table of a manifest's ``design`` (``_normal_table`` plus ``kind``)."""
    table = dict(table)
    kind = table.pop("kind", None)
    knobs = table.get("knobs")
    if isinstance(knobs, list) and all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in knobs):
        table["knobs"] = dict(knobs)
    return kind, table
