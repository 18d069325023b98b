"""c2sum.py LOG...: for each -XX:+LogCompilation file of a cold run, the C2 compiles' total time,
the compiles of the scan's page methods, and the compiles thrown away by an uncommon trap (each
compile's time is its task's stamps, i.e. the compiler thread's wall time)."""
import re
import sys

SCAN = ("scanPage", "listRecords", "writeRun", "addRuns")


def summary(path):
    txt = open(path, errors="replace").read()
    head = txt.split("<compilation_log")[0]
    tasks = {}
    for m in re.finditer(r"<task ([^>]*)>(.*?)<task_done ([^>]*)/>", txt, re.S):
        a = dict(re.findall(r"(\w+)='([^']*)'", m.group(1)))
        d = dict(re.findall(r"(\w+)='([^']*)'", m.group(3)))
        tasks[a["compile_id"]] = (
            float(d["stamp"]) - float(a["stamp"]),
            a["method"].split()[0].rsplit(".", 1)[-1] + "." + a["method"].split()[1],
            a.get("level", "4"),
            float(a["stamp"]),
            "osr" if a.get("osr_bci") else "",
        )
    c2 = [t for t in tasks.values() if t[2] == "4"]
    print(f"{path}: C2 {sum(t[0] for t in c2):.3f} s in {len(c2)} compiles")
    for t in sorted(c2, key=lambda t: t[3]):
        if t[1].split(".")[-1] in SCAN:
            print(f"  scan  {t[0]:.3f} s at {t[3]:.3f} {t[1]} {t[4]}")
    seen, lost = set(), 0.0
    pattern = (
        r"<uncommon_trap thread='\d+' reason='(\w+)' action='(\w+)'[^>]*compile_id='(\d+)'"
        r" compiler='c2'[^>]*>\s*<jvms bci='(\d+)' method='([^']*)'"
    )
    for reason, action, cid, bci, method in re.findall(pattern, head):
        if action == "none" or cid in seen:
            continue
        seen.add(cid)
        t = tasks.get(cid, (0.0, "?"))
        lost += t[0]
        where = method.split()[0].rsplit(".", 1)[-1] + "." + method.split()[1]
        print(f"  trap  {reason} at {where} bci {bci}: threw away {t[0]:.3f} s of {t[1]}")
    print(f"  thrown away {lost:.3f} s")


for p in sys.argv[1:]:
    try:
        summary(p)
    except BrokenPipeError:
        break
