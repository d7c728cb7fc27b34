"""The documentation holds: the README's quick start runs, its two set-up commands are the ones CI
runs, and every relative link and picture in the README, ARCHITECTURE.md and ``docs/`` points at
a file that exists (and at a heading that exists, for a ``#anchor``), and no page or file of the
package cites a note a user does not have (the rules are ``docs/rules.md``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spades_ai

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "experiments" / "README.md",
         ROOT / "notebooks" / "README.md"]
#: The two commands of the README's set-up, which .ci/run runs verbatim.
SETUP_COMMANDS = ("pip install . && spades-ai", 'pip install -e ".[test]" && python -m pytest')

# [text](target) and ![alt](target); a target has no spaces (an optional "title" may follow)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without code: fenced blocks, indented blocks and inline code spans."""
    text = FENCE.sub("", text)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    return INLINE_CODE.sub("", text)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]{2,}|[`*]", "", heading).strip().lower()  # emphasis and code marks
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file's headings (a repeated heading gets ``-1``, ``-2``, ...)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        a = anchor(heading)
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    """The relative links and pictures of ``path`` that point at no file or at no heading."""
    problems = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        file, _, fragment = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            problems.append(f"{path.name}: {target}: no such file {dest}")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            problems.append(f"{path.name}: {target}: no heading #{fragment} in {dest.name}")
    return problems


def quick_start() -> str:
    """The first Python block under the README's "Quick start" heading."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "the README's Quick start has no python block"
    return match.group(1)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_and_picture_resolves(path):
    assert broken_links(path) == []


def test_the_docs_pages_exist():
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert {"rules.md", "agents.md", "tournaments.md", "analysis.md", "learning.md", "interop.md", "playing.md",
            "PROTOCOL.md", "speed.md", "testing.md"} <= pages
    readme = README.read_text(encoding="utf-8")
    assert all(f"(docs/{page})" in readme for page in pages), "every docs page is linked from the README"


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Title\n\n## A `code` heading: yes\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-code-heading-yes) [ok](other.md#twice-1) [ok](#here) ![pic](other.md)\n"
        "[web](https://example.org/x) `[code](nowhere.md)`\n\n    [indented](nowhere.md)\n\n"
        "```\n[fenced](nowhere.md)\n```\n\n## Here\n\n"
        "[gone](missing.md) ![gone](missing.png) [bad](other.md#no-such) [bad](#nowhere)\n"
    )
    problems = broken_links(page)
    assert len(problems) == 4, problems
    assert [p.split(": ")[1] for p in problems] == ["missing.md", "missing.png", "other.md#no-such", "#nowhere"]


def test_the_readme_setup_commands_are_the_ones_ci_runs():
    readme = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command in SETUP_COMMANDS:
        assert f"\n    {command}\n" in readme, f"the README lost its set-up command {command!r}"
        assert f"\n{command}\n" in ci, f".ci/run no longer runs {command!r}"


def test_the_readme_quick_start_runs(tmp_path):
    """The quick start, run as a script in an empty folder with this checkout's package."""
    script = tmp_path / "quick_start.py"
    script.write_text(quick_start(), encoding="utf-8")
    env = dict(os.environ)
    package_root = str(Path(spades_ai.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=900, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "seat 0: S:" in out  # the hand printed
    assert "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]" in out
    assert "contract" in out and "10,000 hands" in out
    assert re.search(r"normal\s+easy", out)  # the summary's row
    assert (tmp_path / "runs" / "quick" / "config.json").exists()


#: Citations a user of the package cannot follow: notes kept outside the repository (``RULES.md``,
#: ``../shared``, "seed 003", "every table of the seeds", "the seeds' timer"). The rules are
#: ``docs/rules.md``.
OUTSIDE_CITATION = re.compile(r"(?<![\w/])RULES\.md|\.\./shared|(?<![\w./-])shared/"
                              r"|(?i:\bseed 0\d\d\b|\bseeds'|\bof the seeds\b)")
#: The files a user has: the pages, and every text file of the package (docstrings, the page
#: of the browser table).
SHIPPED = [*PAGES, *sorted(p for p in (ROOT / "spades_ai").rglob("*")
                          if p.suffix in (".py", ".md", ".html", ".js", ".css", ".toml"))]


def outside_citations(path: Path) -> list[str]:
    """``file:line: text`` for each line of ``path`` that cites a note outside the repository."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name}:{i}: {line.strip()}"
            for i, line in enumerate(lines, 1) if OUTSIDE_CITATION.search(line)]


def test_the_docs_and_the_package_cite_only_files_a_user_has():
    found = [hit for path in SHIPPED for hit in outside_citations(path)]
    assert not found, "cite docs/rules.md instead of:\n" + "\n".join(found)


def test_the_citation_check_finds_each_form(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("see RULES.md\n`shared/RULES.md` explains\n[x](../shared/RULES.md)\nSeed 003's tables\n"
                    "the seeds' timer\nEvery table of the seeds\nsee docs/rules.md and [rules](rules.md)\n"
                    "the same seeds give the same numbers\nseed 7, `--seed 3`\n")
    assert [hit.split(":")[1] for hit in outside_citations(page)] == ["1", "2", "3", "4", "5", "6"]
