#!/usr/bin/env python3
"""report_check.py DIR: render DIR/index.html in headless Chromium; check that every plot
loaded (the page's own count, written into its title after the load event) and that the
screenshot is not blank. Standard library only. Exit 0 pass, 1 fail, 77 skip (no Chromium)."""
import os, re, shutil, struct, subprocess, sys, zlib

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None

def png_pixels(path):
    """Decode an 8-bit RGB/RGBA PNG into (width, height, channels, bytes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, out, prev = zlib.decompress(idat), w * ch, bytearray(), bytearray(w * ch)
    for y in range(h):
        f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - ch] if i >= ch else 0
            b, c = prev[i], prev[i - ch] if i >= ch else 0
            if f == 1: row[i] = (row[i] + a) & 255
            elif f == 2: row[i] = (row[i] + b) & 255
            elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    return w, h, ch, bytes(out)

def main():
    d = os.path.abspath(sys.argv[1])
    exe = chromium()
    if not exe:
        print("chromium not installed: skipped")
        return 77
    url = "file://" + os.path.join(d, "index.html")
    base = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--virtual-time-budget=10000"]
    dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    plots = len(re.findall(r'<img class="plot"', dom))
    m = re.search(r"<title>varbench report: (\d+)/(\d+) plots loaded</title>", dom)
    print("plots in the page:", plots, "| title:", m.group(0) if m else None)
    if not m or plots == 0 or int(m.group(1)) != plots or int(m.group(2)) != plots:
        print("FAIL: not every plot loaded")
        return 1
    shot = os.path.join(d, "screenshot.png")
    subprocess.run(base + ["--window-size=1200,2000", "--screenshot=" + shot, url],
                   capture_output=True, timeout=120)
    w, h, ch, px = png_pixels(shot)
    colors, dark = set(), 0
    for i in range(0, len(px), ch * 7):  # every 7th pixel is plenty
        rgb = px[i:i + 3]
        colors.add(bytes(rgb))
        dark += sum(rgb) < 600
    frac = dark / (len(px) / (ch * 7))
    print("screenshot %dx%d: %d colours, %.1f%% non-white" % (w, h, len(colors), 100 * frac))
    if len(colors) < 8 or frac < 0.01:
        print("FAIL: the screenshot is blank")
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
