"""Screenshots of a report for docs/img/: the page at 1400 px wide and on a 1280x800 laptop, in headless Chromium.

    python scripts/report_screenshots.py runs/wikidata12k/report/report.html docs/img

Writes report-top-1400.png (cards, warnings, composition), report-retrieval-1400.png (the table, its legend,
the CCR bars), report-significance-1400.png, explorer-list-1280.png (the question list as a laptop shows
it: at 1400 px it is the same, the page being 1200 px wide), explorer-list-1024.png (a narrow window: the
list scrolls sideways under a line that says so) and explorer-question-1280.png (a question opened from
"fails everywhere": the view the link brings into sight).
Each is one viewport high at most, so the files stay small. Needs Debian's ``chromium``.
"""

from __future__ import annotations

import base64
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cdp import Browser, find_chromium

READY = "document.body && document.body.getAttribute('data-explorer') === 'ready'"


def _shot(b: Browser, out: Path, top_js: str, width: int, height: int) -> None:
    """A PNG of ``height`` px of the page from the document y that ``top_js`` gives."""
    y = b.js(f"Math.max(0, Math.round({top_js}))")
    left = b.js("Math.max(0, Math.round(document.querySelector('h1').getBoundingClientRect().left + scrollX - 16))")
    clip = {"x": left, "y": y, "width": width - 2 * left, "height": height, "scale": 1}
    params = {"format": "png", "captureBeyondViewport": True, "clip": clip}
    out.write_bytes(base64.b64decode(b.call("Page.captureScreenshot", params, session=True)["data"]))
    print(f"{out} ({out.stat().st_size // 1024} KB)")


def _doc_top(selector: str, offset: int = 0) -> str:
    return f"document.querySelector({selector!r}).getBoundingClientRect().top + scrollY + {offset}"


def main(page: Path, out: Path) -> None:
    """Write the screenshots of the report ``page`` into the folder ``out``."""
    exe = find_chromium()
    if exe is None:
        raise SystemExit("chromium not found: apt-get install -y chromium")
    out.mkdir(parents=True, exist_ok=True)
    with Browser(exe, width=1400, height=900) as b:
        b.open(page, ready=READY)
        _shot(b, out / "report-top-1400.png", "0", 1400, 900)
        last = "Array.from(document.querySelectorAll('svg.sigmatrix')).pop()"  # the answer folders' matrix
        sig_h = b.js(f"Math.round({last}.getBoundingClientRect().height) + 110")
        sig_top = f"{last}.getBoundingClientRect().top + scrollY - 100"
        _shot(b, out / "report-significance-1400.png", sig_top, 1400, min(sig_h, 800))
        _shot(b, out / "report-retrieval-1400.png", _doc_top("h2:nth-of-type(3)", -8), 1400, 760)  # Retrieval
    with Browser(exe, width=1280, height=800) as b:
        b.open(page, ready=READY)
        _shot(b, out / "explorer-list-1280.png", _doc_top("#cq-explorer", -8), 1280, 800)
        b.click("#fails a")
        b.wait_for("document.getElementById('cq-timeline') !== null")
        time.sleep(1.5)  # the highlight around the opened question fades
        _shot(b, out / "explorer-question-1280.png", "scrollY", 1280, 800)
    with Browser(exe, width=1024, height=700) as b:
        b.open(page, ready=READY)
        _shot(b, out / "explorer-list-1024.png", _doc_top("#cq-explorer", -8), 1024, 700)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
