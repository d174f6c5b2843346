"""mkdocs hooks: the site's front page is the project's README.md, and the committed plots come with it.

Pages link to other files as GitHub shows the repository: the README to ``docs/findings.md``
and ``results/<study>/<plot>.png``, a page under ``docs/`` to ``../results/<study>/<plot>.png``.
The hooks serve README.md as ``index.md`` and the plots under ``results/``, and rewrite each
relative link from its repository path to its path in the site, so one text serves both. A
link to a repository file the site does not serve is left as it is, and the strict build
fails on it.

GitHub (and CommonMark) start a list right after a line of text; Python-Markdown needs a
blank line first. The docstrings write lists the GitHub way (a line of text, then ``- item``
on the next line), so an extension adds that blank line, for the pages and for the API
reference alike.
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


class _ListAfterText(Preprocessor):
    """A blank line before a list item that directly follows a line of text (outside code fences)."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fenced = False
        for line in lines:
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            elif (not fenced and ITEM.match(line) and out and out[-1].strip() and not ITEM.match(out[-1])
                  and not out[-1][:1].isspace()):
                out.append("")
            out.append(line)
        return out


class ListAfterText(Extension):
    def extendMarkdown(self, md) -> None:
        md.preprocessors.register(_ListAfterText(md), "list_after_text", 35)


@event_priority(100)  # before mkdocstrings builds its own Markdown from the same extensions
def on_config(config):
    config.markdown_extensions.append(ListAfterText())
    return config


def on_files(files: Files, config) -> Files:
    files.append(File.generated(config, "index.md", abs_src_path=str(ROOT / "README.md")))
    for plot in sorted((ROOT / "results").glob("*/*.png")):
        files.append(File.generated(config, plot.relative_to(ROOT).as_posix(), abs_src_path=str(plot)))
    return files


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

    return _outside_code(markdown, lambda text: LINK.sub(site_link, text))


def _outside_code(markdown: str, change) -> str:
    """Apply ``change`` to the text outside fenced code blocks."""
    parts = re.split(r"(^```.*?^```[ \t]*$)", markdown, flags=re.M | re.S)
    return "".join(part if part.startswith("```") else change(part) for part in parts)
