#!/usr/bin/env python3
"""trace_json_check.py: check a Chrome trace JSON written by `varbench export --format trace`.

usage: trace_json_check.py FILE.json [--expect CAT=N[,CAT=N...]] [--parent CHILD=PARENT]...
                           [--clamped N]

  --expect   how many events of each category the file must hold, from what the database holds
             (vbtest make_export_fixture prints it): kernel, gpu_memcpy, gpu_memset,
             user_annotation, cuda_runtime, cuda_driver, case (complete events of that "cat"),
             and flows / flow_ends (arrow starts "s" / ends "f")
  --parent   the NVTX range CHILD (user_annotation) lies directly inside the range PARENT on
             the same track (repeatable)
  --clamped  how many GPU events say they were moved ("clamped (ns)" in their args)

Checks, each a FAIL when it does not hold (all are run, every failure is printed):
  - the file is JSON (no NaN or Infinity) with a traceEvents list, displayTimeUnit "ns";
  - every ts and dur is a number >= 0 with at most 3 decimals (ns in us);
  - the counts of --expect, and the file's own "varbench" counts: for each kind, the records
    stored equal those exported and the events of its categories (each stored record is
    exactly one event: complete, or an instant "i" for an NVTX mark), and no two events are the
    same (name, category, track, ts, dur);
  - on one (pid, tid) track, complete events follow each other or nest (the viewers' rule);
    on a GPU track (kernel, gpu_memcpy, gpu_memset) they never overlap, and no host event is
    on it;
  - every track with events has a thread_name and its process a process_name;
  - every arrow id has one "s" and at least one "f", each inside an event of its own track
    (the "f" with "bp":"e"), the "s" no later than its "f"s;
  - --parent and --clamped.
Prints a summary line and PASS, or FAIL lines. Standard library only. Exit 0 pass, 1 fail,
2 usage.
"""
import argparse, json, sys
from decimal import Decimal

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
HOST_CATS = ("user_annotation", "cuda_runtime", "cuda_driver")
KINDS = {"kernels": ("kernel",), "copies": ("gpu_memcpy",), "memsets": ("gpu_memset",),
         "nvtx_ranges": ("user_annotation",), "api_calls": ("cuda_runtime", "cuda_driver")}
EXPECT_KEYS = GPU_CATS + HOST_CATS + ("case", "flows", "flow_ends")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="trace_json_check.py", description=__doc__.split("\n")[0])
    ap.add_argument("file", metavar="FILE.json")
    ap.add_argument("--expect", default="", metavar="CAT=N[,CAT=N...]")
    ap.add_argument("--parent", action="append", default=[], metavar="CHILD=PARENT")
    ap.add_argument("--clamped", type=int, default=None, metavar="N")
    a = ap.parse_args(argv)
    exp = {}
    for item in filter(None, a.expect.split(",")):
        k, _, v = item.partition("=")
        if k not in EXPECT_KEYS or not v.isdigit():
            ap.error("--expect: bad item %r (keys: %s)" % (item, ", ".join(EXPECT_KEYS)))
        exp[k] = int(v)
    a.expect = exp
    par = []
    for p in a.parent:
        c, _, q = p.partition("=")
        if not c or not q:
            ap.error("--parent: bad item %r (want CHILD=PARENT)" % p)
        par.append((c, q))
    a.parent = par
    return a


def no_constant(name):
    raise ValueError("%s is not JSON" % name)


def ns(v):
    """A ts or dur (us, Decimal) as integer ns, or None when it is not one."""
    if not isinstance(v, (Decimal, int)) or isinstance(v, bool):
        return None
    d = Decimal(v)
    if d < 0 or d.as_tuple().exponent < -3:
        return None
    return int(d * 1000)


def check(doc, args, fail):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents list at the top")
        return None
    if doc.get("displayTimeUnit") != "ns":
        fail("displayTimeUnit is %r, not 'ns'" % doc.get("displayTimeUnit"))
    events = doc["traceEvents"]
    xs, flows, pnames, tnames, seen = [], {}, set(), set(), set()
    for i, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("ph"), str):
            fail("event %d is not an object with a ph" % i)
            continue
        ph, track = e["ph"], (e.get("pid"), e.get("tid"))
        if ph == "M":
            if e.get("name") == "process_name":
                pnames.add(e.get("pid"))
            elif e.get("name") == "thread_name":
                tnames.add(track)
            continue
        ts = ns(e.get("ts"))
        if ts is None:
            fail("event %d (%s %r): ts %r is not a number >= 0 with 3 decimals at most" %
                 (i, ph, e.get("name"), e.get("ts")))
            continue
        if ph == "X":
            dur = ns(e.get("dur"))
            if dur is None:
                fail("event %d (%r): dur %r is not a number >= 0 with 3 decimals at most" %
                     (i, e.get("name"), e.get("dur")))
                continue
            key = (e.get("name"), e.get("cat"), track, ts, dur)
            if key in seen:
                fail("event %d (%r on %s at %d ns) is there twice" % (i, key[0], track, ts))
            seen.add(key)
            xs.append({"i": i, "name": e.get("name"), "cat": e.get("cat"), "track": track,
                       "ts": ts, "end": ts + dur, "args": e.get("args") or {}})
        elif ph == "i":  # an NVTX mark: an instant on its thread's track
            if e.get("s") != "t" or e.get("cat") != "user_annotation":
                fail("instant event %d (%r) is not a thread-scoped user_annotation" %
                     (i, e.get("name")))
            xs.append({"i": i, "name": e.get("name"), "cat": e.get("cat"), "track": track,
                       "ts": ts, "end": ts, "args": e.get("args") or {}})
        elif ph in ("s", "f"):
            if e.get("cat") != "ac2g" or e.get("name") != "ac2g":
                fail("flow event %d is not cat/name ac2g" % i)
            if ph == "f" and e.get("bp") != "e":
                fail("flow end %d has no \"bp\":\"e\"" % i)
            flows.setdefault(e.get("id"), {"s": [], "f": []})[ph].append((track, ts, i))
        else:
            fail("event %d has ph %r, which the export does not write" % (i, ph))
    return xs, flows, pnames, tnames


def check_counts(doc, xs, flows, args, fail):
    cats = {}
    for x in xs:
        cats[x["cat"]] = cats.get(x["cat"], 0) + 1
    got = dict(cats)
    got["flows"] = sum(len(f["s"]) for f in flows.values())
    got["flow_ends"] = sum(len(f["f"]) for f in flows.values())
    for k, n in sorted(args.expect.items()):
        if got.get(k, 0) != n:
            fail("%d events of %s, expected %d" % (got.get(k, 0), k, n))
    rec = (doc.get("varbench") or {}).get("records")
    if not isinstance(rec, dict):
        fail("no varbench.records object")
        return cats
    for kind, kcats in KINDS.items():
        r = rec.get(kind) or {}
        n = sum(cats.get(c, 0) for c in kcats)
        if not (r.get("stored") == r.get("exported") == n):
            fail("%s: %r stored, %r exported, %d events of %s" %
                 (kind, r.get("stored"), r.get("exported"), n, "+".join(kcats)))
    return cats


def check_tracks(xs, pnames, tnames, args, fail):
    by_track, parent = {}, {}
    for x in xs:
        by_track.setdefault(x["track"], []).append(x)
    for track, evs in by_track.items():
        if track not in tnames:
            fail("track %s has no thread_name" % (track,))
        if track[0] not in pnames:
            fail("process %s has no process_name" % (track[0],))
        gpu = [x for x in evs if x["cat"] in GPU_CATS]
        if gpu and len(gpu) != len(evs):
            fail("GPU track %s also holds host events" % (track,))
        evs.sort(key=lambda x: (x["ts"], -x["end"], x["i"]))
        stack = []
        for x in evs:
            while stack and stack[-1]["end"] <= x["ts"]:
                stack.pop()
            if stack and gpu and x["ts"] < stack[-1]["end"]:
                fail("GPU track %s: %r [%d, %d] overlaps %r [%d, %d]" %
                     (track, x["name"], x["ts"], x["end"], stack[-1]["name"],
                      stack[-1]["ts"], stack[-1]["end"]))
            elif stack and x["end"] > stack[-1]["end"]:
                fail("track %s: %r [%d, %d] overlaps %r [%d, %d] without nesting" %
                     (track, x["name"], x["ts"], x["end"], stack[-1]["name"],
                      stack[-1]["ts"], stack[-1]["end"]))
            ranges = [y for y in stack if y["cat"] == "user_annotation"]
            parent[x["i"]] = ranges[-1] if ranges else None
            stack.append(x)
    for child, want in args.parent:
        found = [x for x in xs if x["cat"] == "user_annotation" and x["name"] == child]
        if not found:
            fail("--parent: no range %r" % child)
        for x in found:
            p = parent.get(x["i"])
            if not p or p["name"] != want:
                fail("range %r lies in %r, expected %r" %
                     (child, p["name"] if p else None, want))
    if args.clamped is not None:
        n = sum(1 for x in xs if "clamped (ns)" in x["args"])
        if n != args.clamped:
            fail("%d events clamped, expected %d" % (n, args.clamped))
    return by_track


def inside(by_track, track, ts):
    return any(x["ts"] <= ts < x["end"] or x["ts"] == ts == x["end"]
               for x in by_track.get(track, []))


def check_flows(flows, by_track, fail):
    for fid, f in flows.items():
        if len(f["s"]) != 1 or not f["f"]:
            fail("arrow %r has %d starts and %d ends" % (fid, len(f["s"]), len(f["f"])))
            continue
        s_track, s_ts, _ = f["s"][0]
        if not inside(by_track, s_track, s_ts):
            fail("arrow %r starts outside every event of %s" % (fid, s_track))
        for track, ts, _ in f["f"]:
            if not inside(by_track, track, ts):
                fail("arrow %r ends outside every event of %s" % (fid, track))
            if ts < s_ts:
                fail("arrow %r ends at %d ns, before it starts (%d ns)" % (fid, ts, s_ts))


def main(argv):
    args = parse_args(argv)
    fails = []

    def fail(msg):
        fails.append(msg)
        print("FAIL: " + msg)

    try:
        with open(args.file, encoding="utf-8") as fh:
            doc = json.load(fh, parse_float=Decimal, parse_constant=no_constant)
    except (OSError, ValueError) as e:
        print("FAIL: %s is not JSON: %s" % (args.file, e))
        return 1
    got = check(doc, args, fail)
    if got is None:
        return 1
    xs, flows, pnames, tnames = got
    cats = check_counts(doc, xs, flows, args, fail)
    by_track = check_tracks(xs, pnames, tnames, args, fail)
    check_flows(flows, by_track, fail)
    print("%s: %d events on %d tracks (%s), %d arrows" %
          (args.file, len(xs), len(by_track),
           ", ".join("%s %d" % kv for kv in sorted(cats.items())), len(flows)))
    print("FAIL (%d problem%s)" % (len(fails), "" if len(fails) == 1 else "s") if fails
          else "PASS")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
