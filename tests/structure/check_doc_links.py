#!/usr/bin/env python3
"""Relative links in the documentation point somewhere (standard library only).

Every relative link or image in the project's Markdown pages (README.md, docs/, the suite, task,
agent and test READMEs: every *.md outside hidden folders, build*/ folders and the scored runs
under results/) must name a file or folder that exists, and a #anchor on a Markdown file (or on
the page itself) must name one of its headings, slugged as GitHub slugs them. Links in code
blocks and inline code, and links with a scheme (https:, mailto:), are not checked.

Before the project's pages, the check is shown to fail on a fixture tree with broken links.

    check_doc_links.py [project root]"""
import os
import re
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+).*?\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.I)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:id|name)=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
ANCHORS = {}  # Markdown file -> its anchors, read once


def prose_lines(text):
    """(line number, line) of the text outside fenced code blocks."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, line


def slug(heading):
    """The anchor GitHub gives a heading: the rendered text, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """The anchors a Markdown file defines: its headings' slugs (repeats get -1, -2, ...) and
    explicit <a id=...> / <a name=...>."""
    if path not in ANCHORS:
        seen, found = {}, set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line in prose_lines(text):
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            found.update(HTML_ANCHOR.findall(line))
        ANCHORS[path] = found
    return ANCHORS[path]


def link_targets(text):
    """(line number, target) of every link and image outside code."""
    for number, line in prose_lines(text):
        m = REFERENCE_DEF.match(line)
        if m:
            yield number, m.group(1)
        line = INLINE_CODE.sub("", line)
        for m in INLINE_LINK.finditer(line):
            yield number, m.group(1)
        for target in HTML_LINK.findall(line):
            yield number, target


def problems_in(page, root):
    """One line per broken link of page (a path relative to root)."""
    out = []
    path = os.path.join(root, page)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for number, target in link_targets(text):
        target = target.strip("<>")
        if SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        file_part = urllib.parse.unquote(file_part.split("?")[0])
        if not file_part:
            dest = path
        elif file_part.startswith("/"):
            dest = os.path.join(root, file_part.lstrip("/"))
        else:
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        where = f"{page}:{number}: link '{target}'"
        if not os.path.exists(dest):
            out.append(f"{where} points to {os.path.relpath(dest, root)}, which does not exist")
        elif anchor and dest.endswith(".md") and os.path.isfile(dest):
            if urllib.parse.unquote(anchor) not in anchors(dest):
                out.append(f"{where}: {os.path.relpath(dest, root)} has no heading with anchor #{anchor}")
    return out


def skipped(folder):
    """Folders whose Markdown is not the project's: hidden ones, build trees, scored runs."""
    parts = folder.split(os.sep)
    return (any(p.startswith(".") for p in parts) or parts[0].startswith("build")
            or (parts[0] == "results" and len(parts) > 1))


def pages_of(root):
    found = []
    for folder, subfolders, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel != "." and skipped(rel):
            subfolders[:] = []
            continue
        found += [os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(".md")]
    return sorted(found)


def check_tree(root):
    out = []
    for page in pages_of(root):
        out += problems_in(page, root)
    return out


FIXTURE = {
    "README.md": """# Fixture

## Set up and run
## Set up and run
Good: [design](docs/design.md#process-model), [again](#set-up-and-run-1), [folder](docs/),
[web](https://example.org/nowhere.md), ![shot](docs/shot.png), [ref][r], <a href="docs/design.md">x</a>.
Inline code is not a link: `[a](missing-in-code.md)`.

```
[in a fence](missing-in-fence.md)
```

Broken: [file](docs/missing.md) and [anchor](docs/design.md#no-such-heading).
Broken here: [self](#nowhere) and ![image](docs/missing.png).

[r]: docs/design.md#the-judges-rules-v2
""",
    "docs/design.md": """# Design

## Process model

## The judge's rules (v2)

Back: [readme](../README.md#fixture), [broken](../READ_ME.md).
""",
    "docs/shot.png": "",
    "tests/deep/README.md": "[up](../../docs/design.md#process-model) [gone](../../docs/gone.md)\n",
    "build/x/notes.md": "[not checked](nowhere.md)\n",
    "results/run1/summary.md": "[not checked](nowhere.md)\n",
    ".hidden/notes.md": "[not checked](nowhere.md)\n",
}
FIXTURE_EXPECTED = [
    "README.md:13: link 'docs/missing.md' points to docs/missing.md, which does not exist",
    "README.md:13: link 'docs/design.md#no-such-heading': docs/design.md has no heading with anchor #no-such-heading",
    "README.md:14: link '#nowhere': README.md has no heading with anchor #nowhere",
    "README.md:14: link 'docs/missing.png' points to docs/missing.png, which does not exist",
    "docs/design.md:7: link '../READ_ME.md' points to READ_ME.md, which does not exist",
    "tests/deep/README.md:1: link '../../docs/gone.md' points to docs/gone.md, which does not exist",
]


def main():
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    failures = 0

    with tempfile.TemporaryDirectory() as fixture:
        for name, text in FIXTURE.items():
            os.makedirs(os.path.dirname(os.path.join(fixture, name)), exist_ok=True)
            with open(os.path.join(fixture, name), "w", encoding="utf-8") as f:
                f.write(text)
        got = check_tree(fixture)
    if got == FIXTURE_EXPECTED:
        print("ok      the fixture's six broken links are found, and nothing else")
    else:
        failures += 1
        print("FAILED: on the fixture tree the check found:\n  " + "\n  ".join(got or ["nothing"]))
        print("  where it should have found:\n  " + "\n  ".join(FIXTURE_EXPECTED))

    pages = pages_of(root)
    if not pages or "README.md" not in pages:
        print(f"FAILED: no README.md under {root}")
        return 1
    for problem in check_tree(root):
        failures += 1
        print("FAILED: " + problem)
    if failures == 0:
        print(f"ok      every relative link of {len(pages)} pages points to a file and heading that exist")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
