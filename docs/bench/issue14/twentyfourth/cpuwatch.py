import os, time, sys, collections
# cpuwatch.py OUT SECONDS: while an 'idxkit.jar idxbuild' process lives, CPU ticks of every other process over its lifetime
def snap():
    d = {}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            s = open(f'/proc/{p}/stat').read()
            name = s[s.index('(')+1:s.rindex(')')]
            f = s[s.rindex(')')+2:].split()
            d[int(p)] = (name, int(f[11]) + int(f[12]))
        except Exception: pass
    return d
def cli():
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            c = open(f'/proc/{p}/cmdline').read()
            if 'idxkit.jar' in c and 'idxbuild' in c: return int(p)
        except Exception: pass
    return None
out = open(sys.argv[1], 'w'); end = time.time() + float(sys.argv[2]); n = 0
while time.time() < end:
    p = cli()
    if p is None: time.sleep(0.05); continue
    a = snap(); t0 = time.time()
    while os.path.exists(f'/proc/{p}'): time.sleep(0.05)
    b = snap(); t1 = time.time(); n += 1
    deltas = collections.Counter()
    for pid, (name, t) in b.items():
        if pid == p: continue
        deltas[name] += t - a.get(pid, (name, 0))[1] if pid in a else t
    top = ', '.join(f'{k} {v}' for k, v in deltas.most_common(6) if v > 0)
    out.write(f'{time.strftime("%H:%M:%S")} cli {n} {t1-t0:.2f} s; other processes (ticks of 10 ms): {top}\n'); out.flush()
