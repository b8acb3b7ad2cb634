"""torch_peer.py: one process, every GPU: a tensor copied from GPU 0 to each other GPU and back,
ROUNDS times (a.to('cuda:1'): peer copies over NVLink or PCIe), for varbench trace's peer-copy
test. Prints and (with --out) writes {"copies": N, "bytes": B, "pairs": {"0->1": n, ...}}: the
copies between GPUs it made and their bytes.

usage: python3 torch_peer.py [--rounds R] [--mib M] [--out FILE.json]
Exit 0, 3 without two CUDA devices.
"""
import argparse
import json
import sys

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--mib', type=int, default=16)
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    n = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if n < 2:
        print('torch_peer: %d CUDA device(s): two are needed' % n, file=sys.stderr)
        return 3
    x = torch.arange(a.mib << 18, dtype=torch.float32, device='cuda:0')  # M MiB
    out = {'copies': 0, 'bytes': 0, 'pairs': {}}
    for _ in range(a.rounds):
        for d in range(1, n):
            y = x.to('cuda:%d' % d)
            z = y.to('cuda:0')
            for pair in ('0->%d' % d, '%d->0' % d):
                out['pairs'][pair] = out['pairs'].get(pair, 0) + 1
            out['copies'] += 2
            out['bytes'] += 2 * x.numel() * x.element_size()
    torch.cuda.synchronize()
    ok = bool(torch.equal(z, x))
    print('torch_peer: %d peer copies, %d bytes, %d GPUs: %s' % (out['copies'], out['bytes'], n,
                                                                  'ok' if ok else 'WRONG'))
    if a.out:
        with open(a.out, 'w') as f:
            json.dump(out, f)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
