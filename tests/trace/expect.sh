#!/usr/bin/env bash
# expect.sh SUMMARY CHECK...: holds a `varbench summary` output (a file) against what a traced
# program is known to do. Each CHECK is one argument:
#   "copy HtoD 2 8000000"   the Data moved line of [CUDA memcpy HtoD]: 2 calls, 8000000 bytes in all
#   "copy memset 1 4000000" the same for [CUDA memset]
#   "calls 3 TEXT"          a line of GPU activities, API calls or NVTX ranges whose Name holds TEXT
#                           (fixed string) with 3 calls
#   "processes 1"           the number of traced processes
# Prints each check and its verdict; exit 0 when all hold, 1 otherwise.
set -u
summary=$1
shift
fail=0
# The columns are fixed (summary.c): timed lines "%16s%8.2f%%%10s%10lld%10s%10s%10s  %s" and data
# lines "%16s%10lld%16lld%14lld%14lld%14lld%13s  %s".
for check in "$@"; do
  what=${check%% *}
  rest=${check#* }
  case $what in
  copy)
    read -r kind want_calls want_bytes <<<"$rest"
    name="[CUDA memcpy $kind]"
    [ "$kind" = memset ] && name="[CUDA memset]"
    got=$(awk -v n="$name" 'substr($0, 17, 10) ~ /^ *[0-9]+$/ && substr($0, 100) == n { print substr($0, 17, 10) + 0, substr($0, 27, 16) + 0 }' "$summary")
    want="$want_calls $want_bytes" ;;
  calls)
    want=${rest%% *}
    text=${rest#* }
    got=$(awk -v t="$text" 'substr($0, 17, 9) ~ /%$/ && index(substr($0, 78), t) { print substr($0, 36, 10) + 0; exit }' "$summary") ;;
  processes)
    got=$(sed -n 's/^==varbench== \([0-9]*\) traced process.*/\1/p' "$summary")
    want=$rest ;;
  *) echo "expect.sh: unknown check '$check'" >&2; exit 2 ;;
  esac
  if [ "$got" = "$want" ]; then
    echo "ok    $check"
  else
    echo "FAIL  $check (summary says '${got:-nothing}')"
    fail=1
  fi
done
exit $fail
