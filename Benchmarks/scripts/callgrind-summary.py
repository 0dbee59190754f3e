#!/usr/bin/env python3
"""usage: Benchmarks/scripts/callgrind-summary.py CALLGRIND_FILE REQUESTS [AVATARS_PER_REQUEST=30]
Prints instructions per request, runtime call counts per request/avatar (allocations, retain/release,
locks) and self cost grouped by module. Works on files from Benchmarks/scripts/profile-server.sh."""
import sys, re, subprocess, collections, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from callgrind_calls import call_counts
f, reqs = sys.argv[1], int(sys.argv[2]); av = int(sys.argv[3]) if len(sys.argv) > 3 else 30
byname = call_counts(f)
def c(*keys): return sum(v for n, v in byname.items() if any(n == k or n.startswith(k + "'") for k in keys))
out = subprocess.run(['callgrind_annotate', '--threshold=100', f], capture_output=True, text=True).stdout
total = 0; g = collections.Counter()
for line in out.splitlines():
    m = re.match(r'\s*([\d,]+)\s+\(.*?\)\s+(.*)', line)
    if not m: continue
    n = int(m.group(1).replace(',', '')); s = m.group(2)
    if 'PROGRAM TOTALS' in s: total = n; continue
    if any(x in s for x in ('malloc', 'free', 'arena.c', 'jemalloc', 'posix_memalign')): k = 'malloc/free'
    elif any(x in s for x in ('swift_retain', 'swift_release', 'RefCounts', 'bridgeObject', 'release_dealloc')): k = 'retain/release'
    elif 'libswiftCore' in s: k = 'swiftCore other'
    elif 'libcrypto' in s: k = 'libcrypto'
    elif 'libz' in s: k = 'zlib'
    elif 'Foundation' in s: k = 'Foundation'
    elif 'pthread' in s: k = 'pthread'
    elif 'libc.so' in s: k = 'libc other'
    else:
        m2 = re.search(r'\$s\d*([A-Za-z]+?)(?=\d|$)', s)
        k = 'module ' + (m2.group(1) if m2 else s[-40:])
    g[k] += n
print(f"instructions per request: {total/reqs:,.0f}  per avatar: {total/reqs/av:,.0f}")
for label, keys in [('swift_allocObject', ['swift_allocObject']), ('malloc', ['malloc']), ('swift_retain', ['swift_retain']),
                    ('swift_release', ['swift_release']), ('bridgeObject retain+release', ['swift_bridgeObjectRetain', 'swift_bridgeObjectRelease']),
                    ('pthread_mutex_lock', ['pthread_mutex_lock@@GLIBC_2.2.5', 'pthread_mutex_lock']),
                    ('instantiateConcreteType', ['__swift_instantiateConcreteTypeFromMangledName']), ('swift_once', ['swift_once'])]:
    n = c(*keys); print(f"  {label:32s} {n/reqs:9,.0f}/request {n/reqs/av:7,.1f}/avatar")
for k, v in g.most_common(16): print(f"  {100*v/total:5.1f}%  {v/reqs:10,.0f}/request  {k}")
