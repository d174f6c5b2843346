"""Screenshots of the documentation site as a reader sees it: Home, Findings and the Moska page.

Builds the site (``mkdocs build --strict``, the ``docs`` extra) into a temporary folder, opens
each page in headless Chromium at a laptop's window (1280 px wide, the width ``tests/test_site.py``
checks) and writes ``docs/screenshots/<page>.png``: the top of the page, at most ``--height``
pixels. Run from the project folder: ``python scripts/site_screenshots.py``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import site_pages  # noqa: E402  (tests/site_pages.py: the build and the browser the site test uses)

OUT = ROOT / "docs" / "screenshots"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--height", type=int, default=2400, help="pixels of each page from its top (default 2400)")
    args = parser.parse_args(argv)
    if args.height < site_pages.HEIGHT:
        parser.error(f"--height must be at least the window's {site_pages.HEIGHT} px, not {args.height}")
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, site_pages.browser() as page:
        site_pages.build(Path(tmp))
        for name, path in site_pages.PAGES.items():
            page.open(Path(tmp) / path)
            page.screenshot(OUT / f"{name}.png", height=args.height)
            print(f"wrote {(OUT / f'{name}.png').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
