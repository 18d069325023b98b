import re,glob,statistics as st,sys
d=sys.argv[1] if len(sys.argv)>1 else '/tmp/s18'
for f in sorted(glob.glob(d+'/pkab-*-*.txt')):
    rows={'t1':[],'t2':[]}
    for l in open(f):
        m=re.match(r'\s+idxkit pk (t\d) 512m\s+scan\s+([\d.]+) s, build\s+([\d.]+) s.*total\s+([\d.]+) s.*CPU\s+([\d.]+) s',l)
        if m: rows[m.group(1)].append(tuple(float(x) for x in m.groups()[1:]))
    r=re.search(r'primary key alone: t1 / t2 \(512m\)\s+([\d.]+)',open(f).read())
    med=lambda t,i: st.median(x[i] for x in rows[t])
    print('%-28s t1 scan %.2f build %.2f total %.2f | t2 scan %.2f build %.2f total %.2f | ratio %s'%(f.split('/')[-1],med('t1',0),med('t1',1),med('t1',2),med('t2',0),med('t2',1),med('t2',2),r.group(1) if r else '?'))
