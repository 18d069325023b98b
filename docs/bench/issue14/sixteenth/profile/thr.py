import sys, collections, re
f=sys.argv[1]
thr=collections.Counter(); tot=0
for line in open(f):
    stack,_,c=line.rstrip().rpartition(' '); c=int(c); t=stack.split(';')[0]
    t=re.sub(r'tid=\d+','',t); t=re.sub(r'-\d+','-N',t); thr[t]+=c; tot+=c
print('total',tot)
for t,c in thr.most_common(20): print('  %6d %5.1f%% %s'%(c,100*c/tot,t[:80]))
