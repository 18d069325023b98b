import sys, statistics, re
# loopsum.py FILE: medians of t1/t2 ROUND times from round 2 on, and phase walls
t={'1':[], '2':[]}; b={'1':[], '2':[]}
for l in open(sys.argv[1]):
    m=re.match(r'ROUND (\d+) t(\d) rc 0 ([\d.]+) s.*build ([\d.]+) s', l)
    if m and int(m.group(1))>=2: t[m.group(2)].append(float(m.group(3))); b[m.group(2)].append(float(m.group(4)))
m1=statistics.median(t['1']); m2=statistics.median(t['2'])
print("t1 %.3f t2 %.3f ratio %.3f | build t1 %.3f t2 %.3f | t2 all %s" % (m1, m2, m1/m2, statistics.median(b['1']), statistics.median(b['2']), sorted(t['2'])))
