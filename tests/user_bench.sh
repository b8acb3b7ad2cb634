#!/usr/bin/env bash
# user_bench.sh CASE VBUSER VARBENCH [BUILD SRC ARCHS]: a user's benchmark program against bad
# input and as a user builds one. VBUSER is tests/bench/user_bench.c's program (built in the
# tree with varbench_add_benchmark); VARBENCH reads what it wrote. `example` installs BUILD into a
# fresh prefix, moves it, holds its CMake files to no absolute path and builds SRC/examples and a
# project of C alone out of tree against it (find_package(varbench));
# `subdirectory` builds examples/minimal.cu in a project that add_subdirectory()s SRC. Exit 0
# pass, 1 fail, 77 skip (gpu-* cases without a GPU).
set -u
case=$1 user=$2 vb=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/expect.sh
. "$here/expect.sh" # fail, expect, have_gpu, nogpu_code, in_tmp
in_tmp
nogpu=$(nogpu_code)
case $case in
good)
  expect 0 "u/gpu" "$user" list
  grep -qF 'n=1024,2048 [0..]; x=0.5,1.25 [float]; t=a,b {a,b}' out || fail "list's axes"
  expect $nogpu "" "$user" run --quick --db u.db
  expect 0 "u/cpu" "$vb" export --db u.db --format csv
  [ "$(grep -c ',u/cpu,' out)" -eq 8 ] || fail "8 cpu cases (2 n x 2 x x 2 t)"
  grep -q 'x=1.25,t=b' out || fail "the float and string axes' values"
  head -1 out | grep -qF 'summary:twice_n' || fail "the summary's column"
  [ $nogpu -eq 0 ] || [ "$(grep -c ',u/gpu,.*skipped' out)" -eq 8 ] || fail "gpu cases skipped"
  expect 2 "bad value 'abc'" "$user" run --axis n=abc --db u2.db
  expect 2 "is varbench's" "$user" compare
  expect 0 "n=64,x=2,t=a" "$user" run --quick --filter u/cpu --axis n=2^4:2^6 --axis x=2 --axis t=a --db u3.db ;;
dup-variant) VB_USER_CASE=$case expect 2 "variant 'u/cpu' defined twice" "$user" list ;;
no-axes) VB_USER_CASE=$case expect 2 "0 axes" "$user" run --db u.db ;;
bad-spec) VB_USER_CASE=$case expect 2 "bad range '2^a:5'" "$user" list ;;
summary-clash)
  VB_USER_CASE=$case expect 1 "vb_summary('e2e_median_ns')" "$user" run --quick --filter u/cpu --db u.db
  expect 0 "failed" "$vb" export --db u.db --format csv ;;
skip)
  VB_USER_CASE=$case expect 0 "n = 2048 is over 1024" "$user" run --quick --filter u/cpu --db u.db
  expect 0 "skipped" "$vb" export --db u.db --format csv ;;
ref-fails) VB_USER_CASE=$case expect 6 "the oracle's file is gone" "$user" run --quick --filter u/cpu --db u.db ;;
ref-crash)
  VB_USER_CASE=$case "$user" run --quick --filter u/cpu --db u.db >out 2>err
  rc=$?
  [ $rc -eq 139 ] || [ $rc -gt 128 ] || fail "exited $rc, expected death by SIGSEGV"
  grep -qF "fatal signal Segmentation fault in case u/cpu" err || fail "the case not named" ;;
gpu-cuda-error)
  have_gpu || exit 77
  VB_USER_CASE=cuda-error expect 1 "cudaMemcpy(h, (const void *)(uintptr_t)16, 64, cudaMemcpyDeviceToHost): invalid argument (cudaErrorInvalidValue) [user_bench.c:" "$user" run --quick --filter u/gpu --db u.db ;;
example)
  build=$4 src=$5 archs=$6
  cmake --install "$build" --prefix "$tmp/installed" >inst.log 2>&1 || { cat inst.log >&2; fail "cmake --install"; }
  # the package works wherever it is moved: its CMake files name no absolute path (CUDA,
  # threads and SQLite come as CUDA::* and Threads::Threads, found on the user's machine, and
  # inside libvarbench.a), so the build machine's libsqlite3.a is no user's dependency
  mv "$tmp/installed" "$tmp/prefix" || fail "moving the prefix"
  abs=$(grep -noE '(^|[ "(;=])/[^ ";)]+' "$tmp"/prefix/lib/cmake/varbench/*.cmake)
  [ -z "$abs" ] || fail "the installed package names absolute paths: $abs"
  ! grep -qi sqlite3 "$tmp"/prefix/lib/cmake/varbench/*.cmake || fail "the installed package names SQLite"
  nm -g --defined-only "$tmp/prefix/lib/libvarbench.a" 2>/dev/null | grep -q ' T sqlite3_open_v2$' ||
    fail "libvarbench.a holds no SQLite"
  cmake -S "$src/examples" -B ex -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CUDA_ARCHITECTURES="$archs" >cfg.log 2>&1 || { cat cfg.log >&2; fail "configure"; }
  cmake --build ex -j 2 -v >bld.log 2>&1 || { cat bld.log >&2; fail "build"; }
  ! grep -q 'libsqlite3\|-lsqlite3' bld.log || fail "the example links SQLite of its own"
  expect 0 "ex/device-triad" ex/example list
  grep -qF 'n=1048576,4194304,16777216,67108864' out || fail "the pow2 spec's values"
  expect 0 "mini/scale" ex/mini list
  expect $nogpu "" ex/example run --quick --db ex.db
  expect 0 "ex/cpu-triad" "$tmp/prefix/bin/varbench" export --db ex.db --format csv
  [ $nogpu -eq 0 ] || grep -q ',ex/device-triad,.*skipped' out || fail "GPU cases skipped"
  # a project of C alone against the same package (the C++ runtime comes with the function)
  mkdir conly
  cp "$src/tests/bench/user_bench.c" conly/
  printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(conly LANGUAGES C)' \
    'find_package(varbench REQUIRED)' 'varbench_add_benchmark(u SOURCES user_bench.c)' \
    >conly/CMakeLists.txt
  cmake -S conly -B cb -DCMAKE_PREFIX_PATH="$tmp/prefix" >ccfg.log 2>&1 || { cat ccfg.log >&2; fail "C-only configure"; }
  cmake --build cb >cbld.log 2>&1 || { cat cbld.log >&2; fail "C-only build"; }
  expect 0 "u/cpu" cb/u list ;;
subdirectory)
  # varbench inside a user's tree (add_subdirectory, as FetchContent gives it): the function and
  # varbench::varbench there too; only the user's target is built
  src=$5 archs=$6
  mkdir outer
  printf '%s\n' 'cmake_minimum_required(VERSION 3.25)' 'project(outer LANGUAGES C CXX CUDA)' \
    "add_subdirectory($src varbench EXCLUDE_FROM_ALL)" \
    "varbench_add_benchmark(mini SOURCES $src/examples/minimal.cu)" >outer/CMakeLists.txt
  cmake -S outer -B ob -DCMAKE_CUDA_ARCHITECTURES="$archs" >cfg.log 2>&1 || { cat cfg.log >&2; fail "configure"; }
  cmake --build ob --target mini -j 2 >bld.log 2>&1 || { cat bld.log >&2; fail "build"; }
  expect 0 "mini/scale" ob/mini list ;;
*) echo "user_bench.sh: no case '$case'" >&2; exit 2 ;;
esac
exit 0
