"""The command line: ``cardsim list | replay | run | verify | report``.

Every user error (unknown game, preset, knob, bad player count, malformed study
file, ...) ends with one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import sys

import cardsim
from cardsim.games import spec


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        print(f"cardsim: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def cmd_list(args: argparse.Namespace) -> None:
    """Without GAME: the games. With GAME: its presets, knobs (default, allowed) and policies."""
    if args.game is None:
        for name in cardsim.GAMES:
            g = spec(name)
            print(f"{name:12} {g.min_players}-{g.max_players} players; presets: {', '.join(g.rules.PRESETS)}")
        return
    g = spec(args.game)
    print(f"{g.name}: {g.min_players}-{g.max_players} players")
    print("presets:")
    for name, r in g.rules.presets().items():
        diff = {k: v for k, v in r.to_dict().items() if v != g.rules.preset(g.rules.DEFAULT_PRESET).to_dict()[k]}
        print(f"  {name:20} {', '.join(f'{k}={v!r}' for k, v in diff.items()) or '(the defaults)'}")
    print("knobs (default; allowed):")
    default = g.rules.preset(g.rules.DEFAULT_PRESET)
    for name, k in g.rules.knobs().items():
        print(f"  {name:22} {getattr(default, name)!r}; {k.expectation()} — {k.doc}")
    print(f"policies: {', '.join(g.policies)}")


def cmd_replay(args: argparse.Namespace) -> None:
    policy = args.policy.split(",") if "," in args.policy else args.policy
    print(cardsim.replay(args.game, args.rules, players=args.players, seed=args.seed, game=args.game_index,
                         policy=policy))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cardsim", description="Rules-variant simulation of card games.")
    parser.add_argument("--version", action="version", version=f"cardsim {cardsim.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="games, or one game's presets, knobs and policies")
    p.add_argument("game", nargs="?", help="a game name (see `cardsim list`)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("replay", help="replay one game move by move with the reference engine")
    p.add_argument("game")
    p.add_argument("rules", help='a preset or string form, e.g. "turamoska(attack_cap=None)"')
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", dest="game_index", type=int, required=True, help="the game index")
    p.add_argument("--policy", default="random", help="a policy, or one per seat separated by commas")
    p.set_defaults(func=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except ValueError as err:
        print(f"cardsim: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
