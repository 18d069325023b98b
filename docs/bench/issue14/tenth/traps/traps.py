import re,sys
txt=open(sys.argv[1],errors='replace').read()
for m in re.finditer(r"<uncommon_trap thread[^>]*>(.*?)</uncommon_trap>",txt,re.S):
    s=m.group(0)
    st=float(re.search(r"stamp='([^']*)'",s).group(1))
    if 'idxkit' not in s: continue
    js=re.findall(r"<jvms bci='(\d+)' method='([^']*)'",s)
    print(st, re.search(r"reason='([^']*)'",s).group(1), re.search(r"action='([^']*)'",s).group(1), ' | '.join(f"{mm.split(' ')[0].split('.')[-1]}.{mm.split(' ')[1]}@{b}" for b,mm in js[:4]))
