# inl.py LOG "Class method": the inlining tree of the first tier-4 (C2) compile of that method in a -XX:+LogCompilation log (FAIL lines: calls not inlined, with the reason).
import re,sys
txt=open(sys.argv[1],errors='replace').read()
want=sys.argv[2]
for m in re.finditer(r"<task compile_id='(\d+)'([^>]*)>(.*?)<task_done([^>]*)/>",txt,re.S):
    a=m.group(2)
    if want in a and "level=" not in a:
        body=m.group(3)
        meth={}
        for mm in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*?bytes='(\d+)'",body):
            meth[mm.group(1)]=(mm.group(3),mm.group(4))
        print(a[:160])
        depth=0; last=None
        for ev in re.finditer(r"<(call|inline_success|inline_fail|parse|/parse)[ >/]([^>]*)",body):
            tag,at=ev.group(1),ev.group(2)
            if tag=='parse':
                mid=re.search(r"method='(\d+)'",at).group(1); print('  '*depth+'+',meth.get(mid), 'last-call-count', last[1] if last else ''); depth+=1
            elif tag=='/parse': depth-=1
            elif tag=='call':
                mid=re.search(r"method='(\d+)'",at).group(1); cnt=re.search(r"count='(-?\d+)'",at)
                last=(meth.get(mid),cnt.group(1) if cnt else '?')
            elif tag=='inline_fail':
                r=re.search(r"reason='([^']*)'",at).group(1); print('  '*depth+'FAIL',last,r)
        break
