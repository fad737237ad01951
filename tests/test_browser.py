"""The HTML report and an SVG picture in a real browser: headless Chromium
(Debian's ``chromium``, installed by .ci/setup where it can) loads each file, its DOM after
loading holds the expected elements, and its screenshot is not blank and shows the red marks
of the differing cells.  Skips with the reason when there is no Chromium here."""

import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import layoutcheck.fuzz.campaign.runner as C
import pytest
from cluster_support import COALESCE_BUG as BROKEN

from layoutcheck.reports.html import render

BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))
                if p), None)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium here (apt-get install "
                                "chromium; .ci/setup does where it runs as root)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1"]
ROOT = Path(__file__).resolve().parent.parent
MARK = (208, 0, 0)  # the stroke of a marked cell (#d00000)


def chromium(tmp_path, *args, timeout=120):
    profile = tmp_path / f"profile{len(list(tmp_path.glob('profile*')))}"
    p = subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


class Dom(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def count(self, tag, cls=None):
        return sum(1 for t, a in self.tags if t == tag and (cls is None or cls in
                                                           (a.get("class") or "").split()))


def screenshot(tmp_path, url, size):
    PIL = pytest.importorskip("PIL.Image", reason="Pillow (a matplotlib dependency) reads the "
                              "screenshot")
    png = tmp_path / "shot.png"
    chromium(tmp_path, f"--screenshot={png}", f"--window-size={size}", url)
    import numpy as np
    img = np.asarray(PIL.open(png).convert("RGB")).astype(int)
    return img, img.reshape(-1, 3)


def assert_not_blank(pixels, min_ink=0.01, min_colours=12):
    ink = float((pixels.sum(axis=1) < 720).mean())
    assert ink > min_ink, f"only {ink:.2%} of the screenshot is not white"
    assert len({tuple(p) for p in pixels[::7]}) >= min_colours


def red_marks(pixels, tol=40):
    """How many pixels have the colour of a marked cell's border."""
    return int((abs(pixels - MARK) <= tol).all(axis=1).sum())


def test_the_svg_picture_of_F030_renders(tmp_path):
    svg = ROOT / "docs" / "F-030.svg"
    dom = Dom(chromium(tmp_path, "--dump-dom", svg.as_uri()))
    assert dom.count("rect", "cell") == 8 and dom.count("rect", "diff") == 4
    img, pixels = screenshot(tmp_path, svg.as_uri(), "900,260")
    assert_not_blank(pixels)
    assert red_marks(pixels) > 40, "the marked cells' red borders are visible"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from layoutcheck.oracles import get_oracle
    why = get_oracle("pycute").unavailable_reason()
    if why:
        pytest.skip(f"the report's oracle is a patched pycute: {why}")
    folder = tmp_path_factory.mktemp("browser")
    (folder / "lc_browser_broken.py").write_text(BROKEN)
    sys.path.insert(0, str(folder))
    try:
        report = C.run_campaign(oracles=["module:lc_browser_broken"],
                                checks=["law.coalesce.function", "diff.size"], max_examples=60,
                                seed=1, use_db=False)
    finally:
        sys.path.remove(str(folder))
    assert report["exit_status"] == 1  # the broken coalesce is caught: a failure to draw
    path = folder / "report.html"
    path.write_text(render(report))
    return path, report


def test_the_html_report_renders_with_its_elements(page, tmp_path):
    path, report = page
    dom = Dom(chromium(tmp_path, "--dump-dom", path.as_uri()))
    assert dom.count("table", "checks") == 1
    assert dom.count("tr", "row") == len(report["results"])
    assert dom.count("article", "failure") >= 1 and dom.count("figure", "picture") >= 1
    assert dom.count("rect", "diff") >= 1 and dom.count("figure", "plot") == 1
    assert dom.count("pre", "replay") >= 1 and dom.count("svg") >= 2
    img, pixels = screenshot(tmp_path, path.as_uri(), "1280,2200")
    assert_not_blank(pixels, min_colours=40)
    assert red_marks(pixels) > 40
    assert (img[:160, :700].sum(axis=2) < 200).any(), "the title is drawn at the top"
