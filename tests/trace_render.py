#!/usr/bin/env python3
"""trace_render.py: draw a Chrome trace JSON (varbench export --format trace, or any file of
complete "X" events) as a picture, for a README or a report: one row per (pid, tid) track under
its process, boxes coloured by category and stacked by nesting, the arrows of "s"/"f" flow
events, a time axis in us. Writes an HTML page with one SVG and screenshots it with headless
Chromium.

usage: trace_render.py FILE.json OUT.png [--width PX] [--no-flows] [--html OUT.html]

Fails (exit 1) on a file that is not JSON, has no traceEvents, or has no complete event with a
duration to draw; exit 77 when Chromium is missing; 2 usage. Standard library only.
"""
import argparse, html, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_check import chromium, png_pixels  # noqa: E402  (the repo's one PNG reader)

COLOURS = {"kernel": "#4e79a7", "gpu_memcpy": "#f28e2b", "gpu_memset": "#e15759",
           "cuda_runtime": "#76b7b2", "cuda_driver": "#59a14f", "user_annotation": "#edc948",
           "case": "#b07aa1"}
OTHER = "#bab0ac"
LABEL_W, ROW_H, HEAD_H, AXIS_H, PAD = 300, 18, 20, 34, 12
CHAR_W = 6.4  # px per character of the 11px sans-serif labels, roughly


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="trace_render.py", description=__doc__.split("\n")[0])
    ap.add_argument("trace", metavar="FILE.json")
    ap.add_argument("out", metavar="OUT.png")
    ap.add_argument("--width", type=int, default=1400, help="timeline width in px (1400)")
    ap.add_argument("--no-flows", action="store_true", help="leave the arrows out")
    ap.add_argument("--html", metavar="OUT.html", help="keep the page there")
    a = ap.parse_args(argv)
    if a.width < 200:
        ap.error("--width: at least 200")
    return a


def load(path):
    """(events, metadata) of the file; raises ValueError when it is not a trace."""
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    ev = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(ev, list):
        raise ValueError("no traceEvents list")
    return [e for e in ev if isinstance(e, dict)], (doc.get("varbench") if isinstance(doc, dict)
                                                    else None) or {}


def layout(events):
    """The tracks in drawing order, each {pid, tid, name, pname, rows, events(depth)}."""
    pname, psort, tname, tsort, tracks = {}, {}, {}, {}, {}
    for e in events:
        ph, pid, tid, args = e.get("ph"), e.get("pid"), e.get("tid"), e.get("args") or {}
        if ph == "M":
            n = e.get("name")
            if n == "process_name":
                pname[pid] = str(args.get("name"))
            elif n == "process_sort_index":
                psort[pid] = args.get("sort_index", 0)
            elif n == "thread_name":
                tname[(pid, tid)] = str(args.get("name"))
            elif n == "thread_sort_index":
                tsort[(pid, tid)] = args.get("sort_index", 0)
        elif ph == "X" and isinstance(e.get("ts"), (int, float)) and \
                isinstance(e.get("dur"), (int, float)):
            tracks.setdefault((pid, tid), []).append(e)
    out = []
    for key in sorted(tracks, key=lambda k: (psort.get(k[0], 0), str(k[0]), tsort.get(k, 0),
                                             str(k[1]))):
        evs = sorted(tracks[key], key=lambda e: (e["ts"], -e["dur"]))
        stack, placed, rows = [], [], 1
        for e in evs:
            end = e["ts"] + e["dur"]
            while stack and stack[-1] <= e["ts"]:
                stack.pop()
            placed.append((len(stack), e))
            stack.append(end)
            rows = max(rows, len(stack))
        out.append({"pid": key[0], "tid": key[1], "pname": pname.get(key[0], "pid %s" % key[0]),
                    "name": tname.get(key, "tid %s" % key[1]), "rows": rows, "events": placed})
    return out


def nice_step(span, ticks=8):
    raw = span / ticks
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    while mag > raw:
        mag /= 10
    for m in (1, 2, 5, 10):
        if mag * m >= raw:
            return mag * m
    return mag * 10


def row_of(where, e):
    """The y of the middle of the innermost event of e's track that holds e's ts, or None."""
    track = where.get((e.get("pid"), e.get("tid")))
    if not track or not isinstance(e.get("ts"), (int, float)):
        return None
    y, placed = track
    depth = max((d for d, x in placed if x["ts"] <= e["ts"] <= x["ts"] + x["dur"]), default=0)
    return y + depth * ROW_H + ROW_H / 2


def svg(tracks, events, meta, width, flows):
    t0 = min(e["ts"] for t in tracks for _, e in t["events"])
    t1 = max(e["ts"] + e["dur"] for t in tracks for _, e in t["events"])
    span = (t1 - t0) or 1.0
    x = lambda ts: LABEL_W + (ts - t0) / span * width  # noqa: E731
    out, y, where, last_pid = [], PAD + AXIS_H, {}, object()
    title = "varbench run %s (%s): %s" % (meta.get("run", "?"), meta.get("kind", "?"),
                                          meta.get("command_line", "")) if meta else "trace"
    out.append('<text x="%d" y="%d" class="title">%s</text>' % (PAD, PAD + 4, html.escape(title)))
    step = nice_step(span)
    k = 0
    while k * step <= span + 1e-9:
        tx = x(t0 + k * step)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>' %
                   (tx, PAD + AXIS_H - 6, tx, 0))
        out.append('<text x="%.1f" y="%d" class="tick">%g us</text>' %
                   (tx, PAD + AXIS_H - 10, round(k * step, 3)))
        k += 1
    for t in tracks:
        if t["pid"] != last_pid:
            out.append('<rect x="0" y="%d" width="%d" height="%d" class="phead"/>' %
                       (y, LABEL_W + width + PAD, HEAD_H))
            out.append('<text x="%d" y="%d" class="pname">%s</text>' %
                       (PAD, y + HEAD_H - 6, html.escape(t["pname"])))
            y += HEAD_H
            last_pid = t["pid"]
        h = t["rows"] * ROW_H
        out.append('<line x1="0" y1="%d" x2="%d" y2="%d" class="sep"/>' %
                   (y + h, LABEL_W + width + PAD, y + h))
        out.append('<text x="%d" y="%d" class="tname">%s</text>' %
                   (PAD + 10, y + 13, html.escape(t["name"])))
        for depth, e in t["events"]:
            bx, bw = x(e["ts"]), max(1.0, e["dur"] / span * width)
            by = y + depth * ROW_H + 1
            cat = e.get("cat", "")
            name = str(e.get("name", ""))
            out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" class="ev">'
                       '<title>%s</title></rect>' %
                       (bx, by, bw, ROW_H - 2, COLOURS.get(cat, OTHER),
                        html.escape("%s (%s) %.3f us" % (name, cat, e["dur"]))))
            fit = int((bw - 4) / CHAR_W)
            if fit >= 3:
                label = name if len(name) <= fit else name[:fit - 1] + "\u2026"
                out.append('<text x="%.2f" y="%d" class="ev">%s</text>' %
                           (bx + 2, by + ROW_H - 6, html.escape(label)))
        where[(t["pid"], t["tid"])] = (y, t["events"])
        y += h
    if flows:
        starts = {e.get("id"): e for e in events if e.get("ph") == "s"}
        for e in events:
            s = starts.get(e.get("id")) if e.get("ph") == "f" else None
            a, b = (row_of(where, s) if s else None), row_of(where, e)
            if a is not None and b is not None:
                out.append('<line x1="%.2f" y1="%.1f" x2="%.2f" y2="%.1f" class="flow" '
                           'marker-end="url(#head)"/>' % (x(s["ts"]), a, x(e["ts"]), b))
    y += PAD
    lx = PAD
    for cat in sorted({e.get("cat", "") for t in tracks for _, e in t["events"]}):
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' %
                   (lx, y, COLOURS.get(cat, OTHER)))
        out.append('<text x="%d" y="%d" class="legend">%s</text>' %
                   (lx + 16, y + 10, html.escape(cat or "(none)")))
        lx += 30 + int(CHAR_W * len(cat or "(none)"))
    y += 12 + PAD
    w = LABEL_W + width + 2 * PAD
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d"><defs><marker id="head" viewBox="0 0 8 8" refX="8" refY="4" '
            'markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L8,4 L0,8 z" '
            'fill="#333"/></marker></defs><rect width="100%%" height="100%%" fill="#fff"/>' %
            (w, y, w, y))
    return head + "".join(out) + "</svg>", w, y


STYLE = """body{margin:0;background:#fff}
text{font:11px sans-serif;fill:#222}
text.title{font-weight:bold;font-size:13px}
text.pname{font-weight:bold}
text.tick{text-anchor:middle;fill:#555}
text.legend{fill:#555}
text.ev{fill:#111;pointer-events:none}
rect.phead{fill:#eef1f5}
line.sep{stroke:#e3e3e3}
line.grid{stroke:#ccc}
line.flow{stroke:#333;stroke-width:0.8;opacity:0.7}
rect.ev{stroke:#fff;stroke-width:0.5}"""


def main(argv):
    args = parse_args(argv)
    try:
        events, meta = load(args.trace)
    except (OSError, ValueError) as e:
        print("trace_render: %s is not a trace: %s" % (args.trace, e), file=sys.stderr)
        return 1
    tracks = layout(events)
    if not tracks:
        print("trace_render: %s has no complete events to draw" % args.trace, file=sys.stderr)
        return 1
    exe = chromium()
    if not exe:
        print("trace_render: chromium not installed: skipped", file=sys.stderr)
        return 77
    body, w, h = svg(tracks, events, meta, args.width, not args.no_flows)
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title><style>%s'
            '</style></head><body>%s</body></html>' % (html.escape(args.trace), STYLE, body))
    tmp = tempfile.mkdtemp(prefix="trace_render.")
    try:
        page_path = os.path.join(tmp, "trace.html")
        with open(page_path, "w", encoding="utf-8") as fh:
            fh.write(page)
        if args.html:
            shutil.copyfile(page_path, args.html)
        out = os.path.abspath(args.out)
        if os.path.exists(out):
            os.remove(out)
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--force-device-scale-factor=1", "--window-size=%d,%d" % (w, h),
               "--screenshot=" + out, "file://" + page_path]
        try:
            subprocess.run(cmd, capture_output=True, timeout=120)
        except (subprocess.SubprocessError, OSError) as e:
            print("trace_render: chromium failed: %s" % e, file=sys.stderr)
            return 1
        try:
            pw, ph, ch, px = png_pixels(out)
        except Exception as e:  # no PNG, or not one: a failure, not a traceback
            print("trace_render: no screenshot: %s: %s" % (type(e).__name__, e), file=sys.stderr)
            return 1
        colours = {bytes(px[i:i + 3]) for i in range(0, len(px), ch * 7)}
        if len(colours) < 4:
            print("trace_render: the screenshot is blank", file=sys.stderr)
            return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    n = sum(len(t["events"]) for t in tracks)
    print("trace_render: %s: %d events on %d tracks, %dx%d px" % (args.out, n, len(tracks), pw, ph))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
