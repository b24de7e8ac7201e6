#!/usr/bin/env python3
# difference_table.py OUTPUT DOC: writes docs/slurm-compat.md's "Conformance differences"
# table again from a run of the conformance test with FAIRWAY_CONFORMANCE_ALL=1 (every
# difference printed): one line per differing key, the reason kept from the table as it
# was, "open: ..." with example rows for a key not listed before. Edit the reasons after.
import collections
import fnmatch
import re
import sys

out_path, doc_path = sys.argv[1], sys.argv[2]
rows_total = sum(1 for l in open(__file__.rsplit('/', 1)[0] + '/rows.tsv') if l.strip() and not l.startswith('#'))
by_key = collections.defaultdict(set)
array_rows = set()
for line in open(out_path):
    f = line.rstrip('\n').split('\t')
    if len(f) < 4 or not f[2].startswith('Slurm:'):
        continue
    row, key = f[0], f[1]
    if re.match(r'^[0-9]+/', key):
        array_rows.add(row)
    else:
        by_key[key].add(row)
doc = open(doc_path).read()
start = doc.index('| key | rows | why Fairway differs |')
head_end = doc.index('|---|---|---|\n', start) + len('|---|---|---|\n')
end = doc.index('\n\n', head_end)
old = {}
# Lines for particular rows (rows other than `*`: a request Fairway refuses or takes
# otherwise, where every key differs for one reason) are kept as written, first, and
# the differences they cover are not counted again per key.
row_lines = []
row_patterns = []
for l in doc[head_end:end].split('\n'):
    m = re.match(r'^\| `(.*?)` \| `(.*?)` \| (.*) \|$', l)
    if m and m.group(2) != '*':
        row_lines.append(l)
        row_patterns.append((m.group(1).replace('\\|', '|').split(), m.group(2).split()))
    elif m:
        old[m.group(1).replace('\\|', '|')] = re.sub(r' \(\d+ rows\)$', '', m.group(3))
for key in list(by_key):
    by_key[key] = {r for r in by_key[key]
                   if not any(any(fnmatch.fnmatchcase(key, k) for k in ks) and any(fnmatch.fnmatchcase(r, rp) for rp in rps)
                              for ks, rps in row_patterns)}
    if not by_key[key]:
        del by_key[key]
lines = list(row_lines)
for key in sorted(by_key, key=lambda k: (-len(by_key[k]), k)):
    rows = sorted(by_key[key])
    why = old.get(key)
    if why is None or why.startswith('open: found by this harness'):
        why = 'open: found by this harness, not fixed yet; %d of %d rows, e.g. %s' % (
            len(rows), rows_total, ', '.join(rows[:4]))
    else:
        why += ' (%d rows)' % len(rows)
    lines.append('| `%s` | `*` | %s |' % (key.replace('|', '\\|'), why))
if array_rows:
    lines.append("| `[0-9]*/*` | `*` | an array task's own keys: the same differences as the job keys above, "
                 "per task (%d array rows) |" % len(array_rows))
open(doc_path, 'w').write(doc[:head_end] + '\n'.join(lines) + doc[end:])
print('%d lines' % len(lines))
