#!/usr/bin/env python3
"""readme_check.py: the README held to the code it describes, so that it cannot drift.

usage: readme_check.py README.md VARBENCH ROOT [BUILD]
  README.md  the file to check (a planted copy in the test of this test)
  VARBENCH   the built binary: its `list` and `--help` are the truth
  ROOT       the source tree: ci/common.sh (what ci/test installs), include/varbench.h (exit codes)
  BUILD      a configured build folder: `ctest --print-labels` (the test labels); without it,
             the labels are not checked

Checks, each both ways (nothing missing, nothing extra):
  catalog    the table under '## The catalog': each family's seed and variants against
             `varbench list` (the CPU oracles, cpu-reference and *-cpu, are named in the header),
             and its sentence 'The default catalog is N cases' against list's count
  install    the packages the README says ci/suite and ci/test install, against
             ci/common.sh's VB_SUITE_PKGS and VB_TEST_PKGS
  commands   the 'varbench CMD' lines of the block under '## Commands' against the commands
             `varbench --help` lists
  exit codes the table under the Commands section against include/varbench.h's X(NAME, CODE, ...)
  example    the block under '### Your own kernel in 20 lines' against examples/minimal.cu
  labels     the backticked labels of the sentence 'Tests are labelled ...' against ctest's
Prints one line per finding and 'readme: N checks, M findings'; exit 0 clean, 1 a finding,
2 usage or a file that cannot be read.
"""
import re
import subprocess
import sys

VARIANT = re.compile(r'^[a-z0-9]+(-[a-z0-9]+)*$')


def section(text, heading):
    """the text from the line `heading` to the next heading of the same or a higher level"""
    m = re.search(r'^' + re.escape(heading) + r'\s*$', text, re.M)
    if not m:
        return None
    level = len(heading) - len(heading.lstrip('#'))
    rest = text[m.end():]
    end = re.search(r'^#{1,%d} ' % level, rest, re.M)
    return rest[:end.start()] if end else rest


def ticked(s):
    return re.findall(r'`([^`]+)`', s)


def both_ways(what, readme, truth, where, findings):
    for x in sorted(set(truth) - set(readme)):
        findings.append('%s: %s is missing from the README (%s has it)' % (what, x, where))
    for x in sorted(set(readme) - set(truth)):
        findings.append('%s: the README names %s, which %s does not have' % (what, x, where))


def check_catalog(text, vb, findings):
    sec = section(text, '## The catalog')
    if sec is None:
        findings.append('catalog: no "## The catalog" section')
        return
    listed, seeds, family, cases = {}, {}, None, None
    for line in subprocess.run([vb, 'list'], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r'^\d+ variants?, (\d+) cases? at the default axes', line)
        if m:
            cases = int(m.group(1))
            continue
        m = re.match(r'^([a-z0-9]+): ', line)
        if m:
            family = m.group(1)
            listed[family] = set()
            continue
        m = re.match(r'^\s+seed: variants/seeds/(\d+)_', line)
        if m and family:
            seeds[family] = m.group(1)
        m = re.match(r'^\s+([a-z0-9]+)/([a-z0-9-]+)\s', line)
        if m and not (m.group(2) == 'cpu-reference' or m.group(2).endswith('-cpu')):
            listed[m.group(1)].add(m.group(2))
    rows = {}
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 3 or not cells[0].startswith('`'):
            continue
        fam = ticked(cells[0])[0]
        rows[fam] = ([v for v in ticked(cells[2]) if VARIANT.match(v)], cells[1])
    both_ways('catalog families', rows, listed, 'varbench list', findings)
    for fam in sorted(set(rows) & set(listed)):
        both_ways('catalog %s' % fam, ['%s/%s' % (fam, v) for v in rows[fam][0]],
                  ['%s/%s' % (fam, v) for v in listed[fam]], 'varbench list', findings)
        if seeds.get(fam) and rows[fam][1] != seeds[fam]:
            findings.append('catalog %s: seed %s in the README, %s in varbench list'
                            % (fam, rows[fam][1], seeds[fam]))
    # its size: what the README's dated figures say they were measured on is compared to it
    m = re.search(r'The default catalog is (\d+) cases', sec)
    if not m:
        findings.append('catalog size: no "The default catalog is N cases" under the catalog')
    elif cases is None:
        findings.append('catalog size: varbench list does not end with its case count')
    elif int(m.group(1)) != cases:
        findings.append('catalog size: the README says %s cases, varbench list %d: a stale '
                        'count (re-measure the figures quoted from whole-catalog runs, and date '
                        'them with the new count)' % (m.group(1), cases))


def check_install(text, root, findings):
    """the README's two install lists, each against its array of ci/common.sh"""
    with open(root + '/ci/common.sh') as f:
        common = f.read()
    for who, arr, pat in (
            ('ci/suite', 'VB_SUITE_PKGS',
             r'`ci/suite` what the\s+main job uses \((.*?)\);'),
            ('ci/test', 'VB_TEST_PKGS', r'`ci/test` those and the tests\' own \((.*?)\)\. ')):
        m = re.search(pat, text, re.S)
        if not m:
            findings.append('install: no sentence of what %s installs' % who)
            continue
        p = re.search(r'^%s=\((.*?)\)' % arr, common, re.S | re.M)
        if not p:
            findings.append('install: no %s=(...) in ci/common.sh' % arr)
            continue
        truth = [w for w in p.group(1).split() if re.match(r'^[a-z0-9][a-z0-9.+-]*$', w)]
        both_ways('install (%s)' % who, ticked(m.group(1)), truth, 'ci/common.sh', findings)


def check_commands(text, vb, findings):
    sec = section(text, '## Commands')
    block = re.search(r'```\n(.*?)```', sec or '', re.S)
    if not block:
        findings.append('commands: no code block under "## Commands"')
        return
    readme = set(re.findall(r'^varbench ([a-z]+)', block.group(1), re.M))
    out = subprocess.run([vb, '--help'], capture_output=True, text=True).stdout
    cmds = re.search(r'^commands:\n(.*?)\n\n', out, re.S | re.M)
    truth = set(re.findall(r'^  ([a-z]+) ', cmds.group(1), re.M)) if cmds else set()
    both_ways('commands', readme, truth, 'varbench --help', findings)


def check_codes(text, root, findings):
    sec = section(text, '## Commands') or ''
    readme = re.findall(r'^\| (\d+) \|', sec, re.M)
    with open(root + '/include/varbench.h') as f:
        truth = re.findall(r'X\([A-Z]+,\s*(\d+),', f.read())
    both_ways('exit codes', readme, truth, 'include/varbench.h', findings)


def check_labels(text, build, findings):
    m = re.search(r'Tests are labelled (.*?)[.;]', text, re.S)
    if not m:
        findings.append('labels: no "Tests are labelled ..." sentence')
        return
    out = subprocess.run(['ctest', '--print-labels'], cwd=build, capture_output=True,
                         text=True).stdout
    truth = re.findall(r'^  (\S+)$', out, re.M)
    both_ways('labels', ticked(m.group(1)), truth, 'ctest --print-labels', findings)


def check_example(text, root, findings):
    """the code block of '### Your own kernel in 20 lines' is examples/minimal.cu from its first
    #include on, line for line: the README shows the file, and a copy must not drift"""
    sec = section(text, '### Your own kernel in 20 lines')
    block = re.search(r'```cuda\n(.*?)```', sec or '', re.S)
    with open(root + '/examples/minimal.cu') as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('#include')), 0)
    if not block:
        findings.append('example: no cuda block under "### Your own kernel in 20 lines"')
    elif block.group(1).splitlines() != lines[start:]:
        findings.append('example: the README\'s kernel in 20 lines differs from '
                        'examples/minimal.cu')


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    readme, vb, root = argv[:3]
    try:
        with open(readme) as f:
            text = f.read()
    except OSError as e:
        print('readme: %s' % e, file=sys.stderr)
        return 2
    findings = []
    check_catalog(text, vb, findings)
    check_install(text, root, findings)
    check_commands(text, vb, findings)
    check_codes(text, root, findings)
    check_example(text, root, findings)
    checks = 5
    if len(argv) == 4:
        check_labels(text, argv[3], findings)
        checks += 1
    for f in findings:
        print(f)
    print('readme: %d checks, %d findings' % (checks, len(findings)))
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
