#!/usr/bin/env python3
"""The board in a real browser (headless Chromium): sorting, filtering and navigation by the
page's own script, driven by the URL (#sort=..&dir=..&<filter>=.., click=<id>,... clicks those
elements after loading), read back from the rendered DOM; no script errors; a screenshot of
every kind of page kept under <work dir>/screenshots. Exits 77 where Chromium is missing.

    check_browser.py <site dir> <work dir>             the fixture board (tests/score/CMakeLists.txt)
    check_browser.py <site dir> <work dir> --any-board every page kind of any board loads without
                                                       errors, a click sorts; screenshots kept
"""
import html.parser
import os
import shutil
import subprocess
import sys

site, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
chromium = next((c for c in ("chromium", "chromium-browser", "google-chrome") if shutil.which(c)), None)
if not chromium:
    print("SKIPPED: no chromium on PATH")
    sys.exit(77)
os.makedirs(os.path.join(work, "screenshots"), exist_ok=True)
failures = []
BASE = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
        "--user-data-dir=" + os.path.join(work, "profile"), "--enable-logging=stderr", "--v=0",
        "--virtual-time-budget=5000"]


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED: " + what)


class Dom(html.parser.HTMLParser):
    """Rows of table#<id> (attributes and cells' data-v), body attributes, h1 text, the error sink."""

    def __init__(self, table):
        super().__init__()
        self.table, self.rows, self.body, self.h1, self.errors = table, [], {}, "", None
        self._in_table = self._in_body = self._in_h1 = self._in_err = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "table" and a.get("id") == self.table:
            self._in_table = True
        elif tag == "tbody" and self._in_table:
            self._in_body = True
        elif tag == "tr" and self._in_table and self._in_body:
            self.rows.append({"attrs": a, "cells": []})
        elif tag == "td" and self._in_table and self._in_body and self.rows:
            self.rows[-1]["cells"].append(a.get("data-v"))
        elif tag == "h1":
            self._in_h1 = True
        elif tag == "pre" and a.get("id") == "js-errors":
            self._in_err, self.errors = True, ("hidden" in a, "")

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_table = self._in_body = False
        elif tag == "h1":
            self._in_h1 = False
        elif tag == "pre":
            self._in_err = False

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data
        if self._in_err:
            self.errors = (self.errors[0], self.errors[1] + data)


def load(page, hash_="", table="leaderboard", shot=None):
    url = "file://" + os.path.join(site, page) + (("#" + hash_) if hash_ else "")
    r = subprocess.run(BASE + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, f"{page}#{hash_}: chromium exited {r.returncode}")
    for line in r.stderr.splitlines():
        if "Uncaught" in line or ("CONSOLE" in line and "error" in line.lower()):
            check(False, f"{page}#{hash_}: script error: {line.strip()}")
    dom = Dom(table)
    dom.feed(r.stdout)
    check(dom.errors is not None and dom.errors[0] and not dom.errors[1].strip(),
          f"{page}#{hash_}: the page's error sink says {dom.errors}")
    if shot:
        subprocess.run(BASE + ["--window-size=1400,900", "--screenshot=" + os.path.join(work, "screenshots", shot), url],
                       capture_output=True, timeout=120)
    return dom


def visible(dom):
    return [r for r in dom.rows if "hidden" not in r["attrs"]]


COL = {"rank": 0, "agent": 1, "suite": 2, "category": 3, "gpu": 4, "date": 5, "run": 6, "speedup": 11, "speedup_all": 12}


def numbers(rows, key):
    return [float(r["cells"][COL[key]]) for r in rows if r["cells"][COL[key]] not in ("", None)]


if len(sys.argv) > 3 and sys.argv[3] == "--any-board":
    d = load("index.html", "click=th-speedup_all", shot="leaderboard.png")
    v = numbers(visible(d), "speedup_all")
    check(v == sorted(v, reverse=True), f"a click on the ranked geomean sorts descending: {v}")
    first = lambda folder: sorted(os.listdir(os.path.join(site, folder)))[0]
    for page in ["categories.html", "history.html", "audit.html", "runs.html", "tasks/" + first("tasks"),
                 "trajectories/" + first("trajectories")]:
        d = load(page, table="-", shot=os.path.basename(page).replace(".html", ".png"))
        check(d.body.get("data-ready") == "1", f"{page}: the script ran to the end")
    if failures:
        sys.exit(1)
    print("board in Chromium: OK; screenshots in " + os.path.join(work, "screenshots"))
    sys.exit(0)

# Default: every suite, category "all" only, sorted by rank.
d = load("index.html", shot="leaderboard.png")
rows = visible(d)
check(d.body.get("data-ready") == "1", "index.html: the script ran to the end")
check(len(rows) == 9 and all(r["attrs"].get("data-category") == "all" for r in rows),
      f"index.html: 9 entries of category all shown (got {len(rows)})")
check(numbers(rows, "rank") == sorted(numbers(rows, "rank")), "index.html: sorted by rank")

# Filter by suite and sort by the ranked geomean, descending.
d = load("index.html", "suite=hip2hip&sort=speedup_all&dir=desc")
rows = visible(d)
check({r["attrs"]["data-suite"] for r in rows} == {"hip2hip"} and len(rows) == 4, f"suite filter: 4 hip2hip rows ({len(rows)})")
v = numbers(rows, "speedup_all")
check(v == sorted(v, reverse=True) and rows[0]["cells"][COL["run"]] == "r1-alpha", f"sorted by speedup_all desc: {v}")

# Category and GPU filters.
d = load("index.html", "category=gemm")
rows = visible(d)
check(len(rows) >= 2 and all(r["attrs"]["data-category"] == "gemm" for r in rows), "category filter")
d = load("index.html", "gpu=NVIDIA%20H200")
rows = visible(d)
check(len(rows) == 1 and rows[0]["cells"][COL["run"]] == "real-all-pass", "GPU filter: only the H200 run")
d = load("index.html", "date=2026-11-06")
check([r["cells"][COL["run"]] for r in visible(d)] == ["r4-beta-failed"], "date filter")

# Sorting by clicking a column: first click sorts a numeric column descending, the second ascending.
d = load("index.html", "suite=torch2hip&click=th-speedup")
v = numbers(visible(d), "speedup")
check(len(v) == 2 and v == sorted(v, reverse=True), f"one click on Geomean speedup: descending {v}")
check("dir=desc" in d.body.get("data-state", "") and "sort=speedup" in d.body.get("data-state", ""),
      f"the state is in the URL: {d.body.get('data-state')}")
d = load("index.html", "suite=torch2hip&click=th-speedup,th-speedup")
v = numbers(visible(d), "speedup")
check(v == sorted(v), f"two clicks: ascending {v}")
d = load("index.html", "click=th-agent")
names = [r["cells"][COL["agent"]] for r in visible(d)]
check(names == sorted(names), f"a click on Agent sorts by name: {names}")

# Navigation by clicking: the audit's first link opens the task page.
d = load("audit.html", "click=audit-link-0", table="audit")
check(d.h1.startswith("hip2hip/") or d.h1.startswith("torch2hip/") or d.h1.startswith("triton2triton/"),
      f"clicking the audit's first link opens a task page (got '{d.h1}')")

# Every kind of page renders without script errors; screenshots kept.
for page, shot, table in [("categories.html", "categories.png", "categories"), ("history.html", "history.png", "-"),
                          ("audit.html", "audit.png", "audit"), ("runs.html", "runs.png", "-"),
                          ("tasks/hip2hip__gemm_f32.html", "task.png", "-"),
                          ("trajectories/r1-alpha__hip2hip__gemm_f32.html", "trajectory.png", "checks")]:
    d = load(page, table=table, shot=shot)
    check(d.body.get("data-ready") == "1", f"{page}: the script ran to the end")
    check(os.path.getsize(os.path.join(work, "screenshots", shot)) > 5000, f"{page}: screenshot written")
d = load("trajectories/r1-alpha__hip2hip__gemm_f32.html", table="checks")
check(len(d.rows) == 5, f"the trajectory shows 5 checks (got {len(d.rows)})")
if failures:
    sys.exit(1)
print("board in Chromium: OK; screenshots in " + os.path.join(work, "screenshots"))
