# ctime.py LOG N: C2/C1 compile tasks of a -XX:+LogCompilation log, total time by tier, then the N longest (seconds, start stamp, tier, method, code size). From the sixth pass (/tmp/s14), first kept here.
import re,sys
txt=open(sys.argv[1],errors='replace').read()
# compile log per compiler thread: <task ...> ... <task_done ... stamp=...>
rows=[]
for m in re.finditer(r"<task compile_id='(\d+)'([^>]*)>(.*?)<task_done([^>]*)/>",txt,re.S):
    a=m.group(2); d=m.group(4)
    meth=re.search(r"method='([^']*)'",a).group(1)
    st=float(re.search(r"stamp='([^']*)'",a).group(1)); en=float(re.search(r"stamp='([^']*)'",d).group(1))
    lvl=re.search(r"level='(\d)'",a); lvl=lvl.group(1) if lvl else '4'
    osr='osr' if 'osr_bci' in a else ''
    size=re.search(r"nmsize='(\d+)'",d); size=size.group(1) if size else '?'
    rows.append((en-st,st,lvl,osr,meth,size))
tot={}
for r in rows: tot[r[2]]=tot.get(r[2],0)+r[0]
print('total by level',{k:round(v,3) for k,v in tot.items()}, len(rows))
rows.sort(reverse=True)
for r in rows[:int(sys.argv[2])]: print('%.3f at %.2f L%s %s %s nm=%s'%r)
