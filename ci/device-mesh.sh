#!/usr/bin/env bash
# ci/device-mesh.sh OUT: the GPU session batch for the mesh family (run on the lent GPU
# machine with the build folder carried): gpu tests, the full mesh suite, and ncu's
# gpu__time_duration.sum of the device-mesh kernel to hold varbench's kernel time against.
set -uo pipefail
out=${1:?usage: ci/device-mesh.sh OUTDIR}
# ctest files hold the absolute paths of the machine that built them
here=$(pwd)
[ "$here" = /work/main ] || { mkdir -p /work && [ -e /work/main ] || ln -s "$here" /work/main; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$out/gpu.txt"
(cd build && ctest -L gpu --output-on-failure 2>&1) | tee "$out/ctest_gpu.log"
./build/varbench run --filter 'mesh/*' --db "$out/varbench.db" 2>&1 | tee "$out/run.log"
for n in 1000 4000; do
  ncu --clock-control none -k regex:mesh_device_mesh_kernel -c 5 --metrics gpu__time_duration.sum \
    ./build/varbench run --filter mesh/device-mesh --axis nx=$n --quick --max-samples 3 --db /tmp/ncu.db 2>&1 \
    | grep -E "gpu__time_duration|mesh_device_mesh_kernel|CUPTI|warning|hint|ok|==PROF==" | tee -a "$out/ncu.log"
done
