# shellcheck shell=bash disable=SC2154 # $case is the sourcing script's
# expect.sh: what the command-line tests' scripts share, sourced (tests/user_bench.sh,
# tests/python_pkg.sh, tests/ab.sh, tests/store_guard.sh, tests/perf_gate.sh,
# tests/suite_report.sh), with $case naming the case.
# fail MSG: the case fails, with what the last command printed
fail() {
  echo "FAIL ($case): $*" >&2
  echo "--- stdout" >&2
  cat out >&2 2>/dev/null
  echo "--- stderr" >&2
  cat err >&2 2>/dev/null
  exit 1
}
# expect CODE TEXT CMD...: CMD exits CODE and says TEXT (stdout or stderr)
expect() {
  local code=$1 text=$2
  shift 2
  "$@" >out 2>err
  local rc=$?
  [ "$rc" -eq "$code" ] || fail "'$*' exited $rc, expected $code"
  grep -qF -- "$text" out err || fail "'$*' did not say '$text'"
}
# have_gpu: whether this machine has a GPU to run on
have_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
# nogpu_code: the exit code of a run with GPU cases here (0 with a GPU, 4 without: they are
# skipped)
nogpu_code() { if have_gpu; then echo 0; else echo 4; fi; }
# in_tmp: a folder of the case's own ($tmp), removed when the script exits, as the current one
# and as TMPDIR (what the commands leave there, bisect's logs, goes with it)
in_tmp() {
  tmp=$(mktemp -d) || exit 1
  trap 'rm -rf "$tmp"' EXIT
  cd "$tmp" || exit 1
  export TMPDIR=$tmp
}
# stand_in DIR VARBENCH DB [CI_SCRIPT...]: writes DIR/build/varbench, which stands in for
# `varbench run` (it copies DB to the run's --db and exits with $STUB_RUN_RC, default 0) and
# hands every other command to VARBENCH, and copies each CI_SCRIPT of ci/ with ci/common.sh into
# DIR/ci: a ci/ script run without a GPU on a prepared result
stand_in() {
  local ci
  ci=$(dirname "${BASH_SOURCE[0]}")/../ci
  mkdir -p "$1/build" "$1/ci"
  for s in common.sh "${@:4}"; do cp "$ci/$s" "$1/ci/" || fail "no ci/$s"; done
  cat >"$1/build/varbench" <<STUB
#!/usr/bin/env bash
if [ "\$1" = run ]; then
  while [ \$# -gt 0 ] && [ "\$1" != --db ]; do shift; done
  cp "$3" "\$2" && exit "\${STUB_RUN_RC:-0}"
fi
exec "$2" "\$@"
STUB
  chmod +x "$1/build/varbench"
}
