#!/usr/bin/env bash
# one call of the device: every gpu test in four groups at once on a 4-GPU machine (GPU 0:
# all but the framework rows and the Python package's; GPU 1: the single-GPU framework rows;
# GPU 2: the Python package's; all four: the multi-GPU rows, then the one-process in-step cost
# on GPU 3), then the Numba row alone (its one launch is
# held against ncu's in another process: 5.1% apart beside the other groups, 3.1% alone), then
# the 4-rank in-step cost, logs into $1. The in-step costs at batch 128 a rank (28.5 ms a step
# on 4 H200s, GPU-bound as a 0.25 s training step is; at batch 32 the launching thread sets
# the pace and CUPTI's per-launch cost is the step's: README)
set -u
out=$1
mkdir -p /work "$out"; [ -e /work/main ] || ln -s "$(pwd)" /work/main
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv >"$out/gpu.txt"
(cd build && CUDA_VISIBLE_DEVICES=0 ctest -L gpu -E 'fw-|gpu\.python' -V >"$out/g1.log" 2>&1) &
(cd build && CUDA_VISIBLE_DEVICES=2 ctest -L gpu -R 'gpu\.python' -V >"$out/g5.log" 2>&1) &
(cd build && CUDA_VISIBLE_DEVICES=1 ctest -L gpu -R 'fw-(torch|jax|cupy|triton|samples)' -V >"$out/g2.log" 2>&1) &
( (cd build && ctest -L gpu -R 'fw-(ddp|peer)' -V >"$out/g3.log" 2>&1)
  CUDA_VISIBLE_DEVICES=3 VB_DDP_RANKS=1 VB_DDP_BATCH=128 VB_OVH_KINDS=untraced,traced,traced-gpu \
    python3 tests/trace/fw_matrix.py ddp-overhead ./build/varbench /tmp/one >"$out/one.log" 2>&1 ) &
wait
(cd build && ctest -L gpu -R 'fw-numba' -V >"$out/g4.log" 2>&1)
VB_DDP_BATCH=128 VB_OVH_ROUNDS=3 python3 tests/trace/fw_matrix.py ddp-overhead ./build/varbench \
  /tmp/ddp >"$out/ddp.log" 2>&1
