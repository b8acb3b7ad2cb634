#!/usr/bin/env bash
# ab.sh CASE VBUSER VARBENCH: varbench ab, two builds paired case by case, on the CPU rung of
# tests/bench/user_bench.c's program (VBUSER; VB_USER_CASE=slow does its work 8x, =wrong makes
# its first value wrong, through wrapper scripts that stand for a second build); GPU rungs are
# recorded skipped without a GPU. Exit 0 pass, 1 fail, 77 skip.
#   same      one build against itself: same, exit 0; the runs stored, a JUnit file written
#   slow      B's CPU rung doing 8x the work: slower, naming the case and its phase, exit 1 (JUnit: a failure)
#   broken    B wrong: broken, exit 1
#   mismatch  B plans a case more: listed as only in it, the common case judged, exit 0
#   bisect    a 16-commit history with one planted slowdown: varbench bisect finds it, the tree
#             back where it was; a BAD no slower: exit 0; a dirty tree, a bad revision: exit 2
#   usage     a missing or non-executable side, bad --rounds, a side that dies, --ab-worker
#             given by hand: a message naming the problem, exit 2 or 6
set -u
case=$1 user=$2 vb=$3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/expect.sh
. "$here/expect.sh" # fail, expect, have_gpu, in_tmp
in_tmp
have_gpu && { echo "a GPU here: the CPU rung would run alone (GPU cases decide): skipped"; exit 77; }
for m in slow wrong; do
  printf '#!/bin/sh\nVB_USER_CASE=%s exec %s "$@"\n' "$m" "$user" >"$m"
  chmod +x "$m"
done
# one CPU case of 32 MB (~5 ms), its GPU rung skipped, judged at a 150% limit (same: the
# interval inside -60%..+150%): on a 2-core CI machine two processes of one build differ in
# host time by more than ab's 25% (A against B: at 512 KB -5% to -47%, at 32 MB +6% to -22%, and
# once -24%, -39%..-18% after 30 rounds, which a 60% limit (-37.5% faster) called noisy: a
# process's own state, which pairing rounds cannot cancel), while the planted 8x work is +600%
limit=(--threshold 150)
one=(--axis n=4194304 --axis x=0.5 --axis t=a "${limit[@]}" --budget 30)
case $case in
same)
  expect 0 "verdict: no regression (exit 0)" "$vb" ab "$user" "$user" "${one[@]}" --db s.db --junit s.xml
  cat out
  grep -q "^u/cpu .* e2e (CPU-only) .* same$" out || fail "the CPU rung not same"
  grep -q "^u/gpu .* not-compared (skipped in A)$" out || fail "the skipped GPU rung"
  grep -q 'failures="0"' s.xml || fail "JUnit"
  expect 0 "complete" "$vb" runs --db s.db
  [ "$(grep -c ' suite  complete ' out)" -eq 2 ] || fail "two complete runs" ;;
slow)
  expect 1 "verdict: REGRESSION (exit 1)" "$vb" ab "$user" ./slow "${one[@]}" --db s.db --junit s.xml
  cat out
  grep -qE "^u/cpu .* slower \(e2e \+[0-9]*%(; .*)?\)$" out || fail "the slow rung not named slower"
  grep -q 'failures="1"' s.xml || fail "JUnit: no failure" ;;
broken)
  expect 1 "broken (ok -> wrong-result)" "$vb" ab "$user" ./wrong "${one[@]}" --db s.db
  cat out ;;
mismatch)
  # B plans one case more (its n axis rewritten): listed only in it; the common one judged
  printf '#!/bin/sh\nexec %s $(echo "$@" | sed "s/n=4194304/n=1024,4194304/")\n' "$user" >more
  chmod +x more
  expect 0 "only-in-candidate" "$vb" ab "$user" ./more "${one[@]}" --db s.db
  cat out
  grep -q "^u/cpu  *n=1024,x=0.5,t=a .* only-in-candidate$" out || fail "B's extra case"
  grep -q "^u/cpu  *n=4194304,x=0.5,t=a .* same$" out || fail "the common case not judged" ;;
usage)
  expect 2 "B: './nope' is not an executable file" "$vb" ab "$user" ./nope
  expect 2 "expected A and B" "$vb" ab "$user"
  expect 2 "bad --rounds '3:10'" "$vb" ab "$user" "$user" --rounds 3:10
  printf '#!/bin/sh\necho "it broke" >&2\nexit 3\n' >dies
  chmod +x dies
  expect 6 "B (./dies) stopped before its run ended (exit 3): it broke" "$vb" ab "$user" ./dies \
    "${one[@]}" --db d.db
  # a build from before ab: its run refuses --ab-worker
  printf '#!/bin/sh\necho "varbench run: unknown option --ab-worker" >&2\nexit 2\n' >old
  chmod +x old
  expect 6 "a build older than varbench ab" "$vb" ab "$user" ./old "${one[@]}" --db o.db
  expect 2 "--ab-worker '1,2': RFD,WFD (given by varbench ab)" "$vb" run --ab-worker 1,2 --db w.db
  expect 2 "not with --worker or --device all" "$vb" run --ab-worker 5,6 --device all ;;
bisect)
  # 16 commits, the 11th makes the CPU rung do 8x the work: bisect names it (and BAD no slower: 0);
  # a commit's build writes `bench`, a program of the mode it holds
  command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
  mkdir repo && cd repo || fail "repo"
  g=(git -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false)
  git init -q . && printf 'bench\n' >.gitignore || fail "git init"
  printf '%s\n' '#!/bin/sh' \
    'printf "#!/bin/sh\nVB_USER_CASE=%s exec %s \"\$@\"\n" "$(cat mode)" "$VBUSER" >bench' \
    'chmod +x bench' >build.sh
  for i in $(seq 1 16); do
    if [ "$i" -ge 11 ]; then echo slow >mode; else echo good >mode; fi
    echo "$i" >n
    "${g[@]}" add -A && "${g[@]}" commit -qm "commit $i" || fail "commit $i"
  done
  export VBUSER=$user
  # the planted change well over the threshold, the threshold well over the noise: a CI machine
  # measured 3x the work as +80% (+50%..+89% after 30 rounds: noisy against 60%), hence 8x
  pick=(--build "sh build.sh" --exe bench --filter 'u/cpu' --axis n=4194304 --axis x=0.5 --axis t=a
    "${limit[@]}")
  expect 1 "first bad commit: $(git rev-parse --short HEAD~5) commit 11" "$vb" bisect HEAD~15 HEAD \
    "${pick[@]}"
  cat out
  grep -qE "^u/cpu .* slower \(e2e \+[0-9]*%(; .*)?\)$" out || fail "no ab evidence"
  grep -q "commits built and paired (BAD among them)" out || fail "no step count"
  [ "$(git rev-parse --abbrev-ref HEAD)" != HEAD ] || fail "the work tree left detached"
  [ "$(cat n)" = 16 ] || fail "the work tree not back on its commit"
  [ ! -e .git/BISECT_START ] || fail "the bisection left open"
  expect 0 "BAD is not slower than GOOD" "$vb" bisect HEAD~15 HEAD~6 "${pick[@]}"
  echo x >>n
  expect 2 "the work tree has changes" "$vb" bisect HEAD~15 HEAD --build true --exe bench
  git checkout -q n
  expect 2 "'nope' is not a revision" "$vb" bisect nope HEAD --build true --exe bench
  expect 2 "--build CMD and --exe PATH are both needed" "$vb" bisect HEAD~1 HEAD ;;
*) echo "ab.sh: no case '$case'" >&2; exit 2 ;;
esac
exit 0
