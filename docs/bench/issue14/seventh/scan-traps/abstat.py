import sys,statistics as st,collections
rows=collections.defaultdict(dict)
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)<8: continue
    rows[int(p[1])][p[0]]=(float(p[3])/1000,float(p[5]),float(p[7]))
for k,name in enumerate(['wall','scan','build']):
    a=[r['A'][k] for r in rows.values() if 'A' in r and 'B' in r]; b=[r['B'][k] for r in rows.values() if 'A' in r and 'B' in r]
    ratios=sorted(x/y for x,y in zip(a,b))
    print('%-5s A med %.2f (%.2f-%.2f)  B med %.2f (%.2f-%.2f)  A/B med %.3f  [%s]'%(name,st.median(a),min(a),max(a),st.median(b),min(b),max(b),st.median(ratios),' '.join('%.2f'%r for r in ratios)))
