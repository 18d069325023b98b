import re,sys
# one table row per full-*.txt: cli 5 runs, PG first six builds, pair medians, pair ratios, SQLite ratio, floor, pk ratio
for f in sys.argv[1:]:
    s=open(f).read()
    cli=re.search(r'5 runs: min ([\d.]+) / median ([\d.]+) / max ([\d.]+) s', s)
    pg=re.search(r'postgres loaded in .*?six CREATE INDEX in +([\d.]+) s', s)
    pairs=re.search(r'pairs in turn.*?min ([\d.]+)x / median ([\d.]+)x / max ([\d.]+)x \(postgres median ([\d.]+) s, idxkit median ([\d.]+) s\)', s)
    sq=re.search(r'sqlite / idxkit idxbuild \(new JVM\) six t2 2g +([\d.]+)', s)
    fl=re.search(r'idxkit six t2 2g / floor line +([\d.]+)', s)
    fw=re.search(r'write\+fsync [\d,]+ MB ([\d.]+) s', s)
    ins=re.search(r'goal (?:NOT )?MET +within 2x of the floor line \(six t2 2g\): idxkit ([\d.]+) s', s)
    pk=re.search(r'primary key alone: t1 / t2 \((\w+)\) +([\d.]+)', s)
    print(f"| {f} | {cli.group(1)} / {cli.group(2)} / {cli.group(3)} s | {pg.group(1)} s | {pairs.group(4)} s / {pairs.group(5)} s | {pairs.group(1)}x / **{pairs.group(2)}x** / {pairs.group(3)}x | {sq.group(1)}x | {fl.group(1)}x ({fw.group(1)} s; idxkit {ins.group(1)} s) | {pk.group(2)}x |")
