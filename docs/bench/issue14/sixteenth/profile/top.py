import sys, collections, re
# usage: top.py FILE [thread-regex] [N]
f=sys.argv[1]; tre=re.compile(sys.argv[2]) if len(sys.argv)>2 and sys.argv[2]!='-' else None; N=int(sys.argv[3]) if len(sys.argv)>3 else 30
selfc=collections.Counter(); incl=collections.Counter(); thr=collections.Counter(); tot=0
for line in open(f):
    stack,_,c=line.rstrip().rpartition(' '); c=int(c); fr=stack.split(';')
    t=fr[0]
    if tre and not tre.search(t): continue
    thr[re.sub(r'tid=\d+','',t)]+=c; tot+=c
    selfc[fr[-1]]+=c
    for x in set(fr[1:]): incl[x]+=c
print('total',tot)
for t,c in thr.most_common(8): print('  thread %6d %5.1f%% %s'%(c,100*c/tot,t[:80]))
print('-- self')
for x,c in selfc.most_common(N): print('%6d %5.1f%% %s'%(c,100*c/tot,x[:140]))
if len(sys.argv)>4:
  print('-- inclusive')
  for x,c in incl.most_common(int(sys.argv[4])): print('%6d %5.1f%% %s'%(c,100*c/tot,x[:140]))
