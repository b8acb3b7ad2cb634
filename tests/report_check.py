#!/usr/bin/env python3
"""report_check.py: render a varbench report in headless Chromium and check what it shows.

usage: report_check.py DIR [--require KIND[,KIND...]]... [--escaped TEXT]...

  DIR               a report folder (DIR/index.html and the figNN.svg files beside it)
  --require KINDS   each KIND (ladder, timeline, hardware, history, sweep, traced, spread)
                    must appear as at least one <figure class="plot" data-kind="KIND">
  --escaped TEXT    a raw name (e.g. '<b>fixture&host</b>') that must reach the page as text:
                    the DOM holds it, unescaped, in a text node or attribute value (its source
                    was '&lt;b&gt;...'), and holds no markup made from it (no <b> element with
                    its text). Repeatable; write --escaped=TEXT for a TEXT starting with '-'.

Checks, each a FAIL when it does not hold (all are run; the output names every failure):
  - every plot loaded: the page writes "varbench report: N/M plots loaded" into its title after
    its load event; N and M must equal the number of <img class="plot"> in the DOM;
  - every figure has a data-kind from the list above and an SVG file in DIR that parses;
  - every figure's SVG draws data: gnuplot puts each plot in <g id="gnuplot_plot_N">; at least
    one path of more than a single point, polygon, rect, point (<use>) or image in those groups,
    the key's sample beside each key title not counted (without such groups: any drawn element
    but the white background);
  - no overlapping text labels, where it can tell: each gnuplot label <g transform="translate(X,Y)
    rotate(A)" font-size=.. text-anchor=..><text>..</text></g> gets a box 0.55 x font-size per
    character wide and font-size high, placed by its anchor; two labels of the same rotation
    overlap when their boxes, compared in the frame of that rotation (exact for two boxes turned
    alike, where axis-aligned bounding boxes of slanted tick labels would overlap on tidy plots),
    share more than 20% of the smaller box's area. Unrotated labels are compared only within one
    row (same Y: a row of tick labels) or one column (same X); rotated ones all with each other.
    The first 10 pairs of each SVG are printed;
  - a figure whose y axis is numbers (ladder, sweep, traced, history) shows at least two of
    them (on a log axis gnuplot numbers only powers of ten: a ladder's range within one decade
    showed one number, or none); every bar of a ladder carries its label (its figure's .dat
    beside the SVG: the legend promises one);
  - the screenshot (DIR/screenshot.png, written by this check) is not blank;
  - the --require and --escaped conditions above.

Prints a line per figure kind ("ladder: 12 figures, 12 SVGs non-empty, 0 label overlaps") and a
last line PASS or FAIL. Standard library only. Exit 0 pass, 1 fail, 2 usage, 77 skip (no
Chromium).
"""
import argparse, math, os, re, shutil, struct, subprocess, sys, zlib
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import unquote, urlparse

KINDS = ("ladder", "timeline", "hardware", "history", "sweep", "traced", "spread")
CHAR_W = 0.55  # estimated glyph width, in font sizes
OVERLAP = 0.20  # of the smaller box's area
SAME = 1.0  # px: labels this close in Y (X) share a row (column)
SHOWN = 10  # overlapping pairs printed per SVG
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


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


# ---------------------------------------------------------------------------- the DOM

class Dom(HTMLParser):
    """Tokens of an HTML text, its text nodes and attribute values, and its figures."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tokens, self.texts, self.attr_values = [], [], []
        self.figures, self.plot_imgs = [], 0
        self.stack_figure, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.tokens.append(("s", tag, tuple((k, v or "") for k, v in attrs)))
        a = dict((k, v or "") for k, v in attrs)
        self.attr_values.extend(v for _, v in attrs if v)
        if tag in ("script", "style"):
            self.skip += 1
        if tag == "figure":
            self.stack_figure.append(len(self.figures))
            self.figures.append({"kind": a.get("data-kind"), "class": a.get("class", "").split(),
                                 "imgs": []})
        if tag == "img" and "plot" in a.get("class", "").split():
            self.plot_imgs += 1
            if self.stack_figure:
                self.figures[self.stack_figure[-1]]["imgs"].append(a.get("src", ""))
        if tag in VOID:  # never an end tag in the DOM: close it here
            self.tokens.append(("e", tag))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.tokens.append(("e", tag))
        if tag in ("script", "style") and self.skip:
            self.skip -= 1
        if tag == "figure" and self.stack_figure:
            self.stack_figure.pop()

    def handle_data(self, data):
        if self.tokens and self.tokens[-1][0] == "d":
            self.tokens[-1] = ("d", self.tokens[-1][1] + data)
        else:
            self.tokens.append(("d", data))
        if not self.skip:
            if self.texts and self.texts[-1][1] == len(self.tokens):
                self.texts[-1] = (self.texts[-1][0] + data, len(self.tokens))
            else:
                self.texts.append((data, len(self.tokens)))

    def canonical(self):
        """The token stream as one string, tags as \\x01...\\x02, text as it reads."""
        out = []
        for t in self.tokens:
            if t[0] == "s":
                out.append("\x01" + t[1] + "".join(" %s=%s" % kv for kv in t[2]) + "\x02")
            elif t[0] == "e":
                out.append("\x01/" + t[1] + "\x02")
            else:
                out.append(t[1].replace("\x01", "").replace("\x02", ""))
        return "".join(out)


def parse_html(text):
    p = Dom()
    p.feed(text)
    p.close()
    return p


def escaped_check(dom, dom_canon, raw):
    """Problems with raw's escaping in the DOM (empty when it arrived as text)."""
    bad = []
    mine = parse_html(raw)
    if any(t[0] != "d" for t in mine.tokens):
        canon = mine.canonical()
        if canon in dom_canon:
            i = dom_canon.index(canon)
            ctx = dom_canon[max(0, i - 20):i + len(canon) + 10]
            ctx = " ".join(ctx.replace("\x01", "<").replace("\x02", ">").split())
            bad.append("markup made from %r is in the DOM: ...%s..." % (raw, ctx))
    in_text = any(raw in t for t, _ in dom.texts)
    in_attr = any(raw in v for v in dom.attr_values)
    if not in_text and not in_attr:
        bad.append("%r is not in the DOM's text (no %r in the page)" %
                   (raw, raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")))
    return bad, in_text, in_attr


# ---------------------------------------------------------------------------- the SVGs

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def parse_transform(tr):
    """(tx, ty, angle) of 'translate(x,y) rotate(a)', or None for anything else."""
    tx = ty = ang = 0.0
    pos = 0
    for m in re.finditer(r"\s*(\w+)\s*\(([^)]*)\)\s*,?", tr or ""):
        if m.start() != pos:
            return None
        pos = m.end()
        args = [float(v) for v in re.findall(NUM, m.group(2))]
        if m.group(1) == "translate" and 1 <= len(args) <= 2 and ang == 0:
            tx, ty = tx + args[0], ty + (args[1] if len(args) > 1 else 0.0)
        elif m.group(1) == "rotate" and len(args) == 1:
            ang += args[0]
        else:
            return None
    if pos != len((tr or "").rstrip()):
        return None
    return tx, ty, ang


def font_px(v):
    m = re.match(r"\s*(" + NUM + r")\s*(px|pt)?\s*$", v or "")
    if not m:
        return None
    return float(m.group(1)) * (4.0 / 3 if m.group(2) == "pt" else 1.0)


def labels_of(root, parents):
    """Every text label: dict(text, x, y, angle, anchor, size)."""
    out = []
    for t in root.iter():
        if local(t.tag) != "text":
            continue
        s = "".join(t.itertext())
        if not s.strip():
            continue
        ang = 0.0
        size = anchor = None
        try:
            x = float((t.get("x") or "0").split()[0])
            y = float((t.get("y") or "0").split()[0])
        except ValueError:
            continue
        node, ok = t, True
        while node is not None:  # walk up, composing translate/rotate (gnuplot: one level)
            if size is None:
                size = font_px(node.get("font-size"))
            if anchor is None:
                anchor = node.get("text-anchor")
            if node.get("transform"):
                p = parse_transform(node.get("transform"))
                if p is None:
                    ok = False
                    break
                c, s_ = math.cos(math.radians(p[2])), math.sin(math.radians(p[2]))
                x, y = p[0] + c * x - s_ * y, p[1] + s_ * x + c * y
                ang += p[2]
            node = parents.get(node)
        if not ok:
            continue  # a transform this check cannot place: leave the label out
        out.append({"text": s, "x": x, "y": y, "angle": round(ang % 360.0, 1) % 360.0,
                    "anchor": anchor or "start", "size": size or 12.0})
    return out


def local_box(lab):
    """The label's box in its own (rotated) frame, origin at its anchor point."""
    fs = lab["size"]
    w = CHAR_W * fs * len(lab["text"])
    x0 = {"middle": -w / 2, "end": -w}.get(lab["anchor"], 0.0)
    return x0, -0.75 * fs, x0 + w, 0.25 * fs


def page_box(lab):
    """The axis-aligned bounding box of the label's (rotated) box, on the page."""
    x0, y0, x1, y1 = local_box(lab)
    c, s = math.cos(math.radians(lab["angle"])), math.sin(math.radians(lab["angle"]))
    xs, ys = [], []
    for px, py in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        xs.append(lab["x"] + c * px - s * py)
        ys.append(lab["y"] + s * px + c * py)
    return min(xs), min(ys), max(xs), max(ys)


def overlap_frac(a, b):
    """Overlap of two labels turned alike, as a fraction of the smaller box's area."""
    c, s = math.cos(math.radians(a["angle"])), math.sin(math.radians(a["angle"]))
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    ox, oy = c * dx + s * dy, -s * dx + c * dy  # b's anchor in a's frame
    ax0, ay0, ax1, ay1 = local_box(a)
    bx0, by0, bx1, by1 = local_box(b)
    bx0, bx1, by0, by1 = bx0 + ox, bx1 + ox, by0 + oy, by1 + oy
    w = min(ax1, bx1) - max(ax0, bx0)
    h = min(ay1, by1) - max(ay0, by0)
    if w <= 0 or h <= 0:
        return 0.0
    small = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
    return w * h / small if small > 0 else 0.0


def label_overlaps(labels):
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if a["angle"] != b["angle"]:
                continue
            if a["text"] == b["text"] and abs(a["x"] - b["x"]) < 0.01 and \
                    abs(a["y"] - b["y"]) < 0.01:
                continue  # one label drawn twice (an opaque key redraws its text)
            if a["angle"] == 0 and abs(a["y"] - b["y"]) > SAME and abs(a["x"] - b["x"]) > SAME:
                continue  # unrotated: only within a row or a column
            f = overlap_frac(a, b)
            if f > OVERLAP:
                out.append((a, b, f))
    return out


def path_subpaths(d):
    """The subpaths of a path's d, each a list of absolute points."""
    subs, cur, x, y, sx, sy = [], None, 0.0, 0.0, 0.0, 0.0
    arity = {"M": 2, "L": 2, "T": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "A": 7, "Z": 0}
    for cmd, body in re.findall(r"([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)", d or ""):
        nums = [float(v) for v in re.findall(NUM, body)]
        up, rel = cmd.upper(), cmd.islower()
        n = arity[up]
        if up == "Z":
            if cur is not None:
                cur.append((sx, sy))
            x, y = sx, sy
            continue
        if n == 0 or len(nums) % n:
            raise ValueError("bad path data near %r" % (cmd + body[:20]))
        for k in range(0, len(nums), n):
            a = nums[k:k + n]
            if up == "H":
                nx, ny = (x + a[0] if rel else a[0]), y
            elif up == "V":
                nx, ny = x, (y + a[0] if rel else a[0])
            else:
                nx, ny = (x + a[-2], y + a[-1]) if rel else (a[-2], a[-1])
            if up == "M" and k == 0:
                cur = [(nx, ny)]
                subs.append(cur)
                sx, sy = nx, ny
            else:
                if cur is None:
                    cur = [(x, y)]
                    subs.append(cur)
                cur.append((nx, ny))
            x, y = nx, ny
    return subs


def extent(pts):
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def inside(box, zone):
    return zone[0] <= box[0] and box[2] <= zone[2] and zone[1] <= box[1] and box[3] <= zone[3]


def drawn_pieces(el):
    """(what, bounding box) of each piece an element draws; a point piece has a zero box."""
    tag = local(el.tag)

    def f(k):  # a length attribute's number; 0 when absent or not a plain number
        m = re.match(r"\s*(%s)" % NUM, el.get(k) or "")
        return float(m.group(1)) if m else 0.0
    if tag == "path":
        for sp in path_subpaths(el.get("d")):
            b = extent(sp)
            if b[2] - b[0] > 0.01 or b[3] - b[1] > 0.01:
                yield "path", b
    elif tag in ("polygon", "polyline"):
        v = [float(n) for n in re.findall(NUM, el.get("points", ""))]
        if len(v) >= 4:
            b = extent(list(zip(v[0::2], v[1::2])))
            if b[2] - b[0] > 0.01 or b[3] - b[1] > 0.01:
                yield tag, b
    elif tag == "rect":
        if f("width") > 0 and f("height") > 0:
            yield "rect", (f("x"), f("y"), f("x") + f("width"), f("y") + f("height"))
    elif tag == "line":
        b = (min(f("x1"), f("x2")), min(f("y1"), f("y2")), max(f("x1"), f("x2")),
             max(f("y1"), f("y2")))
        if b[2] - b[0] > 0.01 or b[3] - b[1] > 0.01:
            yield "line", b
    elif tag in ("use", "circle", "ellipse", "image"):
        m = re.search(r"translate\(\s*(%s)(?:[\s,]+(%s))?\s*\)" % (NUM, NUM),
                      el.get("transform") or "")
        x = (float(m.group(1)) if m else 0.0) + f("x") + f("cx")
        y = (float(m.group(2) or 0) if m else 0.0) + f("y") + f("cy")
        yield tag, (x, y, x + f("width"), y + f("height"))


def canvas_size(root):
    vb = [float(v) for v in re.findall(NUM, root.get("viewBox", ""))]
    if len(vb) == 4:
        return vb[2], vb[3]
    try:
        return float(re.findall(NUM, root.get("width", ""))[0]), \
            float(re.findall(NUM, root.get("height", ""))[0])
    except (IndexError, ValueError):
        return None, None


def data_elements(root, parents):
    """How many data pieces the SVG draws (key samples and the background left out)."""
    groups = [g for g in root.iter()
              if local(g.tag) == "g" and re.match(r"gnuplot_plot_\d+$", g.get("id", ""))]
    n = 0
    if groups:
        for g in groups:
            zones = []  # beside each key title: its sample
            for lab in labels_of(g, parents):
                x0, y0, x1, y1 = page_box(lab)
                fs = lab["size"]
                zones.append((x0 - 8 * fs, lab["y"] - 1.2 * fs, x1 + 8 * fs, lab["y"] + 0.5 * fs))
            for el in g.iter():
                for _, box in drawn_pieces(el):
                    if not any(inside(box, z) for z in zones):
                        n += 1
        return n, True
    w, h = canvas_size(root)
    skip = set()
    for d in root.iter():
        if local(d.tag) in ("defs", "title", "desc", "filter", "symbol", "clipPath"):
            skip.update(id(e) for e in d.iter())
    for el in root.iter():
        if id(el) in skip:
            continue
        for what, box in drawn_pieces(el):
            if what == "rect" and box[0] <= 0 and box[1] <= 0 and w and h and \
                    box[2] >= w and box[3] >= h:
                continue  # the background
            n += 1
    return n, False


NUMBER_TICK = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?x?$")
NUMBER_AXES = ("ladder", "sweep", "traced", "history")


def y_numbers(labels, width):
    """The distinct numbers on the left y axis: unrotated labels anchored at their end, in the
    left quarter of the canvas, that are numbers (history's '2x' included)."""
    return {l["text"].strip() for l in labels
            if l["angle"] == 0 and l["anchor"] == "end" and NUMBER_TICK.match(l["text"].strip())
            and (width is None or l["x"] < 0.25 * width)}


def unlabelled_bars(svg_path):
    """The rows of a ladder figure's data (figNN.dat beside figNN.svg) whose label is empty."""
    dat = os.path.splitext(svg_path)[0] + ".dat"
    with open(dat) as fh:
        rows = [re.findall(r'"([^"]*)"', line) for line in fh if line.strip()]
    return [r[0] for r in rows if len(r) >= 2 and not r[1].strip()]


def check_svg(path):
    """dict(error, data, grouped, labels, overlaps, ynums) for one SVG file."""
    r = {"error": None, "data": 0, "grouped": False, "labels": 0, "overlaps": [], "ynums": 0}
    try:
        with open(path, "rb") as fh:
            blob = fh.read()
        if not blob.strip():
            r["error"] = "is an empty file"
            return r
        root = ET.fromstring(blob)
        if local(root.tag) != "svg":
            r["error"] = "is not an SVG (root element <%s>)" % local(root.tag)
            return r
        parents = {c: p for p in root.iter() for c in p}
        r["data"], r["grouped"] = data_elements(root, parents)
        labels = labels_of(root, parents)
        r["labels"] = len(labels)
        r["ynums"] = len(y_numbers(labels, canvas_size(root)[0]))
        r["overlaps"] = label_overlaps(labels)
    except OSError as e:
        r["error"] = "cannot be read: %s" % (e.strerror or e)
    except Exception as e:  # anything else this SVG trips: a failure named, never a traceback
        r["error"] = "does not parse: %s: %s" % (type(e).__name__, e)
    return r


# ---------------------------------------------------------------------------- main

def run(cmd, what):
    """(stdout, problem) of a Chromium run."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)
        return p.stdout, None
    except (subprocess.SubprocessError, OSError) as e:
        return "", "%s: %s" % (what, e)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="report_check.py",
                                 usage="%(prog)s DIR [--require KIND[,KIND...]]... "
                                       "[--escaped TEXT]...",
                                 description="Render a varbench report and check it.")
    ap.add_argument("dir", metavar="DIR")
    ap.add_argument("--require", action="append", default=[], metavar="KIND[,KIND...]")
    ap.add_argument("--escaped", action="append", default=[], metavar="TEXT")
    a = ap.parse_args(argv)
    req = []
    for arg in a.require:
        for k in arg.split(","):
            k = k.strip()
            if k not in KINDS:
                ap.error("--require: unknown kind %r (kinds: %s)" % (k, ", ".join(KINDS)))
            if k not in req:
                req.append(k)
    a.require = req
    for t in a.escaped:
        if not t:
            ap.error("--escaped: empty TEXT")
    return a


def main(argv):
    args = parse_args(argv)
    d = os.path.abspath(args.dir)
    fails = []

    def fail(msg):
        fails.append(msg)
        print("FAIL: " + msg)

    index = os.path.join(d, "index.html")
    if not os.path.isfile(index):
        print("FAIL: no %s" % index)
        print("FAIL")
        return 1
    exe = chromium()
    if not exe:
        print("chromium not installed: skipped")
        return 77
    url = "file://" + index
    base = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--virtual-time-budget=10000"]

    # the plots loaded
    dom_text, prob = run(base + ["--dump-dom", url], "chromium --dump-dom")
    if prob:
        fail(prob)
    try:
        dom = parse_html(dom_text)
    except Exception as e:  # html.parser is lenient; never a traceback all the same
        fail("the dumped DOM does not parse: %s" % e)
        dom = parse_html("")
    plots = dom.plot_imgs
    m = re.search(r"<title>varbench report: (\d+)/(\d+) plots loaded</title>", dom_text)
    print("plots in the page:", plots, "| title:", m.group(0) if m else None)
    if not m or plots == 0 or int(m.group(1)) != plots or int(m.group(2)) != plots:
        fail("not every plot loaded")

    # the figures and their SVGs
    per = {}  # kind -> [figures, non-empty, overlaps]
    seen = {}
    for i, fig in enumerate(dom.figures):
        kind = fig["kind"]
        if kind is None:
            fail("figure %d has no data-kind" % (i + 1))
            kind = "no kind"
        elif kind not in KINDS:
            fail("figure %d: unknown data-kind %r" % (i + 1, kind))
        if "plot" not in fig["class"]:
            fail("figure %d (%s) lacks class=\"plot\"" % (i + 1, kind))
        s = per.setdefault(kind, [0, 0, 0])
        s[0] += 1
        if not fig["imgs"]:
            fail("figure %d (%s) has no <img class=\"plot\">" % (i + 1, kind))
            continue
        for src in fig["imgs"]:
            u = urlparse(src)
            rel = unquote(u.path)
            path = os.path.normpath(os.path.join(d, rel))
            name = rel or "(empty src)"
            if u.scheme not in ("", "file") or os.path.isabs(rel) or not rel:
                fail("%s (%s): not a file in DIR" % (name, kind))
                continue
            if path not in seen:
                seen[path] = check_svg(path)
            r = seen[path]
            if r["error"]:
                fail("%s (%s) %s" % (name, kind, r["error"]))
                continue
            if r["data"] == 0:
                fail("%s (%s): no data drawn (%s)" % (
                    name, kind, "its plot groups are empty" if r["grouped"]
                    else "no drawn element but the background"))
            else:
                s[1] += 1
            for a, b, f in r["overlaps"][:SHOWN]:
                print("  %s (%s): labels %r at (%.1f,%.1f) and %r at (%.1f,%.1f) overlap "
                      "(%.0f%% of the smaller box, rotation %g)" %
                      (name, kind, a["text"], a["x"], a["y"], b["text"], b["x"], b["y"],
                       100 * f, a["angle"]))
            if len(r["overlaps"]) > SHOWN:
                print("  %s (%s): ... and %d more pairs" % (name, kind, len(r["overlaps"]) - SHOWN))
            if r["overlaps"]:
                fail("%s (%s): %d overlapping label pair(s)" % (name, kind, len(r["overlaps"])))
            if kind in NUMBER_AXES and r["ynums"] < 2:
                fail("%s (%s): %d number(s) on its y axis" % (name, kind, r["ynums"]))
            if kind == "ladder":
                try:
                    bare = unlabelled_bars(path)
                except OSError as e:
                    bare = ["(its data: %s)" % (e.strerror or e)]
                if bare:
                    fail("%s (ladder): bars without their label: %s" % (name, ", ".join(bare)))
            s[2] += len(r["overlaps"])
    if not dom.figures:
        print("no <figure> in the page")
    for k in args.require:
        if k not in per:
            fail("no figure of kind %r (required)" % k)

    # the escaped names
    if args.escaped:
        canon = dom.canonical()
        for raw in args.escaped:
            bad, in_text, in_attr = escaped_check(dom, canon, raw)
            for b in bad:
                fail("escaped name: " + b)
            if not bad:
                print("escaped name %r: as text in the DOM (%s)" % (
                    raw, ", ".join(w for w, ok in (("text", in_text), ("attribute", in_attr))
                                   if ok)))

    # the screenshot
    shot = os.path.join(d, "screenshot.png")
    try:
        os.remove(shot)
    except OSError:
        pass
    _, prob = run(base + ["--window-size=1200,2000", "--screenshot=" + shot, url],
                  "chromium --screenshot")
    if prob:
        fail(prob)
    else:
        try:
            w, h, ch, px = png_pixels(shot)
            colors, dark = set(), 0
            for i in range(0, len(px), ch * 7):  # every 7th pixel is plenty
                rgb = px[i:i + 3]
                colors.add(bytes(rgb))
                dark += sum(rgb) < 600
            frac = dark / (len(px) / (ch * 7))
            print("screenshot %dx%d: %d colours, %.1f%% non-white" %
                  (w, h, len(colors), 100 * frac))
            if len(colors) < 8 or frac < 0.01:
                fail("the screenshot is blank")
        except Exception as e:  # a missing or odd PNG is a failure, not a traceback
            fail("the screenshot cannot be read: %s: %s" % (type(e).__name__, e))

    for k in list(KINDS) + sorted(set(per) - set(KINDS)):
        if k in per:
            n, ok, ov = per[k]
            print("%s: %d figure%s, %d SVG%s non-empty, %d label overlap%s" %
                  (k, n, "" if n == 1 else "s", ok, "" if ok == 1 else "s", ov,
                   "" if ov == 1 else "s"))
        elif k in args.require:
            print("%s: 0 figures (required)" % k)
    print("FAIL (%d problem%s)" % (len(fails), "" if len(fails) == 1 else "s") if fails
          else "PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
