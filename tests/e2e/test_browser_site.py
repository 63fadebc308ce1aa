"""The generated site as a browser sees it: headless Chromium loads the pages,
the encoding diagram is in the rendered DOM, and the screenshot is not blank."""
import re
import struct
import subprocess
import zlib

import pytest

from conftest import need_tool

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--no-first-run", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def site(spec_site):
    return spec_site


def _chromium(tmp_path, *args):
    exe = need_tool("chromium")
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=90)


def test_instruction_page_renders_its_encoding(site, tmp_path):
    res = _chromium(tmp_path, "--dump-dom", (site / "insn" / "add.html").as_uri())
    dom = res.stdout
    assert "<h1><code>add</code>" in dom, res.stderr[-2000:]
    assert '<svg class="encoding"' in dom
    for label in ("PO", "RT", "RA", "RB", "OE", "XO", "Rc"):
        assert f'data-field="{label}"' in dom
        assert f'text-anchor="middle">{label}</text>' in dom
    assert ">266</text>" in dom and ">31</text>" in dom


def test_index_and_opcode_map_load(site, tmp_path):
    res = _chromium(tmp_path, "--dump-dom", (site / "index.html").as_uri())
    assert 'href="insn/add.html"' in res.stdout, res.stderr[-2000:]
    res = _chromium(tmp_path, "--dump-dom", (site / "po22.html").as_uri())
    assert '<svg class="po22"' in res.stdout and "key values are free" in res.stdout


def _png_pixels(data):
    """Rows of RGB(A) bytes of an 8-bit non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def test_screenshot_shows_the_diagram(site, tmp_path):
    shot = tmp_path / "add.png"
    res = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=900,500",
                    (site / "insn" / "add.html").as_uri())
    assert shot.is_file(), res.stderr[-2000:]
    width, height, bpp, rows = _png_pixels(shot.read_bytes())
    assert (width, height) == (900, 500)
    colours = {row[i:i + 3] for row in rows[::4] for i in range(0, len(row), bpp * 4)}
    assert len(colours) > 10  # text, boxes and the constant-field fill: not a blank page
    light_blue = [c for c in colours if c[2] > 230 and c[0] < 235 and c[2] - c[0] > 10]
    assert light_blue, "the constant fields' fill colour is not on screen"


def _shots_dir(tmp_path):
    """Where screenshots go: $ISA_EXT_SCREENSHOTS (CI keeps them as artifacts,
    .ci/run sets it) or the test's temporary directory."""
    import os
    d = os.environ.get("ISA_EXT_SCREENSHOTS")
    if d:
        os.makedirs(d, exist_ok=True)
        return __import__("pathlib").Path(d)
    return tmp_path


def _not_blank(shot, size):
    width, height, bpp, rows = _png_pixels(shot.read_bytes())
    assert (width, height) == size
    colours = {row[i:i + 3] for row in rows[::4] for i in range(0, len(row), bpp * 4)}
    return len(colours) > 10


@pytest.mark.parametrize("page, expect", [
    ("svp64/prefix.html", ['data-field="PO"', 'data-field="RM[2:23]"']),
    ("svp64/rm.html", ['data-field="MODE"', 'id="cat-RM-1P-2S1D"']),
    ("svp64/modes.html", ["VLi 1 inv CRbit", "mapreduce"]),
    ("svp64/extra.html", ["EXTRA3", "EXTRA2"]),
    ("svp64/svstate.html", ['data-field="srcstep"', 'data-field="SVme"']),
    ("svp64/svshape.html", ['data-field="xdimsz"']),
    ("svp64/remap.html", ["0 1 2 3 4 5"]),
    ("errata.html", ["<h3", 'href="insn/mv.swiz.html"']),
])
def test_svp64_and_errata_pages_render_with_screenshots(site, tmp_path, page, expect):
    res = _chromium(tmp_path, "--dump-dom", (site / page).as_uri())
    for text in expect:
        assert text in res.stdout, (page, text, res.stderr[-2000:])
    shot = _shots_dir(tmp_path) / (page.replace("/", "-").replace(".html", ".png"))
    _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1300,700",
              (site / page).as_uri())
    assert shot.is_file() and _not_blank(shot, (1300, 700)), page


def test_search_finds_pages_in_the_browser(site, tmp_path):
    # the query comes in the URL; the page's script fills the result list
    url = (site / "search.html").as_uri() + "?q=mv.swiz"
    dom = _chromium(tmp_path, "--dump-dom", url).stdout
    m = re.search(r'<ul id="results" data-count="(\d+)">(.*?)</ul>', dom, re.S)
    assert m and int(m.group(1)) >= 1, dom[-2000:]
    assert 'href="insn/mv.swiz.html"' in m.group(2)
    dom = _chromium(tmp_path, "--dump-dom", (site / "search.html").as_uri() + "?q=svstate").stdout
    assert 'href="svp64/svstate.html"' in dom
    shot = _shots_dir(tmp_path) / "search.png"
    _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1300,700", url)
    assert shot.is_file()
