"""Re-draw a committed study folder's plots from its committed tables, without its records.

A committed folder holds ``summary.csv`` (and ``effects.csv``) but not ``games.parquet``, so
``cardsim report`` cannot re-render it. This draws every plot those tables draw
(``plots.render`` without histograms: all but the ``length`` figure, which keeps the file
the run drew), writes them into the folder, and brings the manifest's ``outputs`` and
``files`` (the sha256 of each file) up to this cardsim's list, records this matplotlib and when
(``reported``), and seals it again, so that ``cardsim verify`` checks the new plots. The records, the summary, the effects and every other claim of the
manifest stay as they are. A ladder folder (its own files) is left alone.

    python scripts/redraw_plots.py results/moska_variants results/moska_knobs ...
"""
from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

import matplotlib

from cardsim.study.folder import manifest as claims
from cardsim.study.report import plots
from cardsim.study.report import summary as report
from cardsim.study.folder import storage


def redraw(folder: Path) -> list[str]:
    """Re-draw ``folder``'s plots and update its manifest; return the plots drawn."""
    manifest = storage.read_manifest(folder)
    study = claims.study_of(manifest, folder / storage.MANIFEST, played=False)
    if study.ladder is not None:
        return []
    summary = storage.parse_summary((folder / storage.SUMMARY).read_text(encoding="utf-8"))
    effects = (report.parse_effects((folder / report.EFFECTS).read_text(encoding="utf-8"))
               if (folder / report.EFFECTS).exists() else None)
    drawn = plots.render(summary, None, report.study_measures(study), study.baseline, folder, report.unpaired(study),
                         study.design, effects)
    outputs = report.outputs(study, manifest["format"])
    missing = [name for name in outputs if not (folder / name).is_file()]
    if missing:
        raise SystemExit(f"{folder}: {missing[0]} is not there and needs the records to draw; re-run the study")
    stale = set(manifest["outputs"]) - set(outputs)
    for name in stale:
        (folder / name).unlink(missing_ok=True)
    manifest["outputs"] = outputs
    manifest["files"] = {name: storage.file_digest(folder / name) for name in [*outputs, storage.SAMPLE]}
    if isinstance(manifest.get("machine"), dict):
        manifest["machine"]["matplotlib"] = matplotlib.__version__
    if "seal" in manifest:  # format 4: when it was re-drawn, then sealed again, as ``cardsim report`` does
        manifest = claims.sealed(manifest | {"reported": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    storage.write_manifest(manifest, folder)
    return drawn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="committed study folders (results/<study>)")
    for folder in parser.parse_args(argv).folders:
        print(f"{folder}: drew {', '.join(redraw(folder)) or 'nothing (a ladder)'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
