"""Your own player: how a policy of yours is named, found, checked and asked.

The protocol (``docs/play.md``): a policy is a callable ``policy(view, legal)`` or an object
with ``decide(view, legal)``; ``view`` is the seat's ``Game.view`` (plain data), ``legal`` its
``Game.legal()``; it returns a ``Decision`` of ``legal`` or its index. A class is instantiated
(without arguments) once per seat; an optional ``reset(seat, game_index)`` is called before
each game, so a policy that draws random numbers can seed them from the game and stay
reproducible (``cardsim verify`` re-runs it and compares the records).

A seat names it as ``"package.module:name"`` (on ``sys.path`` or in the working directory) or
``"path/to/file.py:name"`` (a path relative to the working directory), optionally with a per-decision time limit in seconds,
``"file.py:name(timeout=2.5)"`` (default: the policy's own ``timeout`` attribute, else ``TIMEOUT``, so
a search that is slow by design says so once); in Python a callable may be passed
directly. ``UserPolicy`` says what it is: module, qualified name, and the file's sha256 when
it is a file.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TIMEOUT = 10.0
"""Seconds a user policy may take for one decision unless its seat says otherwise."""
MAX_TIMEOUT = 3600.0
_SPEC = re.compile(r"^(?P<where>[^:()\s][^:()]*):(?P<name>[A-Za-z_][\w.]*)\s*(?:\((?P<args>[^()]*)\))?$")


def is_user_spec(text: object) -> bool:
    """Whether a seat's policy string names a user policy (``where:name``), not a built-in one."""
    return isinstance(text, str) and ":" in text and "(" not in text.split(":", 1)[0]


def is_user_seat(seat: object) -> bool:
    return isinstance(seat, UserPolicy) or is_user_spec(seat)


@dataclass(frozen=True)
class UserPolicy:
    """A user policy as a seat holds it: its spec (the string a study file or a record names),
    where it comes from, its per-decision ``timeout``, and the object itself (``target``)."""
    spec: str
    module: str
    qualname: str
    file: str | None
    sha256: str | None
    timeout: float = TIMEOUT
    target: Any = field(default=None, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return self.spec

    def provenance(self) -> dict[str, Any]:
        """What names it in a manifest: spec, module, qualified name, file and its sha256, time limit."""
        return {"spec": self.spec, "module": self.module, "qualname": self.qualname, "file": self.file,
                "sha256": self.sha256, "timeout": self.timeout}

    def __reduce__(self):  # a worker process loads it again from its spec (a callable: by reference)
        if self.spec.startswith("<"):
            return (from_object, (self.target,))
        return (load, (self.spec,))

    def seat(self) -> Callable[[dict, Any], Any]:
        """A fresh player for one seat: a class instantiated, a function or an instance as it is."""
        target = self.target
        player = target() if inspect.isclass(target) else target
        decide = getattr(player, "decide", None)
        return player if decide is None else _Seated(player, decide)


class _Seated:
    def __init__(self, player, decide) -> None:
        self.player, self.decide = player, decide
        reset = getattr(player, "reset", None)
        if reset is not None:
            self.reset = reset

    def __call__(self, view, legal):
        return self.decide(view, legal)


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _module_file(where: str, source: str | None) -> str | None:
    """A module's file as a path from the folder its top package is imported from (``cardsim/envs/ismcts.py``):
    a manifest names it the same in every checkout, so a study verifies where it was not run."""
    if not source:
        return None
    path = Path(source)
    depth = where.count(".") + (path.name == "__init__.py")
    return path.relative_to(path.parents[depth]).as_posix()


def _check_target(spec: str, target: Any) -> None:
    """A ``ValueError`` unless ``target`` follows the protocol (a class: its instances will)."""
    if inspect.isclass(target):
        if not any("decide" in vars(k) or "__call__" in vars(k) for k in target.__mro__):
            raise ValueError(f"policy {spec!r}: class {target.__qualname__} has neither decide nor __call__")
        return
    if not callable(target) and not callable(getattr(target, "decide", None)):
        raise ValueError(  # noqa: TRY004 - the CLI's one line for bad input is a ValueError
            f"policy {spec!r}: {type(target).__name__} object is neither callable nor has decide(view, legal)")


_LOADED: dict[tuple[str, str | None], UserPolicy] = {}
"""Loaded policies by (spec, the file's sha256; None for a module), so a chunk loads each once."""


def load(spec: str) -> UserPolicy:
    """The user policy a spec names, loaded (a ``ValueError`` naming what is wrong otherwise)."""
    m = _SPEC.match(spec.strip())
    if not m:
        raise ValueError(f"policy {spec!r}: expected \"package.module:name\" or \"path/to/file.py:name\", "
                         "optionally with (timeout=SECONDS)")
    where, name = m["where"].strip(), m["name"]
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ValueError(f"policy {spec!r}: no file {where} (paths are relative to the working directory)")
        digest = _file_hash(path)
        if (spec, digest) in _LOADED:  # loaded already, and the file is as it was then
            return _LOADED[spec, digest]
        module_name = f"cardsim_user_{re.sub(r'[^A-Za-z0-9_]', '_', path.stem)}_{digest[:12]}"
        module = sys.modules.get(module_name)
        if module is None:
            found = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(found)
            sys.modules[module_name] = module
            try:
                found.loader.exec_module(module)
            except Exception as err:  # noqa: BLE001 - any failure of user code is one line
                del sys.modules[module_name]
                raise ValueError(f"policy {spec!r}: importing {where} raised {type(err).__name__}: {err}") from None
        file, module_label = str(path), path.stem
    else:
        if (spec, None) in _LOADED:
            return _LOADED[spec, None]
        try:
            module = _import(where)
        except Exception as err:  # noqa: BLE001 - any failure of user code is one line
            raise ValueError(f"policy {spec!r}: cannot import module {where} ({type(err).__name__}: {err})") from None
        source = getattr(module, "__file__", None)
        file, digest, module_label = _module_file(where, source), _file_hash(Path(source)) if source else None, where
    target = module
    for part in name.split("."):
        if not hasattr(target, part):
            raise ValueError(f"policy {spec!r}: {where} has no {name}")
        target = getattr(target, part)
    _check_target(spec, target)
    timeout = _timeout(spec, m["args"], declared_timeout(spec, target))
    normal = f"{where}:{name}" + ("" if timeout == declared_timeout(spec, target) else f"(timeout={timeout:g})")
    policy = UserPolicy(normal, module_label, name, file, digest, timeout, target)
    _LOADED[spec, digest if file and where.endswith(".py") else None] = policy
    return policy


def _import(name: str):
    """The module ``name``, found on ``sys.path`` or else in the working directory (which the ``cardsim``
    script, unlike ``python -m``, does not put on the path): the directory is then added to the path."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        here = os.getcwd()
        if err.name != name.split(".")[0] or here in sys.path:
            raise
        sys.path.append(here)
        return importlib.import_module(name)


def declared_timeout(spec: str, target: Any) -> float:
    """The per-decision limit a policy declares for itself (a ``timeout`` attribute), else ``TIMEOUT``."""
    seconds = getattr(target, "timeout", TIMEOUT)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_TIMEOUT:
        raise ValueError(f"policy {spec!r}: its timeout attribute must be seconds above 0 and at most "
                         f"{MAX_TIMEOUT:g}, not {seconds!r}")
    return float(seconds)


def _timeout(spec: str, args: str | None, default: float) -> float:
    if args is None or not args.strip():
        return default
    key, _, value = args.partition("=")
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if key.strip() != "timeout" or not 0 < seconds <= MAX_TIMEOUT:
        raise ValueError(f"policy {spec!r}: the one option is timeout=SECONDS (above 0, at most {MAX_TIMEOUT:g})")
    return seconds


def from_object(obj: Any) -> UserPolicy:
    """A callable (or class, or object with ``decide``) passed directly in Python."""
    _check_target(repr(obj), obj)
    module = getattr(obj, "__module__", None) or type(obj).__module__
    qualname = getattr(obj, "__qualname__", None) or type(obj).__qualname__
    source = getattr(sys.modules.get(module), "__file__", None)
    digest = _file_hash(Path(source)) if source and Path(source).is_file() else None
    importable = "<" not in qualname and module != "__main__" and _resolves(module, qualname, obj)
    spec = f"{module}:{qualname}" if importable else f"<{module}.{qualname}>"
    return UserPolicy(spec, module, qualname, source, digest, declared_timeout(spec, obj), obj)


def _resolves(module: str, qualname: str, obj: Any) -> bool:
    target = sys.modules.get(module)
    for part in qualname.split("."):
        target = getattr(target, part, None)
    return target is obj


def resolve(seat: Any) -> UserPolicy:
    """A seat's user policy from its spec string or the ``UserPolicy`` itself."""
    return seat if isinstance(seat, UserPolicy) else load(seat)
