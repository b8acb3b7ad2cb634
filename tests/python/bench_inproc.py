"""bench_inproc.py: varbench inside a process that imported PyTorch first (its libcupti loaded
before varbench's library), held against torch.profiler on the same callable.

The callable is one training step of a small MLP as a user writes it: a batch copied from host
memory (H2D), forward, backward, an SGD step, the loss read back (D2H): cuBLAS GEMMs, PyTorch's
elementwise and foreach kernels, copies.

  python3 bench_inproc.py run [varbench run's options]   the step as the case inproc/step
  python3 bench_inproc.py --profile K OUT.json              no varbench: K steps under
                                                           torch.profiler after 3 warm-ups; writes
                                                           {"kernels", "memcpy_h2d", "memcpy_d2h",
                                                           "memsets"} a step
  python3 bench_inproc.py --maps                           the libcupti files this process maps
                                                           after importing torch, then varbench
"""
import json
import sys

import torch  # first, on purpose: its CUPTI is the process's before varbench's library loads

import varbench as vb

BATCH, WIDTH = 256, 1024


def make_step():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(WIDTH, WIDTH), torch.nn.ReLU(),
                                torch.nn.Linear(WIDTH, WIDTH), torch.nn.ReLU(),
                                torch.nn.Linear(WIDTH, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    x = torch.randn(BATCH, WIDTH)  # host memory: each step copies it in
    y = torch.randn(BATCH, 1)

    def step():
        opt.zero_grad(set_to_none=False)
        loss = torch.nn.functional.mse_loss(model(x.cuda()), y.cuda())
        loss.backward()
        opt.step()
        return [loss.item()]  # the D2H copy, and the synchronize
    return step


fam = vb.Family('inproc', summary='a PyTorch training step, torch imported before varbench')


def traffic(p):
    # the batch and its targets in, the loss out (float32)
    return {'h2d_bytes': 4 * p['batch'] * (WIDTH + 1), 'h2d_count': 2, 'd2h_bytes': 4,
            'd2h_count': 1, 'elements': p['batch']}


@fam.problem('step', axes={'batch': [BATCH]}).variant(gpu=True, traffic=traffic)
def step(state):
    """one MLP training step: H2D batch, forward, backward, SGD, loss to the host"""
    fn = make_step()
    for _ in range(3):
        fn()  # cuBLAS's handles and workspaces made outside the samples
    state.exec(fn)


def profile(k, out):
    from torch.profiler import ProfilerActivity, profile as tprofile
    fn = make_step()
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with tprofile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(k):
            fn()
        torch.cuda.synchronize()
    n = {'kernels': 0, 'memcpy_h2d': 0, 'memcpy_d2h': 0, 'memsets': 0, 'other_copies': 0}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        if getattr(e, 'is_user_annotation', False):  # a record_function range drawn on the GPU's
            n['annotations'] = n.get('annotations', 0) + 1  # timeline (Optimizer.step#SGD.step)
            continue
        name = e.name
        if name.startswith('Memcpy HtoD'):
            n['memcpy_h2d'] += 1
        elif name.startswith('Memcpy DtoH'):
            n['memcpy_d2h'] += 1
        elif name.startswith('Memcpy'):
            n['other_copies'] += 1
        elif name.startswith('Memset'):
            n['memsets'] += 1
        else:
            n['kernels'] += 1
    per = {key: v / k for key, v in n.items()}
    with open(out, 'w') as f:
        json.dump(per, f)
    print('torch.profiler, a step over %d steps: %s' % (k, per))
    return 0


def maps():
    libs = sorted({line.split()[-1] for line in open('/proc/self/maps') if 'libcupti' in line})
    print('libcupti mapped: %s' % (', '.join(libs) or 'none'))
    print('varbench library: %s' % vb.library_path())
    return 0


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--profile':
        sys.exit(profile(int(sys.argv[2]), sys.argv[3]))
    if sys.argv[1:] == ['--maps']:
        sys.exit(maps())
    sys.exit(vb.main())
