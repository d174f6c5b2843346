"""mkdocs hooks: the site's front page is the project's README.md, and the committed plots come with it.

Pages link to other files as GitHub shows the repository: the README to ``docs/findings.md``
and ``results/<study>/<plot>.png``, a page under ``docs/`` to ``../results/<study>/<plot>.png``.
The hooks serve README.md as ``index.md`` and the plots under ``results/``, and rewrite each
relative link from its repository path to its path in the site, so one text serves both. A
link to a repository file the site does not serve is left as it is, and the strict build
fails on it.

The pages and the docstrings write Markdown the GitHub (CommonMark) way, which Python-Markdown
reads otherwise in three places, so an extension rewrites them before it reads them, for the
pages and for the API reference alike:

- a list right after a paragraph (a line of text, or a paragraph inside a list item):
  Python-Markdown needs a blank line first;
- a list item's nested lists and paragraphs indented by two spaces (the width of ``- ``):
  Python-Markdown needs four, so inside a list every indent is doubled (a fenced block moves
  with its fence, its code unchanged);
- a docstring's term alone on a line with its text indented under it (``greedy`` then its
  rules): Python-Markdown would read the text as the term's paragraph, with any list in it
  run into the words; the text is taken out of the indent.

In a table row, an interval's two bounds are joined by a non-breaking space: a narrow column
puts ``[lo, hi]`` under its estimate, never one bound under the other.

``tests/test_site.py`` opens the built pages in Chromium and checks that no list runs into
a paragraph.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
DOCS = "docs"
LINK = re.compile(r"(\]\()([^)\s#]+)((?:#[^)\s]*)?\))")
"""A Markdown link or image target: ``](path#anchor)``; absolute URLs are skipped below."""
ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d+\.) +\S")
"""The first line of a list item."""
ANY_ITEM = re.compile(r"^ *(?:[-*+]|\d+\.) +\S")
"""The first line of a list item at any depth."""
TERM = re.compile(r"^``[^`]+``$")
"""A docstring's term alone on its line (``greedy``, ``mc(determinizations=32)``)."""
FENCE = ("```", "~~~")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _terms_out_of_indent(lines: list[str]) -> list[str]:
    """A term line followed by its text indented four spaces: the term, a blank line, the text dedented."""
    out: list[str] = []
    body = False
    for i, line in enumerate(lines):
        if body and line.strip() and _indent(line) < 4:
            body = False
        if body:
            out.append(line[4:] if line.strip() else "")
            continue
        out.append(line)
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if TERM.match(line) and following.strip() and _indent(following) >= 4:
            out.append("")
            body = True
    return out


def _blank_before_lists(lines: list[str]) -> list[str]:
    """A blank line before a list item that directly follows a paragraph of text (one that does not
    begin with an item: a wrapped item's next line is not a paragraph)."""
    out: list[str] = []
    fenced, paragraph = False, None  # paragraph: whether the lines since the last blank began with an item
    for line in lines:
        if line.lstrip().startswith(FENCE):
            fenced, paragraph = not fenced, None
        elif fenced:
            pass
        elif not line.strip():
            paragraph = None
        elif ANY_ITEM.match(line):
            if paragraph is False:
                out.append("")
            paragraph = True
        elif paragraph is None:
            paragraph = False
        out.append(line)
    return out


def _lists_indented_by_four(lines: list[str]) -> list[str]:
    """Inside a list (from an item at the left margin to the next unindented line that is not an
    item), every indent doubled; a fenced block moves with its fence, its code keeps its own indent."""
    out: list[str] = []
    in_list, fence = False, None  # fence: the spaces added to the lines of the open fenced block
    for line in lines:
        stripped, n = line.lstrip(" "), _indent(line)
        if fence is not None:
            out.append(" " * fence + line if line.strip() else line)
            if stripped.startswith(FENCE):
                fence = None
            continue
        if not line.strip():
            out.append(line)
            continue
        if n == 0:
            in_list = bool(ITEM.match(line))
        if in_list and stripped.startswith(FENCE):
            fence = n
        out.append(" " * n + line if in_list else line)
        if not in_list and stripped.startswith(FENCE):
            fence = 0
    return out


class _GitHubMarkdown(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return _lists_indented_by_four(_blank_before_lists(_terms_out_of_indent(lines)))


class GitHubMarkdown(Extension):
    def extendMarkdown(self, md) -> None:
        md.preprocessors.register(_GitHubMarkdown(md), "github_markdown", 35)


@event_priority(100)  # before mkdocstrings builds its own Markdown from the same extensions
def on_config(config):
    config.markdown_extensions.append(GitHubMarkdown())
    return config


def on_files(files: Files, config) -> Files:
    files.append(File.generated(config, "index.md", abs_src_path=str(ROOT / "README.md")))
    for plot in sorted((ROOT / "results").glob("*/*.png")):
        files.append(File.generated(config, plot.relative_to(ROOT).as_posix(), abs_src_path=str(plot)))
    return files


INTERVAL = re.compile(r"([-+−]?\d[\d.,]*%?) \[([-+−]?\d[\d.,]*), ([-+−]?\d[\d.,]*)\]")
"""An estimate and its interval in a table cell: ``25.67 [25.59, 25.76]``."""
NBSP = "\u00a0"


def _intervals_unbroken(markdown: str) -> str:
    """In table rows (lines starting with ``|``), an interval's bounds joined by a non-breaking space:
    a narrow column puts the interval under its estimate, never one bound under the other."""
    return "\n".join(INTERVAL.sub(lambda m: f"{m[1]} [{m[2]},{NBSP}{m[3]}]", line) if line.startswith("|")
                     else line for line in markdown.split("\n"))


def on_page_markdown(markdown: str, page, config, files: Files) -> str:
    here = page.file.src_uri
    repo_dir = "" if here == "index.md" else posixpath.dirname(posixpath.join(DOCS, here))

    def site_link(match: re.Match) -> str:
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            return match.group(0)
        in_repo = posixpath.normpath(posixpath.join(repo_dir, target))
        in_site = in_repo[len(DOCS) + 1:] if in_repo.startswith(DOCS + "/") else in_repo
        if files.get_file_from_path(in_site) is None:
            return match.group(0)
        relative = posixpath.relpath(in_site, posixpath.dirname(here) or ".")
        return match.group(1) + relative + match.group(3)

    return _outside_code(markdown, lambda text: _intervals_unbroken(LINK.sub(site_link, text)))


def _outside_code(markdown: str, change) -> str:
    """Apply ``change`` to the text outside fenced code blocks."""
    parts = re.split(r"(^```.*?^```[ \t]*$)", markdown, flags=re.M | re.S)
    return "".join(part if part.startswith("```") else change(part) for part in parts)
