# jt.py DIR: medians of the phases in the JSON reports cj.sh kept, per tag; pair ratios B/A in run order
import json,glob,statistics as st,os,sys
d=sys.argv[1] if len(sys.argv)>1 else '/tmp/s16/j'
rows={}
# in the order the runs started: by process id (names TAG-PID.json), which the pairs alternate
for f in sorted(glob.glob(d+'/*.json'), key=lambda f: int(os.path.basename(f).split('-')[1].split('.')[0])):
    t=os.path.basename(f).split('-')[0]; j=json.load(open(f))
    ph={p['name']:(p['wallNanos']/1e9,p['cpuNanos']/1e9) for p in j['phases']}
    rows.setdefault(t,[]).append((ph['scan'][0],ph['scan'][1],ph['build'][0],ph['build'][1],j['totalNanos']/1e9))
for t,xs in rows.items():
    print(t,len(xs),' '.join('%s %.3f'%(n,st.median([x[i] for x in xs])) for i,n in enumerate(['scan','scanCPU','build','buildCPU','total'])))
a=rows.get('A',[]);b=rows.get('B',[])
r=[y[2]/x[2] for x,y in zip(a,b)]
if r: print('B/A build wall per pair: median %.3f (%.2f-%.2f)'%(st.median(r),min(r),max(r)))
r=[y[3]/x[3] for x,y in zip(a,b)]
if r: print('B/A build CPU per pair: median %.3f (%.2f-%.2f)'%(st.median(r),min(r),max(r)))
