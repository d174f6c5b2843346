"""The out folder, checked before anything is written, and every error of the system as one line, exit 2.

A path that cannot be a study folder (empty, a file, under a file, in a missing or
read-only folder, a link, the working folder, a folder holding other files), too
little disk for the estimate, an unreachable Dask scheduler, a bad policy parameter:
each is one line and nothing is written. A disk that fills up during the run is one
line too, and the earlier study stays. ``--jobs`` above the cores is capped with a note.
"""
import errno
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cardsim.cli import main
from cardsim.study import verify_study
from cardsim.study.run import disk
from cardsim.study.folder import place as folders
from cardsim.study.folder import lock
from cardsim.study.folder import pieces

ROOT = Path(__file__).resolve().parents[2]


def _one_line(capsys, start: str = "cardsim: error: ") -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(start), err
    return err.strip()


def _nothing_written(tmp_path: Path, before: set[str]) -> None:
    assert {p.name for p in tmp_path.iterdir()} == before


@pytest.fixture
def mounted(tmp_path):
    """``mounted(size_kb, read_only=False)`` → a folder on a small tmpfs of its own (unmounted after the
    test); None where this process may not mount (not root)."""
    points = []

    def mount(size_kb: int, read_only: bool = False) -> Path | None:
        point = tmp_path / f"fs{len(points)}"
        point.mkdir()
        options = f"size={size_kb}k" + (",ro" if read_only else "")
        if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True).returncode:
            return None
        points.append(point)
        return point
    yield mount
    for point in points:
        subprocess.run(["umount", str(point)], check=True)


def _read_only_folder(tmp_path: Path, mounted) -> Path:
    """A folder this process cannot write in: a read-only tmpfs as root, else a folder without write permission."""
    if os.geteuid() == 0:
        point = mounted(64, read_only=True)
        assert point is not None, "root and cannot mount a tmpfs"
        return point
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    return folder


@pytest.mark.parametrize("make, message", [
    (lambda t: "", "--out: expected a folder path, not ''"),
    (lambda t: "  ", "--out: expected a folder path, not '  '"),
    (lambda t: (t / "a_file").write_text("x") and t / "a_file", "a_file: a file, not a folder"),
    (lambda t: (t / "a_file").write_text("x") and t / "a_file" / "R", "under a file ("),
    (lambda t: t / "no" / "such" / "R", "/no/such does not exist; create it first"),
    (lambda t: (t / "target").mkdir() or (t / "link").symlink_to(t / "target") or t / "link",
     "a symbolic link; give the folder it points to"),
])
def test_an_out_path_that_cannot_be_a_study_folder_is_one_line(write_study, tmp_path, capsys, make, message):
    study = write_study()
    out = make(tmp_path)
    before = {p.name for p in tmp_path.iterdir()}
    assert main(["run", str(study), "--out", str(out), "--quiet"]) == 2
    assert message in _one_line(capsys)
    _nothing_written(tmp_path, before)


def test_a_read_only_out_folder_is_one_line(write_study, tmp_path, mounted, capsys):
    ro = _read_only_folder(tmp_path, mounted)
    assert main(["run", str(write_study()), "--out", str(ro / "R"), "--quiet"]) == 2
    err = _one_line(capsys)
    assert err.endswith("is on a read-only file system") or err.endswith("is not writable")
    assert list(ro.iterdir()) == []


def test_the_working_folder_is_never_an_out_folder(write_study, tmp_path, monkeypatch, capsys):
    here = tmp_path / "project"
    here.mkdir()
    monkeypatch.chdir(here)
    for out in (".", str(tmp_path)):
        assert main(["run", str(write_study()), "--out", out, "--quiet"]) == 2
        assert "holds the working folder; a run replaces its folder as a whole" in _one_line(capsys)
    assert list(here.iterdir()) == []


def test_a_folder_holding_other_files_is_never_replaced_even_with_force(finished_copy, write_study, capsys):
    (finished_copy / "my notes.txt").write_text("mine")
    (finished_copy / "extra").mkdir()
    before = {p.name for p in finished_copy.iterdir()}
    assert main(["run", str(write_study()), "--out", str(finished_copy), "--quiet", "--force"]) == 2
    assert _one_line(capsys).endswith("holds files that are not a study's (extra, my notes.txt); a run replaces the "
                                      "folder as a whole: choose another --out")
    assert {p.name for p in finished_copy.iterdir()} == before


def test_a_study_too_large_for_the_disk_is_one_line_before_anything_is_written(write_study, tmp_path, capsys):
    before = {p.name for p in tmp_path.iterdir()} | {"study.toml"}
    study = write_study(**{"games = 40": "games = 1000000000000"})
    assert main(["run", str(study), "--out", str(tmp_path / "R"), "--quiet"]) == 2
    err = _one_line(capsys)
    assert "the run needs about" in err and "(81,000,000,000,000 record values)" in err and " free" in err
    _nothing_written(tmp_path, before)


@pytest.mark.long
def test_an_unreachable_dask_scheduler_is_one_line_before_anything_is_written(write_study, tmp_path, capsys):
    before = {p.name for p in tmp_path.iterdir()} | {"study.toml"}
    argv = ["run", str(write_study()), "--out", str(tmp_path / "R"), "--quiet", "--backend", "dask",
            "--scheduler", "tcp://127.0.0.1:9"]
    assert main(argv) == 2
    assert "cannot reach the Dask scheduler 'tcp://127.0.0.1:9'" in _one_line(capsys)
    _nothing_written(tmp_path, before)


def test_a_bad_policy_parameter_names_file_and_key_before_anything_is_written(tmp_path, capsys):
    study = tmp_path / "tiny.toml"
    study.write_text('name = "tiny"\ngame = "moska"\nseed = 1\ngames = 4\nplayers = [2]\n'
                     'policies = ["random", "greedy(depth=3)"]\n\n[variants.moska]\npreset = "moska"\n')
    assert main(["run", str(study), "--out", str(tmp_path / "R"), "--quiet"]) == 2
    assert _one_line(capsys) == (f"cardsim: error: {study}: policies[1]: moska policy 'greedy' takes no parameters "
                                 "but forbid, got depth")
    _nothing_written(tmp_path, {"tiny.toml"})


def test_jobs_above_the_cores_are_capped_with_a_note_and_the_manifest_says_what_ran(write_study, tmp_path, capsys):
    from cardsim.study.run.execution import cores

    assert main(["run", str(write_study()), "--out", str(tmp_path / "R"), "--quiet", "--jobs", "999"]) == 0
    err = capsys.readouterr().err
    assert f"cardsim: note: --jobs 999 capped at {cores()}, the cores of this machine\n" in err
    execution = json.loads((tmp_path / "R" / "manifest.json").read_text())["execution"]
    assert execution["jobs"] == cores() and execution["backend"] == "loky"


def test_the_manifest_of_a_scheduler_run_records_its_workers_and_threads(write_study, tmp_path, dask_scheduler):
    assert main(["run", str(write_study()), "--out", str(tmp_path / "R"), "--quiet", "--backend", "dask",
                 "--scheduler", dask_scheduler]) == 0
    execution = json.loads((tmp_path / "R" / "manifest.json").read_text())["execution"]
    assert execution == {"backend": "dask", "scheduler": dask_scheduler, "jobs": 2, "workers": 2, "threads": 2,
                         "resumed_chunks": 0}


def _fill_up(monkeypatch, real: Path | None):
    """No estimate stands in the way: the disk must fill up while the run writes. Without a real small
    file system, the writer of the records' pieces reports a full disk itself."""
    monkeypatch.setattr(disk, "run_bytes", lambda study: 0)
    if real is None:
        def full(part, task, records):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(part / "pieces" / f"{task:09d}.parquet"))
        monkeypatch.setattr(pieces, "keep", full)


def test_a_full_disk_is_one_line_and_leaves_the_earlier_study(finished, write_study, tmp_path, mounted, monkeypatch,
                                                              capsys):
    size = sum(p.stat().st_size for p in finished.iterdir()) // 1024 + 120  # the earlier study, a little room
    disk = mounted(size)
    disk = disk if disk is not None else tmp_path
    out = disk / "R"
    shutil.copytree(finished, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _fill_up(monkeypatch, disk if disk != tmp_path else None)
    bigger = write_study(**{"seed = 11": "seed = 12", "games = 40": "games = 400"})
    assert main(["run", str(bigger), "--out", str(out), "--quiet", "--force"]) == 2
    err = _one_line(capsys)
    assert "the disk is full (No space left on device)" in err
    assert f"{out} still holds its earlier study, unchanged" in err
    assert f"make room, then continue with `cardsim run {bigger} --out {out} --force --resume`" in err or (
        f"no records were kept: make room, then run `cardsim run {bigger} --out {out} --force` again" in err), err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    monkeypatch.undo()
    assert verify_study(out, redraw=False).ok


def test_a_reader_shares_the_folder_with_readers_not_with_a_writer(finished_copy):
    place = folders.Place(finished_copy)
    with lock.hold(place.lock, finished_copy, exclusive=False):
        assert verify_study(finished_copy, redraw=False).ok  # another reader
        with pytest.raises(lock.Locked, match="in use by a cardsim verify"):
            with lock.hold(place.lock, finished_copy):
                pass
    assert not place.lock.exists()  # the last one out removes the lock file
    with lock.hold(place.lock, finished_copy):
        assert json.loads(place.lock.read_text())["pid"] == os.getpid()
        with pytest.raises(lock.Locked, match=f"in use by cardsim process {os.getpid()}"):
            verify_study(finished_copy)
    assert not place.lock.exists()


def test_verify_of_a_read_only_folder_needs_no_lock_file(finished, tmp_path, mounted):
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        shutil.copytree(finished, ro / "R")
        ro.chmod(0o555)
    else:
        staging = mounted(1024)
        assert staging is not None
        shutil.copytree(finished, staging / "R")
        subprocess.run(["mount", "-o", "remount,ro", str(staging)], check=True)
        ro = staging
    assert verify_study(ro / "R", redraw=False).ok
    assert sorted(p.name for p in ro.iterdir()) == ["R"]


def test_git_ignores_the_quick_start_folders_and_what_a_run_keeps_beside_a_folder():
    paths = ["results/main_job/manifest.json", "results/my_moska/manifest.json", "results/.quickstart.lock",
             "results/.quickstart.part/pieces/000000000.parquet", "results/.quickstart.ready-ab12/manifest.json"]
    done = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout.split() == paths
    kept = subprocess.run(["git", "check-ignore", "results/quickstart/manifest.json"], cwd=ROOT, capture_output=True)
    assert kept.returncode == 1  # a committed study is not ignored


def _bind(tmp_path: Path) -> Path | None:
    """A folder bind-mounted on itself (the same file system: ``os.path.ismount`` does not see it)."""
    point = tmp_path / "bound"
    point.mkdir()
    if subprocess.run(["mount", "--bind", str(point), str(point)], capture_output=True).returncode:
        return None
    return point


@pytest.mark.parametrize("kind", ["tmpfs", "read-only tmpfs", "bind mount"])
def test_a_mount_point_as_out_is_one_line_before_any_game(write_study, tmp_path, mounted, capsys, kind):
    """Issue 28 item 1: a mount point cannot be renamed, so a run refuses it before it plays."""
    point = _bind(tmp_path) if kind == "bind mount" else mounted(2048, read_only=kind.startswith("read-only"))
    if point is None:
        pytest.skip("this process may not mount a file system (not root, or no mount in this container)")
    try:
        study = write_study()
        before = {p.name for p in tmp_path.iterdir()}
        assert main(["run", str(study), "--out", str(point), "--quiet"]) == 2
        assert _one_line(capsys) == (f"cardsim: error: --out {point}: a mount point, which cannot be renamed; a run "
                                     f"replaces its folder by renaming it: give a folder inside it (e.g. --out "
                                     f"{point / 'fake_study'})")
        assert {p.name for p in tmp_path.iterdir()} == before and list(point.iterdir()) == []
    finally:
        if kind == "bind mount":
            subprocess.run(["umount", str(point)], check=True)


def test_a_finished_run_left_beside_a_mount_point_never_breaks_verify_or_run(finished, write_study, tmp_path,
                                                                             mounted, capsys):
    """What an earlier cardsim left when its swap into a mount point failed: verify reads the folder as it
    is, with a note; a run is refused with the mount point's line, not the system's."""
    point = mounted(2048)
    if point is None:
        pytest.skip("this process may not mount a file system (not root, or no mount in this container)")
    shutil.copytree(finished, point, dirs_exist_ok=True)
    left = shutil.copytree(finished, tmp_path / f".{point.name}.ready-0123abcd")
    v = verify_study(point, redraw=False)
    assert v.ok and any(f"{left.name} beside {point} is a finished run that cannot replace a mount point" in n
                        for n in v.notes), v.notes
    assert main(["run", str(write_study()), "--out", str(point), "--quiet", "--force"]) == 2
    assert "a mount point, which cannot be renamed" in _one_line(capsys)
    assert left.is_dir() and verify_study(point, redraw=False).ok


def test_a_file_system_that_cannot_rename_folders_is_one_line_before_any_game(write_study, tmp_path, monkeypatch,
                                                                              capsys):
    real = os.rename

    def refuse(a, b, *args, **kwargs):
        if ".probe-" in str(a):
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), str(a))
        return real(a, b, *args, **kwargs)
    monkeypatch.setattr(os, "rename", refuse)
    before = {p.name for p in tmp_path.iterdir()} | {"study.toml"}
    assert main(["run", str(write_study()), "--out", str(tmp_path / "R"), "--quiet"]) == 2
    assert _one_line(capsys) == (f"cardsim: error: --out {tmp_path / 'R'}: {tmp_path} does not let a folder be "
                                 f"renamed ({os.strerror(errno.EXDEV)}); a run replaces its folder by renaming: "
                                 "choose a folder on another file system")
    _nothing_written(tmp_path, before)
