import sys,re,collections
for f in sys.argv[1:]:
    c=collections.Counter(); tot=0
    for l in open(f):
        st,n=l.rsplit(' ',1); n=int(n); tot+=n
        th=st.split(';')[0]
        th=re.sub(r' tid=\d+','',th); th=re.sub(r'-\d+\]',']',th); th=re.sub(r'\d+','N',th)
        c[th]+=n
    print(f, 'total ms', tot)
    for k,v in c.most_common(15): print('  %6d %s'%(v,k))
