import sys,re,statistics as st,glob,collections
# abs.py PATTERN: per file medians of rounds 2.. ; then per variant medians of file medians
res=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1])):
    rows=[]
    for l in open(f):
        m=re.search(r'rc 0 ([\d.]+) s\s+scan ([\d.]+) s ([\d.]+) s \| build ([\d.]+) s ([\d.]+) s',l)
        if m: rows.append([float(x) for x in m.groups()])
    rows=rows[2:]
    med=[st.median(r[i] for r in rows) for i in range(5)]
    v=f.split('/')[-1].rsplit('-',1)[0]
    res[v].append(med)
    print('%-24s total %.3f scan %.3f scanCPU %.3f build %.3f buildCPU %.3f'%((f.split('/')[-1],)+tuple(med)))
for v,ms in res.items():
    print('%-18s n=%d median of medians: total %.3f scan %.3f scanCPU %.3f build %.3f buildCPU %.3f'%((v,len(ms))+tuple(st.median(m[i] for m in ms) for i in range(5))))
