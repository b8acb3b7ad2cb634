# ci/common.sh: sourced by ci/suite, ci/perf-gate and ci/test. Installs the Debian packages
# missing (the main job's; ci/test adds the tests' own), finds the CUDA Toolkit, and configures
# and builds with the preset. Needs root (or sudo) only when something must be installed.

vb_log() { printf '==> %s\n' "$*"; }

# What the main job uses (ci/suite, ci/perf-gate): the build, and gnuplot for the report.
VB_SUITE_PKGS=(cmake make gcc g++ libsqlite3-dev python3 gnuplot-nox)
# What only the tests use (ci/test adds them): the sqlite3 shell (the fixtures), chromium (the
# report's rendering test), clang-format (ci/lint), python3-venv (the Python package installed
# by pip into a fresh virtual environment), slurm-wlm and munge (the fleet's test, which
# starts its own daemons: the packages' services are neither started nor left enabled here).
VB_TEST_PKGS=(sqlite3 chromium clang-format python3-venv slurm-wlm munge)

# vb_install_deps [PKG...]: installs what is missing of the main job's packages and PKG...
vb_install_deps() {
  local pkgs=("${VB_SUITE_PKGS[@]}" "$@") missing=() p rcd=/usr/sbin/policy-rc.d made=
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    vb_log "Debian packages present: ${pkgs[*]}"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  vb_log "installing: ${missing[*]}"
  $sudo apt-get update -qq
  # no service a package brings is started by its installation (invoke-rc.d asks policy-rc.d)
  if [ ! -e "$rcd" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$rcd" >/dev/null && $sudo chmod +x "$rcd" && made=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  [ -z "$made" ] || $sudo rm -f "$rcd"
  # nor left enabled, where systemd runs: those of the packages installed here
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    local units=()
    [[ " ${missing[*]} " == *" munge "* ]] && units+=(munge)
    [[ " ${missing[*]} " == *" slurm-wlm "* ]] && units+=(slurmctld slurmd)
    for p in "${units[@]}"; do
      $sudo systemctl disable --now "$p" >/dev/null 2>&1 || true
    done
  fi
}

vb_find_cuda() {
  if ! command -v nvcc >/dev/null; then
    for d in /usr/local/cuda/bin /usr/local/cuda-13*/bin; do
      [ -x "$d/nvcc" ] && export PATH="$d:$PATH" && break
    done
  fi
  if ! command -v nvcc >/dev/null; then
    echo "error: the CUDA Toolkit (nvcc) is not installed; install CUDA 13 under /usr/local/cuda" >&2
    exit 2
  fi
  vb_log "$(nvcc --version | tail -n 1)"
}

vb_build() {
  vb_log "configure and build (preset default)"
  cmake --preset default
  cmake --build --preset default -j "$(nproc)"
}
