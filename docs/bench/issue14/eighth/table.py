import re,sys
for f in sys.argv[1:]:
    t=open(f).read()
    cli=re.search(r"5 runs: min ([\d.]+) / median ([\d.]+) / max ([\d.]+) s",t)
    pg=re.search(r"postgres +loaded in +[\d.]+ s; six CREATE INDEX in +([\d.]+) s",t)
    pr=re.search(r"min ([\d.]+)x / median ([\d.]+)x / max ([\d.]+)x \(postgres median ([\d.]+) s, idxkit median ([\d.]+) s\)",t)
    fl=re.search(r"floor: .*= ([\d.]+) s",t); fw=re.search(r"write\+fsync [\d,]+ MB ([\d.]+) s",t)
    inp=re.search(r"within 2x of the floor line \(six t2 \w+\): idxkit ([\d.]+) s / floor ([\d.]+) s = ([\d.]+)x",t)
    jdk='25' if 'Temurin' in t or '25.0' in t.split('\n')[1] else '17'
    print(f"| {f.split('/')[-1][:-4]} | JDK {jdk} | {cli.group(1)} / **{cli.group(2)}** / {cli.group(3)} s | {pg.group(1)} s | {pr.group(4)} s / {pr.group(5)} s | {pr.group(1)}x / **{pr.group(2)}x** / {pr.group(3)}x | {inp.group(1)} s | {inp.group(3)}x ({fw.group(1)} s) |")
