# shellcheck shell=bash disable=SC2154 # $case is the sourcing script's
# expect.sh: what the command-line tests' scripts share, sourced (tests/user_bench.sh,
# tests/store_guard.sh), in the folder the case runs in, with $case naming it.
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
