# ci/common.sh: sourced by ci/test and ci/suite. Installs the Debian packages varbench needs
# when they are missing (gnuplot for reports; python3 and chromium for the report's test; clang-format for ci/lint;
# slurm-wlm and munge for the fleet's test on a one-node Slurm cluster, tests/slurm/), finds the CUDA Toolkit, and configures and builds with the preset.
# Needs root (or sudo) only when something must be installed.

vb_log() { printf '==> %s\n' "$*"; }

vb_install_deps() {
  local pkgs=(cmake make gcc g++ libsqlite3-dev sqlite3 gnuplot-nox python3 chromium clang-format
    slurm-wlm munge "$@") missing=() p
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
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
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
