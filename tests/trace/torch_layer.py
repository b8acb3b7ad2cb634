"""torch_layer.py: an inference MLP whose middle layer gathers the features of its input by a
permutation: VB_LAYER=a the identity (each row read in order), VB_LAYER=b a random permutation
(the same gather kernel, its loads scattered). 6 steps under NVTX 'step'."""
import os
import torch

torch.manual_seed(0)
dev = 'cuda'
n, d = 8192, 4096
fc1 = torch.nn.Linear(d, d, device=dev)
fc2 = torch.nn.Linear(d, 256, device=dev)
perm = torch.arange(d, device=dev) if os.environ.get('VB_LAYER', 'a') == 'a' else torch.randperm(d, device=dev)
x = torch.randn(n, d, device=dev)
with torch.no_grad():
    for _ in range(6):
        torch.cuda.nvtx.range_push('step')
        h = torch.relu(fc1(x))
        h = h[:, perm]
        y = fc2(h)
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
print(float(y.float().abs().sum()))
