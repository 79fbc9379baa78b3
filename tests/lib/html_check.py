#!/usr/bin/python3
"""Look at a results folder's summary.html in a real browser.

Usage: html_check.py PAGE SCREENSHOT.png

Opens PAGE (summary.html or compare.html) in Debian's chromium, headless,
driven by chromedriver through python3-selenium (Debian's python3, where
those packages are), and prints one TAP-like line per check,
"ok - ..." or "not ok - ...", for the calling .t file to count:
  - the page parses as HTML5 without a parse error (html5lib, strict);
  - the browser logged no console error;
  - it has one inline <svg> per plots/*.svg beside it, and no plot is
    named as missing;
  - each plot is drawn: a screenshot of the element has non-background
    pixels over a meaningful share of its area, some of them in colour;
  - the verdict of the Markdown beside it (its "## Verdict" section, for
    summary.md) is in the page's text, line by line;
and saves a full-page screenshot to SCREENSHOT.png for a person to see.
"""
import base64
import io
import os
import re
import shutil
import sys
import tempfile

import html5lib
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

# a plot is drawn when this share of its pixels is not the background
# (the frame, grid and labels alone are about 2 %) ...
MIN_INK = 0.01
# ... and some are in colour: at least the key's samples of the variants
# (a variant without data, as off's hint faults, lies on the axis)
MIN_COLOUR = 0.0001


def check(ok, what):
    print(("ok - " if ok else "not ok - ") + what, flush=True)
    return ok


def browser(profile):
    o = Options()
    o.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
              "--window-size=1280,1000", "--user-data-dir=" + profile):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(executable_path=drv), options=o)


def ink(png):
    """Shares of the pixels unlike the background (the most common colour),
    and of those in colour."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    img = img.crop((2, 2, w - 2, h - 2))	# not the page's border around it
    n = img.width * img.height
    bg = max(img.getcolors(n))[1]
    inked = coloured = 0
    for (r, g, b) in img.getdata():
        if abs(r - bg[0]) + abs(g - bg[1]) + abs(b - bg[2]) > 48:
            inked += 1
            if max(r, g, b) - min(r, g, b) > 80:
                coloured += 1
    return inked / n, coloured / n, w, h


def words(text):
    """TEXT as its words and figures, without Markdown's list marks."""
    text = re.sub(r"^\s*([-*]|\d+\.)\s", "", text, flags=re.M)
    return " ".join(re.findall(r"[\w.+%-]+", text))


def verdict_lines(md):
    """The lines of the Markdown's Verdict section, as words."""
    out, inside = [], False
    for line in md.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Verdict"
            continue
        if inside and words(line):
            out.append(words(line))
    return out


def plots_drawn(driver, folder):
    svgs = driver.find_elements(By.CSS_SELECTOR, "figure > svg")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".svg")) \
        if os.path.isdir(folder) else []
    check(len(svgs) == len(files),
          f"{len(svgs)} inline plots for the {len(files)} SVGs in plots/")
    missing = driver.find_elements(By.CSS_SELECTOR, "figure .missing")
    check(not missing, "no plot named as not drawn" +
          "".join(f"; {m.text}" for m in missing))
    for svg in svgs:
        name = svg.find_element(By.XPATH, "..").get_attribute("id")
        driver.execute_script("arguments[0].scrollIntoView()", svg)
        share, colour, w, h = ink(svg.screenshot_as_png)
        check(w >= 400 and h >= 200 and share >= MIN_INK and colour >= MIN_COLOUR,
              f"{name} drawn: {w}x{h} px, {100 * share:.1f} % inked, "
              f"{100 * colour:.2f} % in colour")


def full_page(driver, path):
    m = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": m["width"], "height": m["height"], "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    return int(m["width"]), int(m["height"])


def main():
    page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
    folder = os.path.dirname(page)
    with open(page, "rb") as f:
        text = f.read()
    try:
        html5lib.HTMLParser(strict=True).parse(text)
        check(True, "the page parses as HTML5 without an error")
    except html5lib.html5parser.ParseError as e:
        check(False, f"the page parses as HTML5 without an error: {e}")
    profile = tempfile.mkdtemp(prefix="bnb-chromium-")
    driver = browser(profile)
    try:
        driver.get("file://" + page)
        plots_drawn(driver, os.path.join(folder, "plots"))
        body = words(driver.find_element(By.TAG_NAME, "body").text)
        md = os.path.splitext(page)[0] + ".md"
        with open(md, encoding="utf-8", errors="replace") as f:
            want = verdict_lines(f.read())
        if os.path.basename(md) == "summary.md":
            lost = [w for w in want if w not in body]
            check(want and not lost, f"the verdict's {len(want)} lines are in the page's "
                  "text" + "".join(f"; missing: {w}" for w in lost))
        w, h = full_page(driver, shot)
        check(os.path.getsize(shot) > 10000, f"a full-page screenshot, {w}x{h} px: {shot}")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, "no console error" +
              "".join(f"; {e['message']}" for e in errors))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
