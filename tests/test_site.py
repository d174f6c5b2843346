"""The documentation site as a reader sees it: ``mkdocs build --strict``, then every page in
headless Chromium at a laptop's width. No list the Markdown meant runs into a paragraph, no
table is wider than the content column, every image loads (none shown wider than it was drawn,
nor shrunk below two thirds of it), and code that does not fit scrolls inside the column. Skipped, with the reason, when
mkdocs (the ``docs`` extra) or Chromium is missing."""
import importlib.util
import shutil

import pytest

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
                       reason="the site needs the docs extra: pip install -e '.[docs]'"),
    pytest.mark.skipif(not any(map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))),
                       reason="the browser check needs headless Chromium: apt-get install -y chromium"),
]

import site_pages as pages  # noqa: E402  (tests/site_pages.py)

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    pages.build(out)
    return out


@pytest.fixture(scope="module")
def seen(site):
    """Every page of the site: its facts, by path."""
    paths = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html") if p.parent.name != "404")
    with pages.browser() as page:
        found = {}
        for path in paths:
            page.open(site / path)
            found[path] = pages.facts(page)
    return found


def test_the_site_has_its_pages(seen):
    assert set(pages.PAGES.values()) <= set(seen) and len(seen) >= 20


def test_no_list_runs_into_a_paragraph(seen):
    runs = {path: f["runs_on"] for path, f in seen.items() if f["runs_on"]}
    assert not runs


def test_no_table_is_wider_than_the_content_column(seen):
    wide = {path: [(t["head"], round(t["width"])) for t in f["tables"] if t["width"] > f["column"] + 1]
            for path, f in seen.items()}
    assert not {p: w for p, w in wide.items() if w}, {p: (seen[p]["column"], w) for p, w in wide.items() if w}


def test_every_image_loads_and_is_shown_at_most_at_its_size(seen):
    images = [(path, i) for path, f in seen.items() for i in f["images"]]
    assert any(i["src"].endswith(".png") for _, i in images)
    assert not [(p, i["src"]) for p, i in images if not (i["complete"] and i["natural"] > 0)]
    assert not [(p, i["src"]) for p, i in images if i["shown"] > i["natural"] + 1]


def test_every_figure_is_drawn_for_the_column(seen):
    """A figure is shown at two thirds of its drawn width or more: its text stays readable (a 2,100 px
    figure shrunk into the column is not)."""
    shrunk = [(p, i["src"], i["natural"], round(i["shown"])) for p, f in seen.items() for i in f["images"]
              if i["shown"] < 2 / 3 * i["natural"]]
    assert not shrunk


def test_code_that_does_not_fit_scrolls_inside_the_column(seen):
    code = [(path, c) for path, f in seen.items() for c in f["code"]]
    assert any(c["wider"] for _, c in code)  # the README's set-up commands are longer than the column
    assert not [p for p, c in code if c["wider"] and c["overflow"] not in ("auto", "scroll")]
    assert not [p for p, c in code if c["right"] > 1]


def test_the_check_sees_a_list_run_into_a_paragraph(tmp_path):
    """The facts find the flattening issue 25 saw: a nested list written as lines of its parent's text."""
    (tmp_path / "page.html").write_text(
        "<article class='md-content__inner'><ul><li>TARAKI changes most:\n- M-14: the limit binds\n"
        "- M-12: the attacker chooses</li></ul><p>fine</p></article>", encoding="utf-8")
    with pages.browser() as page:
        page.open(tmp_path / "page.html")
        assert pages.facts(page)["runs_on"] == ["TARAKI changes most:\n- M-14: the limit binds\n- M-12: the attacker chooses"]
