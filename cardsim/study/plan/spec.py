"""The study file: what a study is, read from TOML and validated before anything runs.

A study names one game, a seed, a number of games, player counts, policies, named
variants (a preset plus knob overrides) and the baseline variant the others are
compared with. ``load(path)`` reads and checks a TOML file (UTF-8, no byte-order
mark); ``Study.to_dict`` / ``Study.from_dict`` round-trip through the manifest. Every
problem is one ``StudyError`` line naming the file and the key. Policies are
checked in full here, parameters included, by playing game 0 of each on the
reference engine, and kept in their one spelling (``"greedy()"`` is ``"greedy"``), so
two spellings of a policy can never be two cells. This module writes nothing. TOML
has no null: the string ``"None"`` spells Python's ``None`` in a knob override
(``attack_cap = "None"``).

Example (the full format; only ``baseline``, ``engine`` and ``description`` may be left out)::

    name = "moska_variants"            # folder name under results/
    description = "Moska house rules"  # free text
    game = "moska"
    seed = 20261129                    # 0 .. 2**64 - 1
    games = 20000                      # per cell (variant x players x policy), < 2**63
    players = [2, 3, 4]                # or one integer
    policies = ["random", "greedy", ["greedy", "random", "random"]]  # a list = one per seat
    # your own player (docs/play.md): "package.module:name" or "path/to/file.py:name", with an
    # optional per-decision limit in seconds, e.g. ["greedy", "my_player.py:decide(timeout=2)"]
    baseline = "moska"                 # default: the first variant
    engine = "compiled"                # or "reference" ("vector", the former numpy engine, = "compiled")

    [variants.moska]
    preset = "moska"

    [variants.turamoska_nocap]
    preset = "turamoska"
    attack_cap = "None"                # knob overrides sit beside the preset

Instead of ``[variants.*]`` a study may hold one ``[sweep]`` (one knob over listed values)
or one ``[factorial]`` (every combination of several knobs' values): its variants are
generated and named from the knob values, and its base is the baseline (``design``;
no ``baseline`` key then)::

    [factorial]
    base = "moska"
    skip_unplayable = false            # true: leave out combinations that cannot be played
    [factorial.knobs]
    attack_cap = [1, 2, 3, 4, 5, 6, "None"]
    continuation = ["attack", "attack_and_kill"]

The manifest keeps the generated variants' rules in full and the design table
(``design``), which ``from_dict`` expands again and checks against them.

A **ladder** (``cardsim ladder``; ``cardsim.study.ladder.tables``, ``cardsim.study.plan.seatings``) is a
study of one variant at one player count whose policies are the seatings of a few
policies, given instead of ``policies`` (a manifest holds both, and they must agree)::

    [ladder]
    policies = ["random", "greedy"]    # two or more; the first is the ratings' anchor
    seatings = "pairs"                 # or "all"

The statistics of a study (``multiplicity``, ``replication``, ``skill``) take three optional keys::

    alpha = 0.05                       # the level findings must survive at (Holm), 0 < alpha < 1
    replicate = true                   # `cardsim run` also replicates the study on fresh deals

    [skill]                            # a skill ladder: every effect at every rung, on the same deals
    rungs = ["random", "greedy", "mc(determinizations=16)"]  # weakest first, two or more
    margin = 0.5                       # top two rungs agree within it: pp for rates, decisions for lengths

A ``[skill]`` study's policies are its rungs (self-play, in order); ``policies`` may then be
left out (a manifest holds both, and they must agree).

A **balance profile** (``cardsim profile``; ``cardsim.profile``) is a study whose policies are
made for it (``cardsim.profile.design.cells``) from a ``[profile]`` section instead of ``policies``::

    [profile]
    policy = "greedy"                  # the profiled player: the strongest affordable one
    ladder = ["random", "greedy"]      # optional; default random, greedy, then policy
    options = ["swap"]                 # optional; default every GameSpec.options entry
    replays = 200                      # optional; self-play games replayed for decisiveness
"""
from __future__ import annotations

import re
import tomllib
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, TypeVar

from cardsim import games as registry
from cardsim.api import engine_name
from cardsim.core.game import GAME_LIMIT, SEED_LIMIT, integer_expected
from cardsim.core.models import OtherRules
from cardsim.core.rules import Rules
from cardsim.learn import auto
from cardsim.play.base import STAND_IN
from cardsim.play.user import is_user_spec
from cardsim.profile import design as profiles
from cardsim.study.plan.design import KINDS, Design, DesignError, expand, from_manifest
from cardsim.study.plan.seatings import SEATINGS, seatings

NONE = "None"
"""How a study file spells ``None`` (TOML has no null)."""

REQUIRED = ("name", "game", "seed", "games", "players", "policies")
DESIGNS = ("variants", *KINDS)
"""A study holds exactly one of these: named variants, a sweep or a factorial."""
OPTIONAL = ("description", "baseline", "engine", "ladder", "alpha", "replicate", "skill", "profile")
ALPHA = 0.05
"""A study's level when its file states none (``alpha``)."""
MARGIN = 0.5
"""How close the top two rungs of a skill ladder must agree by default (``skill.margin``)."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")

T = TypeVar("T")
Policy = str | tuple[str, ...]
"""A policy entry: one name for every seat (self-play) or one name per seat."""


class StudyError(ValueError):
    """A study that cannot run; the message is one line naming file, key and what was expected."""

    def __init__(self, where: str, key: str | None, message: str) -> None:
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


class RunStopped(Exception):
    """A run or report stopped by Ctrl-C (``interrupted``) or an error of the system (a full disk, ...);
    the message is one line that says what was kept and how to go on."""

    def __init__(self, message: str, interrupted: bool) -> None:
        super().__init__(message)
        self.interrupted = interrupted


@dataclass(frozen=True)
class Cell:
    """One group of games: a variant at a player count under one seat assignment of policies."""

    variant: str
    players: int
    policy: str
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Ladder:
    """A ladder's design: its policies, in their one spelling (the first is the ratings' anchor),
    and how they are seated (``pairs`` or ``all``: ``seatings``)."""

    policies: tuple[str, ...]
    seatings: str = "pairs"


@dataclass(frozen=True)
class Skill:
    """A skill ladder's rungs (self-play policies in their one spelling, weakest first) and the
    margin within which its top two rungs agree (pp for seat rates, decisions for lengths)."""

    rungs: tuple[str, ...]
    margin: float = MARGIN


@dataclass(frozen=True)
class Study:
    name: str
    game: str
    seed: int
    games: int
    players: tuple[int, ...]
    policies: tuple[Policy, ...]
    variants: dict[str, Rules]
    baseline: str
    engine: str = "compiled"
    description: str = ""
    design: Design | None = None
    """The sweep or factorial that generated the variants (None: variants named in the file)."""
    ladder: Ladder | None = None
    """Set for a ladder: then ``policies`` are its seatings."""
    alpha: float = ALPHA
    """The level a finding must survive at after correction for many comparisons."""
    replicate: bool = False
    """Whether a run also replicates the study on fresh deals (``cardsim.study.replication``)."""
    skill: Skill | None = None
    """Set for a skill ladder: then ``policies`` are its rungs."""
    profile: profiles.Profile | None = None
    """Set for a balance profile: then ``policies`` are its cells (``cardsim.profile.design``)."""

    def cells(self) -> list[Cell]:
        """Every cell in file order: variant, then player count, then policy.

        A per-seat policy list joins only the player count of its length.
        """
        return [Cell(v, n, policy_label(p), seats)
                for v in self.variants for n in self.players for p in self.policies
                if (seats := seat_policies(p, n)) is not None]

    def with_games(self, games: int) -> Study:
        _check_int("command line", "--games", games, minimum=1, limit=GAME_LIMIT)
        return replace(self, games=games)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): every variant's rules in full, not just its overrides."""
        return {"name": self.name, "description": self.description, "game": self.game, "seed": self.seed,
                "games": self.games, "players": list(self.players),
                "policies": [p if isinstance(p, str) else list(p) for p in self.policies],
                "variants": {v: r.to_dict() for v, r in self.variants.items()},
                "baseline": self.baseline, "engine": self.engine,
                **({"design": {"kind": self.design.kind, **self.design.table}} if self.design else {}),
                **({"ladder": {"policies": list(self.ladder.policies), "seatings": self.ladder.seatings}}
                   if self.ladder else {}),
                **({"alpha": self.alpha} if self.alpha != ALPHA else {}),
                **({"replicate": True} if self.replicate else {}),
                **({"skill": {"rungs": list(self.skill.rungs), "margin": self.skill.margin}} if self.skill else {}),
                **({"profile": self.profile.to_dict()} if self.profile else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "manifest", played: bool = True) -> Study:
        """The study of ``to_dict`` (full rules per variant), checked like a study file; ``played=False``
        parses its policies without playing a game with each (a study read back to be drawn, whose run
        played them: a searching policy's check would compile its engine)."""
        return _build(where, _table(where, "study", data), full_rules=True, played=played)


def load(path: str | Path) -> Study:
    """Read and check a study file; any problem raises ``StudyError`` (one line)."""
    where = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise StudyError(where, None, "no such study file") from None
    except IsADirectoryError:
        raise StudyError(where, None, "a folder, not a study file") from None
    except OSError as err:
        raise StudyError(where, None, f"cannot read the study file ({err.strerror})") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raise StudyError(where, None, "starts with a byte-order mark; save it as UTF-8 without BOM (TOML)")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise StudyError(where, None, f"not UTF-8 (byte {err.start}: {raw[err.start:err.start + 1]!r}); "
                         "TOML files are UTF-8") from None
    except tomllib.TOMLDecodeError as err:
        raise StudyError(where, None, f"not valid TOML ({err})") from None
    except RecursionError:
        raise StudyError(where, None, "not valid TOML (nested too deeply)") from None
    return _build(where, data, full_rules=False)


def policy_label(policy: Policy) -> str:
    """The policy column of a cell: the name, or the seats' names joined by commas (seat 0 first)."""
    return policy if isinstance(policy, str) else ",".join(policy)


def seat_policies(policy: Policy, players: int) -> tuple[str, ...] | None:
    """One policy per seat, or None when a per-seat list is for another player count."""
    if isinstance(policy, str):
        return (policy,) * players
    return tuple(policy) if len(policy) == players else None


def _build(where: str, data: dict[str, Any], full_rules: bool, played: bool = True) -> Study:
    """The checked study; variants hold full rules (a manifest) or a preset plus overrides (a file)."""
    g = _game(where, data.get("game"))
    allowed = REQUIRED + DESIGNS + OPTIONAL if not full_rules else (*REQUIRED, "variants", *OPTIONAL, "design")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise StudyError(where, unknown[0], f"unknown key; allowed keys: {', '.join(allowed)}")
    for key in REQUIRED:
        if key not in data and not (key == "policies" and ("ladder" in data or "skill" in data or "profile" in data)):
            raise StudyError(where, key, "missing; a study needs " + ", ".join(REQUIRED)
                             + f" and one of {', '.join(DESIGNS)}")
    designs = [k for k in DESIGNS if k in data]
    if len(designs) != 1 or (full_rules and designs != ["variants"]):
        raise StudyError(where, designs[1] if len(designs) > 1 else "variants",
                         f"expected exactly one of {', '.join(DESIGNS)}" if not full_rules else "missing")
    name = data["name"]
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise StudyError(where, "name", f"expected a folder-safe name (letters, digits, _ . -), not {name!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise StudyError(where, "description", f"expected a string, not {description!r}")
    _check_int(where, "seed", data["seed"], minimum=0, limit=SEED_LIMIT)
    _check_int(where, "games", data["games"], minimum=1, limit=GAME_LIMIT)
    engine = _keyed(where, "engine", engine_name, data.get("engine", "compiled"))
    design = None
    if designs == ["variants"]:
        variants = {v: _variant(where, g.rules, v, _table(where, f"variants.{v}", t), full_rules)
                    for v, t in _table(where, "variants", data["variants"]).items()}
        if not variants:
            raise StudyError(where, "variants", "expected at least one variant")
        if full_rules and "design" in data:
            design = _design_of(where, g, data, variants)
            variants = {v: variants[v] for v in design.cells}  # the order of the combinations
        baseline = data.get("baseline", design.baseline if design else next(iter(variants)))
    else:
        if "baseline" in data:
            raise StudyError(where, "baseline", f"a {designs[0]}'s baseline is its base; leave baseline out")
        variants, design = _expand(where, g, designs[0], data[designs[0]], _player_counts(where, g, data["players"]))
        baseline = design.baseline
    if baseline not in variants:
        raise StudyError(where, "baseline", f"{baseline!r} is not a variant; variants: {', '.join(variants)}")
    players = _players(where, g, data["players"], variants)
    if "ladder" in data:
        ladder = _ladder(where, g, data["ladder"], players, variants)
        policies = tuple(seatings(ladder.policies, players[0], ladder.seatings))
        if "policies" in data and _seatings_given(where, g, data["policies"], players[0]) != policies:
            raise StudyError(where, "policies", f"not the {ladder.seatings} seatings of the ladder's policies "
                             f"{list(ladder.policies)} at {players[0]} players")
        if "skill" in data:
            raise StudyError(where, "skill", "a ladder has no skill rungs; give one of ladder and skill")
    else:
        ladder = None
    skill = None
    if "skill" in data and "profile" in data:
        raise StudyError(where, "profile", "a profile has its own ladder; give one of skill and profile")
    if "skill" in data:
        skill = _skill(where, g, data["skill"], players, variants[baseline], played)
        if ("policies" in data
                and _policies(where, g, data["policies"], players, variants[baseline], played) != skill.rungs):
            raise StudyError(where, "policies", f"not the skill rungs {list(skill.rungs)}; leave policies out")
        policies = skill.rungs
    elif "profile" in data:
        if ladder is not None:
            raise StudyError(where, "profile", "a ladder has no profile; give one of ladder and profile")
        profile = _profile(where, g, data["profile"], players, variants[baseline], played)
        policies = _policies(where, g, [p if isinstance(p, str) else list(p)
                                        for p in profiles.cells(profile, players)], players, variants[baseline],
                             played)
        if ("policies" in data
                and _policies(where, g, data["policies"], players, variants[baseline], played) != policies):
            raise StudyError(where, "policies", "not the profile's cells; leave policies out")
    elif ladder is None:
        policies = _policies(where, g, data["policies"], players, variants[baseline], played)
    alpha = data.get("alpha", ALPHA)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise StudyError(where, "alpha", f"expected a level between 0 and 1 (e.g. 0.05), not {alpha!r}")
    replicate = data.get("replicate", False)
    if not isinstance(replicate, bool):
        raise StudyError(where, "replicate", f"expected true or false, not {replicate!r}")
    return Study(name, g.name, data["seed"], data["games"], players, policies, variants, baseline, engine,
                 description, design, ladder, float(alpha), replicate, skill,
                 profile if "profile" in data else None)


def _profile(where: str, g, value: object, players: tuple[int, ...], rules: Rules,
             played: bool = True) -> profiles.Profile:
    """A ``[profile]`` section: the profiled policy, its ladder and options, each checked."""
    table = _table(where, "profile", value)
    unknown = [k for k in table if k not in profiles.KEYS]
    if unknown:
        raise StudyError(where, f"profile.{unknown[0]}", f"unknown key; a profile has {', '.join(profiles.KEYS)}")
    policy = table.get("policy", "greedy" if "greedy" in g.policies else g.policies[0])
    if not isinstance(policy, str):
        raise StudyError(where, "profile.policy", f"expected one policy name, not {policy!r}")
    (policy,) = _policies(where, g, [policy], players, rules, played)
    ladder = table.get("ladder")
    if ladder is not None and (not isinstance(ladder, list) or not all(isinstance(p, str) for p in ladder)):
        raise StudyError(where, "profile.ladder", f"expected a list of policy names, not {ladder!r}")
    ladder = _keyed(where, "profile.ladder", profiles.ladder_of, policy, ladder, g.policies)
    if len(ladder) < 2:
        raise StudyError(where, "profile.ladder", f"expected two or more distinct policies, not {list(ladder)}")
    options = table.get("options", list(g.options))
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise StudyError(where, "profile.options", f"expected a list of option names, not {options!r}")
    bad = [o for o in options if o not in g.options]
    if bad or len(set(options)) != len(options):
        raise StudyError(where, "profile.options", f"{bad[0] if bad else options!r}: expected distinct options of "
                         f"{g.name}: {', '.join(g.options) or '(the game lists none)'}")
    replays = table.get("replays", profiles.REPLAYS)
    _check_int(where, "profile.replays", replays, minimum=0, limit=GAME_LIMIT)
    return profiles.Profile(policy, ladder, tuple(options), replays)


def _skill(where: str, g, value: object, players: tuple[int, ...], rules: Rules, played: bool = True) -> Skill:
    """A skill ladder's rungs (each checked as a study policy: self-play, distinct) and its margin."""
    table = _table(where, "skill", value)
    unknown = [k for k in table if k not in ("rungs", "margin")]
    if unknown:
        raise StudyError(where, f"skill.{unknown[0]}", "unknown key; a skill ladder has rungs and margin")
    rungs = table.get("rungs")
    if not isinstance(rungs, list) or len(rungs) < 2 or not all(isinstance(p, str) for p in rungs):
        raise StudyError(where, "skill.rungs", f"expected a list of two or more policies, weakest first, not {rungs!r}")
    try:
        checked = _policies(where, g, rungs, players, rules, played)
    except StudyError as err:
        raise StudyError(where, "skill.rungs", str(err)[len(where) + 2:]) from None
    margin = table.get("margin", MARGIN)
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin > 0:
        raise StudyError(where, "skill.margin", f"expected a positive number (pp; decisions), not {margin!r}")
    return Skill(tuple(checked), float(margin))


def _expand(where: str, g, kind: str, table: object, players: tuple[int, ...]) -> tuple[dict[str, Rules], Design]:
    try:
        return expand(kind, table, g, players)
    except DesignError as err:
        raise StudyError(where, err.key, err.message) from None


def _design_of(where: str, g, data: dict[str, Any], variants: dict[str, Rules]) -> Design:
    """A manifest's design, expanded again: its variants must be the manifest's, rule for rule."""
    kind, table = from_manifest(_table(where, "design", data["design"]))
    expanded, design = _expand(f"{where}: design", g, kind, table, _player_counts(where, g, data["players"]))
    if expanded != variants:
        raise StudyError(where, "design", "its variants are not the study's variants")
    return design


def _player_counts(where: str, g, value: object) -> tuple[int, ...]:
    """The player counts, checked against the game's range (the variants are checked later)."""
    counts = _players(where, g, value, {})
    for n in counts:
        if not g.min_players <= n <= g.max_players:
            raise StudyError(where, "players", f"{g.name} is played by {g.min_players} to {g.max_players} players, "
                             f"not {n}")
    return counts


def _game(where: str, name: object):
    if not isinstance(name, str):
        raise StudyError(where, "game", f"expected one of {', '.join(registry.GAMES)}, not {name!r}")
    return _keyed(where, "game", registry.spec, name)


def _table(where: str, key: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise StudyError(where, key, f"expected a table, not {value!r}")
    return value


def _check_int(where: str, key: str, value: object, minimum: int, limit: int) -> None:
    expected = integer_expected(value, minimum, limit)
    if expected:
        raise StudyError(where, key, f"expected {expected}, not {value!r}")


def _variant(where: str, cls: type[Rules], name: str, table: dict[str, Any], full_rules: bool) -> Rules:
    key = f"variants.{name}"
    if full_rules:
        return _keyed(where, key, cls.from_dict, table)
    preset = table.get("preset")
    if not isinstance(preset, str):
        raise StudyError(where, f"{key}.preset", f"expected a preset name; known presets: {', '.join(cls.PRESETS)}")
    overrides = {k: None if v == NONE else v for k, v in table.items() if k != "preset"}
    return _keyed(where, key, _keyed(where, f"{key}.preset", cls.parse, preset).replace, **overrides)


def _keyed(where: str, key: str, make: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``make(*args, **kwargs)``, its ``ValueError`` turned into a ``StudyError`` at ``key``."""
    try:
        return make(*args, **kwargs)
    except (ValueError, TypeError) as err:
        raise StudyError(where, key, str(err)) from None


def _players(where: str, g, value: object, variants: dict[str, Rules]) -> tuple[int, ...]:
    counts = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (not isinstance(counts, list) or not counts
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts)):
        raise StudyError(where, "players", f"expected an integer or a list of integers, not {value!r}")
    if len(set(counts)) != len(counts):
        raise StudyError(where, "players", f"expected distinct player counts, not {value!r}")
    for v, r in variants.items():
        for n in counts:
            try:
                g.check_players(r, n)
            except ValueError as err:
                raise StudyError(where, "players", f"variant {v}: {err}") from None
    return tuple(counts)


def _policies(where: str, g, value: object, players: tuple[int, ...], rules: Rules,
              played: bool = True) -> tuple[Policy, ...]:
    """The policies in their one spelling, each checked in full by playing game 0 with it (``played``; else
    parsed only)."""
    entries = [value] if isinstance(value, str) else value
    if not isinstance(entries, list) or not entries:
        raise StudyError(where, "policies", f"expected a list of policies, not {value!r}")
    out: list[Policy] = []
    for i, p in enumerate(entries):
        key = f"policies[{i}]"
        if not isinstance(p, (str, list)):
            raise StudyError(where, key, f"expected a policy name or a list of one per seat, not {p!r}")
        if isinstance(p, list) and len(p) not in players:
            raise StudyError(where, key, f"{len(p)} seat policies match no player count of {list(players)}")
        n = len(p) if isinstance(p, list) else players[0]
        seats = _keyed(where, key, g.seat_policies, p, n)
        if played:
            _check_play(where, key, g, rules, n, seats)
        policy = seats[0] if isinstance(p, str) else seats
        if policy in out:
            j = out.index(policy)
            raise StudyError(where, key, f"{p!r} is policies[{j}] ({policy_label(policy)}) again; "
                             "expected distinct policies")
        out.append(policy)
    return tuple(out)


def _check_play(where: str, key: str, g, rules: Rules, players: int, seats: tuple[str, ...]) -> None:
    """Play game 0 with ``seats`` (``built_in``'s stand-ins): a policy's parameters are the game's to check. Silent
    about a model under other rules: the study says so once when it plays (``manifest.untuned``), and
    ``learned(model=auto)``'s stand-in is not the model the cell will play."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OtherRules)
        _keyed(where, key, g.play, rules, players, 0, 0, built_in(seats))


def built_in(seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats with each user policy (``cardsim.play.user``, loaded and checked by ``seat_policies``)
    standing in as ``random``, and ``learned(model=auto)`` as the game's default model (``learn.auto.stand_in``):
    what the reference engine plays to check the built-in seats' parameters."""
    return tuple(STAND_IN if is_user_spec(p) else auto.stand_in(p) for p in seats)


def _ladder(where: str, g, value: object, players: tuple[int, ...], variants: dict[str, Rules]) -> Ladder:
    """The ladder's design, each distinct policy checked once (by playing game 0 with it in every seat)."""
    table = _table(where, "ladder", value)
    unknown = [k for k in table if k not in ("policies", "seatings")]
    if unknown:
        raise StudyError(where, f"ladder.{unknown[0]}", "unknown key; a ladder has policies and seatings")
    if len(players) != 1:
        raise StudyError(where, "players", f"a ladder is played at one player count, not {list(players)}")
    if len(variants) != 1:
        raise StudyError(where, "variants", f"a ladder plays one variant, not {len(variants)}")
    design = table.get("seatings", "pairs")
    if design not in SEATINGS:
        raise StudyError(where, "ladder.seatings", f"expected one of {', '.join(SEATINGS)}, not {design!r}")
    given = table.get("policies")
    if not isinstance(given, list) or len(given) < 2 or not all(isinstance(p, str) for p in given):
        raise StudyError(where, "ladder.policies", f"expected a list of two or more policies, not {given!r}")
    (rules,) = variants.values()
    out: list[str] = []
    for i, p in enumerate(given):
        key = f"ladder.policies[{i}]"
        seats = _keyed(where, key, g.seat_policies, p, players[0])
        _check_play(where, key, g, rules, players[0], seats)
        if seats[0] in out:
            raise StudyError(where, key, f"{p!r} is ladder.policies[{out.index(seats[0])}] ({seats[0]}) again; "
                             "expected distinct policies")
        out.append(seats[0])
    return Ladder(tuple(out), design)


def _seatings_given(where: str, g, value: object, players: int) -> tuple[tuple[str, ...], ...]:
    """A manifest's ``policies`` beside its ladder: lists of one policy per seat, in their one spelling."""
    if not isinstance(value, list) or not all(isinstance(p, list) for p in value):
        raise StudyError(where, "policies", f"expected the ladder's seatings (lists of one policy per seat), "
                         f"not {value!r}")
    return tuple(_keyed(where, f"policies[{i}]", g.seat_policies, p, players) for i, p in enumerate(value))
