# t.py FILE: tables of ../../eighth/kernels/ab6.sh output (A = the commit before, in a worktree; B = main): medians per variant
# (cold = round 0, r1, warm = rounds 2-7), and the per-pair ratio of warm build CPU
import sys,re,statistics as st
rows={}
for l in open(sys.argv[1]):
    m=re.match(r'(\w) round (\d+) rc 0 ([\d.]+) s  scan ([\d.]+) s ([\d.]+) s \| build ([\d.]+) s ([\d.]+) s',l)
    if not m: continue
    v,r=m.group(1),int(m.group(2)); x=[float(m.group(i)) for i in range(3,8)]
    rows.setdefault((v,'cold' if r==0 else 'warm' if r>=2 else 'r1'),[]).append(x)
for k in sorted(rows):
    xs=rows[k]
    print(k,len(xs),' '.join('%s %.3f'%(n,st.median([x[i] for x in xs])) for i,n in enumerate(['total','scan','scanCPU','build','buildCPU'])))
# per JVM: median warm build CPU, paired A then B
import itertools
jv=[];cur=None
for l in open(sys.argv[1]):
    m=re.match(r'(\w) round (\d+) rc 0 ([\d.]+) s  scan ([\d.]+) s ([\d.]+) s \| build ([\d.]+) s ([\d.]+) s',l)
    if not m: continue
    if int(m.group(2))==0: jv.append((m.group(1),[]))
    if int(m.group(2))>=2: jv[-1][1].append(float(m.group(7)))
r=[]
for i in range(0,len(jv)-1,2):
    a=st.median(jv[i][1]); b=st.median(jv[i+1][1]); r.append(b/a)
print('B/A warm build CPU per pair', ' '.join('%.2f'%x for x in r), 'median %.3f'%st.median(r))
