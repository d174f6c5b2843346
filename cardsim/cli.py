"""The command line: ``cardsim list | replay | run | compare | ladder | profile | verify | report | replicate |
warm | train``.

Every user error (unknown game, preset, knob, bad player count, malformed study
file, ...) and every error of the system (a folder that cannot be written, a full
disk, an unreachable scheduler, ...) ends with one line on stderr and exit status 2.
Ctrl-C ends with one line (what was kept, how to go on) and status 130, SIGTERM with
the same line and status 143 (``study.run.signals``); ``verify`` exits 1 when the folder
differs from what it claims. Output cut short by a closed pipe (``cardsim list | head``)
ends quietly with status 141, as a program killed by SIGPIPE.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import cardsim
from cardsim.core.progress import note_on_stderr
from cardsim.core.rules import split_calls
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
    print(f"{g.name}: {g.min_players}-{g.max_players} players; the rules (IDs cited below): {g.rules_page}")
    default = g.rules.preset(g.rules.DEFAULT_PRESET)
    print("presets:")
    for name, r in g.rules.presets().items():
        diff = {k: v for k, v in r.to_dict().items() if v != getattr(default, k)}
        print(f"  {name:20} {', '.join(f'{k}={v!r}' for k, v in diff.items()) or '(the defaults)'}")
    print("knobs (default; allowed):")
    for name, k in g.rules.knobs().items():
        print(f"  {name:22} {getattr(default, name)!r}; {k.expectation()} — {k.doc}")
    print(f"policies: {', '.join(g.policies)}")


def cmd_replay(args: argparse.Namespace) -> None:
    seats = split_calls(args.policy)  # "greedy(bluff=0.1, challenge=0.5)" is one policy
    policy = seats if len(seats) > 1 else args.policy
    print(cardsim.replay(args.game, args.rules, players=args.players, seed=args.seed, game=args.game_index,
                         policy=policy).render(args.format))


def cmd_run(args: argparse.Namespace) -> None:
    from cardsim.study.run.execution import Execution

    # the workers start first: they import the engines while this process imports the study layer
    # (matplotlib, scipy: about a second) and reads the study
    with Execution(args.jobs, args.backend, args.scheduler, note=note_on_stderr) as execution:
        from cardsim.study import run_study

        folder = run_study(args.study, games=args.games, out=args.out, force=args.force, progress=not args.quiet,
                           resume=args.resume, precision=args.precision, max_games=args.max_games,
                           precision_of=args.precision_of, hooks=args.hooks, execution=execution)
    from cardsim.study.plan.spec import load

    study = load(args.study)
    if study.ladder is not None:  # a [ladder] table: what `cardsim ladder` prints
        from cardsim.study.ladder.run import read

        _wrote_ladder(read(folder))
    else:
        print(f"wrote {folder}: games.parquet, sample.csv, summary.csv, plots, manifest.json" + _reached(folder))
    if study.replicate:  # `replicate = true` in the study file
        _replicate(folder, None, None, args)


def cmd_replicate(args: argparse.Namespace) -> None:
    """Re-run a study on fresh deals and print how many of its findings replicate."""
    _replicate(args.folder, args.seed, args.out, args, players=args.players, policies=args.policies,
               games=args.games)


def _replicate(folder, seed, out, args: argparse.Namespace, **part) -> None:
    from cardsim.study.replication import TABLE, counts, replicate

    place, table = replicate(folder, seed=seed, out=out, jobs=args.jobs, backend=args.backend,
                             scheduler=args.scheduler, force=args.force, progress=not args.quiet,
                             resume=args.resume, **part)
    print(f"replicated {folder} on fresh deals: {counts(table)}; wrote {place}: {TABLE}, fresh/")


def _reached(folder) -> str:
    """How a run stepped to a precision ended, from its manifest ("" for other runs)."""
    from cardsim.study.folder import storage

    manifest = storage.read_manifest(folder)
    stepped = manifest.get("precision")
    if not stepped:
        return ""
    last = stepped["steps"][-1]
    verdict = "reached" if stepped["reached"] else f"NOT reached (stopped at --max-games {stepped['max_games']:,})"
    of = " of a seat contrast" if stepped.get("of") == "contrasts" else ""
    return (f"; precision ±{stepped['pp']:g} pp {verdict} at {last['games']:,} games per cell (widest 95% "
            f"half-width{of} ±{last['widest_half_width_pp']:.3f} pp, {len(stepped['steps'])} steps)")


def cmd_compare(args: argparse.Namespace) -> None:
    """The paired table of a few rules on the same deals; ``--out`` also writes the study folder."""
    from cardsim.study import compare
    from cardsim.study.report import summary as report
    from cardsim.study.folder import storage
    from cardsim.study.pipeline import run_loaded
    from cardsim.study.run.runner import simulate

    study = compare.study(args.game, args.rules, players=args.players, games=args.games, seed=args.seed,
                          policies=args.policy, engine=args.engine)
    if args.out is None:
        records = simulate(study, jobs=args.jobs, progress=not args.quiet)
        summary = report.summarize_records(study, records)
    else:
        folder = run_loaded(study, None, ["cardsim", *args.argv], jobs=args.jobs, out=args.out,
                            force=args.force, progress=not args.quiet, resume=args.resume)
        summary = storage.parse_summary((folder / storage.SUMMARY).read_text(encoding="utf-8"))
    print(compare.table(summary, study.baseline))
    if args.out is not None:
        print(f"\nwrote {folder}: games.parquet, sample.csv, summary.csv, plots, manifest.json")


def cmd_ladder(args: argparse.Namespace) -> None:
    """Print the ladder's tables and ratings (``ladder.txt``) and where its folder is."""
    from cardsim.study import run_ladder

    result = run_ladder(args.game, args.rules, policies=args.policies, players=args.players, games=args.games,
                        seed=args.seed, seatings=args.seatings, engine=args.engine, jobs=args.jobs, out=args.out,
                        backend=args.backend, scheduler=args.scheduler, force=args.force, progress=not args.quiet,
                        resume=args.resume)
    _wrote_ladder(result)
    if args.replicate:
        _replicate(result.folder, None, None, args)


def _wrote_ladder(result) -> None:
    """A ladder's tables and ratings (``ladder.txt``), then its folder and files."""
    print(result.text, end="")
    steps = "steps.csv, " if len(result.steps) else ""
    print(f"wrote {result.folder}: ladder.csv, ratings.csv, {steps}ladder.txt, ladder.png, summary.csv, "
          "games.parquet, sample.csv, manifest.json")


def cmd_profile(args: argparse.Namespace) -> None:
    """Print the profile table (``profile.txt``) and where its folder is (``cardsim.profile``)."""
    from cardsim.profile.command import profile_study, run_profile

    study = profile_study(args.game, args.variants, players=args.players, games=args.games, seed=args.seed,
                          policy=args.policy, ladder=None if args.ladder is None else split_calls(args.ladder),
                          options=None if args.options is None else [o for o in args.options.split(",") if o],
                          replays=args.replays, engine=args.engine)
    folder = run_profile(study, out=args.out, jobs=args.jobs, force=args.force, progress=not args.quiet,
                         resume=args.resume, replicate=args.replicate)
    print((folder / "profile.txt").read_text(encoding="utf-8"), end="")
    print(f"wrote {folder}: profile.csv, profile.txt, profile.png, summary.csv, games.parquet, sample.csv, "
          "manifest.json" + (f"; {folder.name}_replication/replication.csv" if args.replicate else ""))


def cmd_verify(args: argparse.Namespace) -> None:
    """Exit status 1 when a re-run row or a records digest differs from the manifest; a replication's folder:
    its fresh run verified, and its ``replication.csv`` recomputed from the original beside it and the fresh run."""
    from cardsim.study import verify_study
    from cardsim.study.folder import storage

    folder = Path(args.folder)
    replication = storage.is_replication(folder)
    table = []
    if replication:
        from cardsim.study.replication import differences

        table = differences(folder)  # first: a replication without its original is one line, nothing re-run
    v = verify_study(folder / storage.FRESH if replication else folder, sample=args.sample, seed=args.sample_seed,
                     redraw=args.redraw)
    for line in v.notes:
        print(f"note: {line}")
    for line in [*v.mismatches, *table]:
        print(f"MISMATCH {line}")
    verdict = "identical" if v.ok and not table else "DIFFERENT"
    drawn = "" if v.seed is None else f" (--sample-seed {v.seed})"
    recomputed = f" ({storage.FRESH}/), and {storage.REPLICATION} recomputed from both runs" if replication else ""
    print(f"{args.folder}: {len(v.games)} game indices{drawn} x {v.cells} cells re-run against {v.source}, "
          f"manifest, files and summary checked{recomputed}: {verdict}")
    if verdict != "identical":
        raise SystemExit(1)


def cmd_report(args: argparse.Namespace) -> None:
    """Re-render from games.parquet; with ``--html``, write report.html from the folder's files instead."""
    if args.html:
        from cardsim.study.folder import storage
        from cardsim.study.report.html import write_report

        folder = Path(args.folder)
        if storage.is_replication(folder):
            from cardsim.study import replication

            print(f"wrote {replication.write_report(folder)}")  # a replication's page, from its table
            return
        print(f"wrote {write_report(folder)}")
        return
    from cardsim.study import report_study

    print(f"wrote into {args.folder}: {', '.join(report_study(args.folder))}")


def cmd_warm(args: argparse.Namespace) -> None:
    """Compile every engine entry point of the games named (default all) ahead, with a progress line."""
    from cardsim.warm import warm

    done = warm(args.games)
    games = len(dict.fromkeys(g for g, _, _ in done))
    print(f"warmed {len(done)} entry points of {games} game{'' if games == 1 else 's'} in "
          f"{sum(s for _, _, s in done):.1f} s")


def cmd_train(args: argparse.Namespace) -> int:
    """Expert iteration: one model file per generation in ``--out`` (cardsim/learn/train.py); 1 when the gate
    stopped it early."""
    from cardsim.learn.train import Stalled, train

    try:
        paths = train(args.game, args.rules, players=args.players, generations=args.generations,
                      positions=args.positions, teacher=args.teacher, seed=args.seed, jobs=args.jobs, out=args.out,
                      name=args.name, every=args.every, hidden=args.hidden, gate=args.gate, attempts=args.attempts,
                      aggregate=args.aggregate, progress=not args.quiet)
    except Stalled as stalled:
        for path in stalled.paths:
            print(f"wrote {path}")
        return _fail(str(stalled), 1)  # not what was asked for, though nothing was wrong with the input
    for path in paths:
        print(f"wrote {path}")
    return 0


def _folder_options(p: argparse.ArgumentParser, out: str, resume: str, cluster: bool = True) -> None:
    """The options of every command that plays games into a study folder: workers, the folder, and
    (``cluster``) the backend and a Dask scheduler."""
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1 = all cores; default 1)")
    p.add_argument("--out", help=out)
    if cluster:
        p.add_argument("--backend", choices=("loky", "dask"), default="loky", help="joblib backend (default loky)")
        p.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --backend dask)")
    p.add_argument("--force", action="store_true", help="overwrite a folder holding another study")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--resume", action="store_true", help=resume)


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
    p.add_argument("--format", choices=("text", "csv", "json"), default="text",
                   help="text (default: a header, then every event), csv (the events table) or json (header, "
                        "record and events)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("run", help="run a study file: records, summary, plots and manifest")
    p.add_argument("study", help="a study file (TOML)")
    p.add_argument("--games", type=int, help="games per cell (default: the study file's)")
    _folder_options(p, "output folder (default: results/<study name>)",
                    "continue an interrupted run of the same study from the records it kept")
    p.add_argument("--precision", type=float, help="play on, in steps, until every seat rate's 95%% half-width is "
                                                   "within this many percentage points in every cell (the study's "
                                                   "games are the first step)")
    p.add_argument("--precision-of", choices=("rates", "contrasts"), default="rates",
                   help="what --precision pins down: every seat rate (default), or every seat contrast, a cell's "
                        "seat rate less its baseline cell's, paired on the same deals")
    p.add_argument("--max-games", type=int, help="the most games per cell a --precision run plays (default "
                                                 "1,000,000)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compare", help="compare rules on the same deals without a study file: the paired table")
    p.add_argument("game")
    p.add_argument("rules", nargs="+", help='two or more presets or string forms, e.g. "moska" '
                                            '"moska(trump_two_swap=False)"; the first is the baseline')
    p.add_argument("--players", type=int, nargs="+", default=[4], help="player counts (default 4)")
    p.add_argument("--games", type=int, default=10_000, help="games per variant (default 10,000)")
    p.add_argument("--policy", nargs="+", default=["greedy"], help="policies, each a name or one per seat "
                                                                   "separated by commas (default greedy)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", default="compiled", help="compiled (default) or reference")
    _folder_options(p, "also write the study folder here (records, summary, plots, manifest)",
                    "continue an interrupted --out run", cluster=False)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("ladder", help="how strong each policy is: every seating of the policies on the same deals, "
                                      "rates with intervals and Bradley–Terry ratings")
    p.add_argument("game")
    p.add_argument("rules", nargs="?", help='a preset or string form (default: the game\'s default preset)')
    p.add_argument("--policies", required=True, help='two or more policies separated by commas, e.g. '
                                                     '"random,greedy(bluff=0.1, challenge=0.5)"; the first rates 0')
    p.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    p.add_argument("--games", type=int, default=10_000, help="games per seating (default 10,000)")
    p.add_argument("--seed", type=int, default=0, help="the study seed (default 0)")
    p.add_argument("--seatings", choices=("pairs", "all"), default="pairs",
                   help="pairs: A in one seat, B in the others, rotated (default); all: every assignment")
    p.add_argument("--engine", choices=("compiled", "reference"), default="compiled", help="default compiled")
    p.add_argument("--replicate", action="store_true", help="then play it again on fresh deals (the next seed) and "
                                                            "write replication.csv: which ratings and steps hold")
    _folder_options(p, "output folder (default: results/ladder_<game>)",
                    "continue an interrupted run of the same ladder")
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("profile", help="balance profile of variants: fairness, skill, luck of the deal, option "
                                       "value and length, each with its interval (docs/profiles.md)")
    p.add_argument("game")
    p.add_argument("variants", nargs="*", help="presets or string forms (default: the game's default preset)")
    p.add_argument("--players", type=int, nargs="+", default=[4], help="player counts (default 4)")
    p.add_argument("--games", type=int, default=20_000, help="games per cell (default 20,000)")
    p.add_argument("--seed", type=int, default=0, help="the study seed (default 0)")
    p.add_argument("--policy", help="the profiled player, the strongest affordable (default greedy)")
    p.add_argument("--ladder", help="the ladder's policies, separated by commas (default random,greedy and --policy)")
    p.add_argument("--options", help="the options to forbid, separated by commas (default every option of the game; "
                                     "'' for none)")
    p.add_argument("--replays", type=int, help="self-play games replayed for decisiveness (default 200)")
    p.add_argument("--replicate", action="store_true", help="also run it on fresh deals and write replication.csv")
    p.add_argument("--engine", choices=("compiled", "reference"), default="compiled", help="default compiled")
    _folder_options(p, "output folder (default: results/profile_<game>)", "continue an interrupted run of the same "
                    "profile", cluster=False)
    p.set_defaults(func=cmd_profile)

    p = sub.add_parser("verify", help="re-run a sample of a study's games and compare with its records "
                                      "(games.parquet, else sample.csv)")
    p.add_argument("folder", help="a study's output folder")
    p.add_argument("--sample", type=int, help="game indices to re-run, in every cell, drawn from the whole study "
                                              "(with games.parquet) or the sampled games (default: every sampled game)")
    p.add_argument("--sample-seed", type=int, help="the seed that draws the --sample indices (default: a fresh "
                                                   "one, printed)")
    p.add_argument("--redraw", action="store_true", help="also draw the plots again and compare them byte for byte "
                                                         "(seconds per plot; by default their sha256 is checked)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("report", help="re-render summary.csv and the plots from games.parquet; --html: write "
                                      "report.html")
    p.add_argument("folder", help="a study's output folder")
    p.add_argument("--html", action="store_true", help="write report.html (one self-contained page: tables, plots, "
                                                       "provenance) from the folder's files instead; needs no "
                                                       "games.parquet")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("replicate", help="re-run a study on fresh deals (a new seed, all else equal) and tell "
                                         "which of its corrected findings replicate (replication.csv)")
    p.add_argument("folder", help="a study's output folder")
    p.add_argument("--seed", type=int, help="the fresh seed (default: the study's seed + 1)")
    p.add_argument("--players", type=int, nargs="+", help="replicate only these player counts' cells")
    p.add_argument("--policies", nargs="+", help="replicate only these policies' cells (as the policy column "
                                                 "spells them)")
    p.add_argument("--games", type=int, help="games per cell of the fresh run (default: the study's)")
    _folder_options(p, "the replication folder (default: FOLDER_replication beside FOLDER): replication.csv "
                       "and the fresh study in fresh/", "continue an interrupted replication's fresh run")
    p.set_defaults(func=cmd_replicate)

    p = sub.add_parser("warm", help="compile the engines ahead (once per install; later runs load them from the "
                                    "cache)")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to compile (default: all)")
    p.set_defaults(func=cmd_warm)

    p = sub.add_parser("train", help="train a learned policy by expert iteration: self-play positions labelled by "
                                     "mc, a conditional logit (or a small network) per generation")
    p.add_argument("game")
    p.add_argument("rules", nargs="?", help="a preset or string form (default: the game's default preset)")
    p.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    p.add_argument("--generations", type=int, default=3, help="generations of expert iteration (default 3)")
    p.add_argument("--positions", type=int, default=20_000, help="labelled positions per generation "
                                                                  "(default 20,000)")
    p.add_argument("--teacher", default="mc(determinizations=64)",
                   help="the first generation's teacher, an mc(...) string (default mc(determinizations=64)); "
                        "later generations search the previous one's play-outs with its worlds")
    p.add_argument("--seed", type=int, default=0, help="the training seed (default 0)")
    p.add_argument("--every", type=int, default=8, help="one decision in EVERY becomes a position (default 8)")
    p.add_argument("--hidden", type=int, default=0,
                   help="rectified units per block, a small network (1 to 4); default 0, linear")
    p.add_argument("--gate", type=int, default=0, metavar="GAMES",
                   help="keep a generation only if it beats the previous one in a paired ladder of GAMES deals "
                        "(its Elo interval above 0); default 0, no gate")
    p.add_argument("--attempts", type=int, default=1,
                   help="with --gate: fits of a generation, each from fresh positions, before training stops "
                        "(default 1)")
    p.add_argument("--aggregate", action="store_true",
                   help="fit each generation to the positions of every generation kept so far, each labelled by "
                        "its own teacher (dataset aggregation), not to its own alone")
    p.add_argument("--jobs", type=int, default=1, help="labelling processes (default 1)")
    p.add_argument("--name", help="model names NAME_g1, NAME_g2, ... (default RULES_<players>p, e.g. moska_4p)")
    p.add_argument("--out", required=True, help="folder of the model files; a run with a folder holding some "
                                                "generations resumes after them")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)
    return parser


def main(argv: list[str] | None = None, hooks=None) -> int:
    """The command line's exit status; ``hooks``: a test's seams of ``run`` (``cardsim.study.hooks``)."""
    from cardsim.study.hooks import NONE
    from cardsim.study.run import signals
    from cardsim.study.plan.spec import RunStopped

    args = build_parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.hooks = hooks if hooks is not None else NONE
    try:
        with signals.terminated_as_interrupt():
            status = args.func(args)
            sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush at exit
        return 141
    except RunStopped as stop:
        return _fail(f"{'' if stop.interrupted else 'error: '}{stop}", signals.status(stop))
    except signals.Terminated:
        return _fail("terminated (SIGTERM)", 143)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except ValueError as err:
        return _fail(f"error: {err}", 2)
    except OSError as err:
        return _fail(f"error: {signals.os_error(err)}", 2)
    except MemoryError:
        return _fail("error: out of memory", 2)
    return status or 0


def _fail(line: str, status: int) -> int:
    print(f"cardsim: {' '.join(line.splitlines())}", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
