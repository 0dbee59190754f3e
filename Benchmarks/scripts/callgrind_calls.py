"""Call counts per function from a callgrind output file, shared by callgrind-summary.py and
profile-sse.sh: callgrind names a function once (`fn=(id) name`) and refers to it by id after, so the
ids are resolved here, in one place."""
import collections
import re


def call_counts(path):
    """Returns {function name: times called} (a function whose name never appeared keeps its id)."""
    names = {}
    calls = collections.Counter()
    cfn = None
    for line in open(path):
        if line.startswith(('fn=', 'cfn=')):
            m = re.match(r'c?fn=\((\d+)\)(?: (.*))?', line.strip())
            if m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith('cfn='):
                cfn = m.group(1)
        elif line.startswith('calls='):
            calls[cfn] += int(line.split('=')[1].split()[0])
    byname = collections.Counter()
    for k, v in calls.items():
        byname[names.get(k, k)] += v
    return byname
