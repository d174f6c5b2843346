"""A run killed anywhere (SIGKILL, Ctrl-C's SIGINT, SIGTERM) never leaves a half-written study folder.

The folder holds an earlier study (seed 11); a run of another study (seed 12) into it is
stopped at a named point of every phase: playing, assembling the records, digesting,
sampling, drawing, writing the manifest, and each step of the swap. After the kill the
folder holds the earlier study byte for byte, or (once the new one was swapped in) the
new one, complete; verify passes on it (finishing a swap cut short); ``--resume`` then
gives the digest, sample and summary of a run never interrupted. Ctrl-C is one line,
exit status 130; SIGTERM the same line, exit status 143. The ``--resume`` command said is
the one that resumes (with ``--force`` where the folder holds another study). Workers die
with their parent.
"""
import json
import os
import re
import shutil
import signal
import time

import psutil
import pytest

from cardsim.cli import main
from cardsim.study import verify_study
from fakegame import edit
from killing import paused, process

NEW = {"seed = 11": "seed = 12", 'policies = ["random", ["greedy", "random", "random"]]': 'policies = ["random"]'}
"""The new study: another seed, one policy (6 cells, 6 chunks of records, 3 plots)."""


@pytest.fixture(scope="module")
def uninterrupted(fake, tmp_path_factory):
    """The new study (seed 12), run without interruption: what every resumed run must equal."""
    from cardsim.study import run_study

    path = tmp_path_factory.mktemp("uninterrupted") / "study.toml"
    path.write_text(edit(**NEW))
    return run_study(path, out=path.parent / "out")


@pytest.fixture
def setting(finished, tmp_path):
    """(the new study file, the folder R holding the earlier study, R's files before)."""
    out = tmp_path / "R"
    shutil.copytree(finished, out)
    new = tmp_path / "new.toml"
    new.write_text(edit(**NEW))
    return new, out, _files(out)


def _files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else None


def _same_study(a, b):
    """The same files; equal records digest, sample.csv, summary.csv and plots (the manifests differ
    only in time and run)."""
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    assert json.loads((a / "manifest.json").read_text())["records"] == json.loads(
        (b / "manifest.json").read_text())["records"]
    for name in ["games.parquet", "sample.csv", "summary.csv", *(p.name for p in b.glob("*.png"))]:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


POINTS = [  # (pause point, the signal, what R holds right after the kill)
    ("locked", signal.SIGKILL, "old"),
    ("piece#1", signal.SIGKILL, "old"),
    ("piece#3", signal.SIGINT, "old"),
    ("piece#6", signal.SIGKILL, "old"),
    ("assemble", signal.SIGINT, "old"),
    ("row group", signal.SIGKILL, "old"),  # games.parquet half-written (under a temporary name)
    ("digest", signal.SIGKILL, "old"),
    ("sample", signal.SIGINT, "old"),
    ("plot#1", signal.SIGKILL, "old"),
    ("plot#2", signal.SIGINT, "old"),
    ("piece#2", signal.SIGTERM, "old"),
    ("plot#1", signal.SIGTERM, "old"),
    ("plot#3", signal.SIGKILL, "old"),
    ("manifest", signal.SIGKILL, "old"),
    ("swap.ready", signal.SIGKILL, "old"),
    ("swap.exchanged", signal.SIGKILL, "new"),
    ("swap.cleanup", signal.SIGKILL, "new"),
]


@pytest.mark.parametrize("point, sig, holds", POINTS, ids=[f"{p}-{s.name}" for p, s, _ in POINTS])
def test_a_run_killed_at_any_point_leaves_a_whole_study_and_resumes_to_the_same_digest(
        setting, uninterrupted, tmp_path, capsys, point, sig, holds):
    new, out, before = setting
    child = paused(["run", str(new), "--out", str(out), "--force", "--quiet"], point, tmp_path)
    status = child.kill(sig)
    if sig == signal.SIGKILL:
        assert status == -signal.SIGKILL
    else:  # Ctrl-C or SIGTERM: one line saying what was kept and how to go on
        assert status == (130 if sig == signal.SIGINT else 143)
        lines = child.text.splitlines()
        said = "interrupted" if sig == signal.SIGINT else "terminated (SIGTERM)"
        assert len(lines) == 1 and lines[0].startswith(f"cardsim: {said}: {out} still holds its earlier study, "
                                                       "unchanged"), child.text
        if point.startswith("piece"):
            n = int(point.split("#")[1])
            assert lines[0].endswith(f"{n} chunks of records are kept in {tmp_path / '.R.part'}: continue with "
                                     f"`cardsim run {new} --out {out} --force --resume`")
    if holds == "old":
        assert _files(out) == before
    else:
        assert json.loads((out / "manifest.json").read_text())["seed"] == 12
    v = verify_study(out, redraw=False)  # a swap cut short is finished first
    assert v.ok and not list(tmp_path.glob(".R.ready-*")) and not list(tmp_path.glob(".R.old-*"))

    assert main(["run", str(new), "--out", str(out), "--force", "--quiet", "--resume"]) == 0
    said = "\n".join([*v.notes, capsys.readouterr().err])
    if sig == signal.SIGKILL:  # the killed run's lock, taken over by verify's recovery or by the resumed run
        assert f"took over the lock of {out} left by cardsim process {child.pid}" in said
    _same_study(out, uninterrupted)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".R")) == []



@pytest.mark.parametrize("point", ["plot#2", "row group"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_a_run_killed_while_two_processes_draw_its_plots_leaves_the_earlier_study_and_no_drawer(
        setting, uninterrupted, tmp_path, sig, point):
    """``--jobs 2``: the plots are drawn by two forked processes while this one assembles ``games.parquet``;
    the run is stopped with one of them drawing the first figure (the second ``plot`` point), or with the
    file half-written (``row group``, the drawers given every figure): the earlier study stays, no drawer
    is left writing, and the resumed run writes the same study."""
    new, out, before = setting
    child = paused(["run", str(new), "--out", str(out), "--force", "--quiet", "--jobs", "2"], point, tmp_path)
    drawers = psutil.Process(child.pid).children(recursive=True)
    assert drawers  # the run's workers and its drawing processes
    status = child.kill(sig)
    assert status == {signal.SIGKILL: -signal.SIGKILL, signal.SIGINT: 130, signal.SIGTERM: 143}[sig]
    if sig != signal.SIGKILL:
        assert len(child.text.splitlines()) == 1, child.text
    gone, alive = psutil.wait_procs(drawers, timeout=10)
    assert alive == []
    assert _files(out) == before
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet", "--resume", "--jobs", "2"]) == 0
    _same_study(out, uninterrupted)

def test_the_two_rename_swap_killed_between_its_renames_is_finished_by_the_next_verify(
        setting, uninterrupted, tmp_path):
    """Where the system cannot exchange two folders, R is absent for an instant: a kill there
    leaves the new study beside R's parent, complete, and verify swaps it in."""
    new, out, _ = setting
    child = paused(["run", str(new), "--out", str(out), "--force", "--quiet"], "swap.aside", tmp_path,
                   two_renames=True)
    assert child.kill(signal.SIGKILL) == -signal.SIGKILL
    assert not out.exists() and len(list(tmp_path.glob(".R.ready-*"))) == 1 and len(list(tmp_path.glob(".R.old-*")))
    v = verify_study(out, redraw=False)
    assert v.ok and any(n.startswith("completed the swap of a finished run") for n in v.notes)
    _same_study(out, uninterrupted)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".R")) == []


def test_resume_after_a_kill_plays_only_the_missing_chunks(setting, uninterrupted, tmp_path, capsys):
    new, out, _ = setting
    paused(["run", str(new), "--out", str(out), "--force", "--quiet"], "piece#4", tmp_path).kill(signal.SIGKILL)
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet", "--resume"]) == 0
    assert "resuming: 4 of 6 chunks of records were kept" in capsys.readouterr().err
    _same_study(out, uninterrupted)
    assert json.loads((out / "manifest.json").read_text())["execution"]["resumed_chunks"] == 4


def test_a_run_without_resume_starts_afresh_and_says_so(setting, uninterrupted, tmp_path, capsys):
    new, out, _ = setting
    paused(["run", str(new), "--out", str(out), "--force", "--quiet"], "piece#2", tmp_path).kill(signal.SIGKILL)
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "removed the records kept by an interrupted run in .R.part (--resume continues one)" in err
    _same_study(out, uninterrupted)


def test_resume_refuses_the_kept_records_of_another_study(setting, tmp_path, write_study, capsys):
    new, out, before = setting
    paused(["run", str(new), "--out", str(out), "--force", "--quiet"], "piece#2", tmp_path).kill(signal.SIGKILL)
    other = write_study(name="other.toml", **{"seed = 11": "seed = 13"})
    assert main(["run", str(other), "--out", str(out), "--force", "--quiet", "--resume"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (f"cardsim: error: {tmp_path / '.R.part'}: the interrupted run kept there is of another study "
                       "or size; run without --resume to start afresh")
    assert _files(out) == before


def test_a_second_run_into_a_locked_folder_exits_2_with_one_line(setting, tmp_path, capsys):
    new, out, before = setting
    first = paused(["run", str(new), "--out", str(out), "--force", "--quiet"], "piece#2", tmp_path)
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"cardsim: error: {out}: in use by cardsim process {first.pid} on ")
    assert err.rstrip().endswith("wait until it ends (one writer per folder)")
    with pytest.raises(ValueError, match=f"in use by cardsim process {first.pid}"):
        verify_study(out)  # no reader while a writer holds the folder
    assert main(["report", str(out)]) == 2
    assert first.kill(signal.SIGINT) == 130
    assert _files(out) == before
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet"]) == 0  # released: no stale lock
    assert "took over" not in capsys.readouterr().err


def test_a_stale_lock_of_a_dead_process_is_taken_over_with_a_note(setting, tmp_path, capsys):
    new, out, _ = setting
    lock = tmp_path / ".R.lock"
    lock.write_text(json.dumps({"pid": 4_000_000, "host": "elsewhere", "since": "2026-01-01T00:00:00+00:00"}))
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet"]) == 0
    assert capsys.readouterr().err == (f"cardsim: note: took over the lock of {out} left by cardsim process "
                                       "4000000 on elsewhere (since 2026-01-01T00:00:00+00:00; killed: it no "
                                       "longer holds it)\n")
    assert not lock.exists()


@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_workers_die_with_their_parent_and_ctrl_c_is_one_line(setting, tmp_path, backend):
    """SIGKILL of ``cardsim run`` leaves no worker; Ctrl-C and SIGTERM stop them and print one line."""
    new, out, before = setting
    big = tmp_path / "big.toml"
    big.write_text(edit(**NEW, **{"games = 40": "games = 2000"}))
    argv = ["run", str(big), "--out", str(out), "--force", "--quiet", "--jobs", "2", "--backend", backend]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        child = process(argv, "piece#2", tmp_path)
        workers = psutil.Process(child.pid).children(recursive=True)
        assert len([w for w in workers if w.is_running()]) >= 2
        status = child.kill(sig)
        gone, alive = psutil.wait_procs(workers, timeout=60)
        assert not alive, f"{backend} workers outlived their parent after {sig.name}: {alive}"
        if sig != signal.SIGKILL:
            assert status == (130 if sig == signal.SIGINT else 143)
            said = "interrupted" if sig == signal.SIGINT else "terminated (SIGTERM)"
            stopped = [line for line in child.text.splitlines() if not line.startswith("cardsim: note: ")]
            assert stopped == [f"cardsim: {said}: {out} still holds its earlier study, unchanged;"
                                               f" 2 chunks of records are kept in {tmp_path / '.R.part'}: continue "
                                               f"with `cardsim run {big} --out {out} --force --resume`"], child.text
    assert _files(out) == before


@pytest.mark.parametrize("sig, status, said", [(signal.SIGINT, 130, "interrupted"),
                                                (signal.SIGTERM, 143, "terminated (SIGTERM)")])
def test_ctrl_c_during_the_swap_waits_for_it_and_says_the_study_is_new(setting, tmp_path, monkeypatch, capsys, sig,
                                                                       status, said):
    """The swap is a few renames: Ctrl-C (or SIGTERM) then is held back until it is done."""
    from cardsim.study.folder import place as folder

    new, out, _ = setting
    exchange = folder._exchange

    def interrupted_exchange(a, b):
        os.kill(os.getpid(), sig)
        time.sleep(0.05)  # the signal is delivered while the swap goes on
        return exchange(a, b)
    monkeypatch.setattr(folder, "_exchange", interrupted_exchange)
    assert main(["run", str(new), "--out", str(out), "--force", "--quiet"]) == status
    assert capsys.readouterr().err == f"cardsim: {said}: after the run had finished: {out} holds the new study\n"
    assert json.loads((out / "manifest.json").read_text())["seed"] == 12
    assert verify_study(out, redraw=False).ok


def test_a_worker_killed_by_the_system_stops_the_run_with_one_line_and_resume_finishes_it(setting, uninterrupted,
                                                                                          tmp_path, capsys):
    """Paused after the first chunk is kept, when the sixth and last chunk is not yet handed to the pool
    (two chunks per worker ahead): the death is always found, however fast the workers ran the others."""
    new, out, before = setting
    argv = ["run", str(new), "--out", str(out), "--force", "--quiet", "--jobs", "2"]
    child = process(argv, "piece#1", tmp_path)
    workers = [p for p in psutil.Process(child.pid).children() if "loky" in " ".join(p.cmdline())
               and "resource_tracker" not in " ".join(p.cmdline())]
    assert workers
    workers[0].kill()  # as the system's out-of-memory killer would
    workers[0].wait(timeout=30)  # gone once the pool has reaped it: the pool knows before the run goes on
    (tmp_path / "paused-0.go").write_text("")
    assert child.wait() == 2
    lines = child.text.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardsim: error: a worker process died under a task ("), child.text
    kept = re.search(r"still holds its earlier study, unchanged; (\d) chunks of records are kept in (\S+): continue "
                     r"with `(.*) --resume`$", lines[0])
    assert kept and int(kept[1]) >= 1 and kept[2] == str(tmp_path / ".R.part")
    assert kept[3] == f"cardsim run {new} --out {out} --force"  # the folder holds another study
    assert _files(out) == before
    assert main([*argv, "--resume"]) == 0
    _same_study(out, uninterrupted)


def test_a_drawer_starts_with_the_stop_signals_held_back_until_it_has_its_own_handlers(monkeypatch):
    """The race the kill tests above can meet: a run stopped while its pool of drawers starts terminates a
    drawer still in its initializer, which, forked from the run, holds the run's SIGTERM handler. Forked under
    ``stop_signals_blocked``, a drawer has SIGINT and SIGTERM blocked when it starts, and lets them in only once
    it ignores the one and dies of the other."""
    import multiprocessing

    from cardsim.study.report import plots

    seen = multiprocessing.get_context("fork").SimpleQueue()
    drawer = plots._drawer

    def probe(parent):
        at_start = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        drawer(parent)
        seen.put((sorted(at_start), sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])),
                  signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)))

    monkeypatch.setattr(plots, "_drawer", probe)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    with plots.drawing_pool(1) as pool:
        pool.apply(int)
    at_start, after, on_int, on_term = seen.get()
    assert {signal.SIGINT, signal.SIGTERM} <= set(at_start)
    assert signal.SIGINT not in after and signal.SIGTERM not in after
    assert (on_int, on_term) == (signal.SIG_IGN, signal.SIG_DFL)
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before  # the run's own mask is as it was
