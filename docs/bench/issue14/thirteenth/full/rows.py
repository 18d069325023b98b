import re,sys
# one table row per full-*.txt: cli 5 runs, PG first six builds, pair medians, pair ratios, SQLite ratio, floor, pk ratio
# (reads both the single floor of the thirteenth and fourteenth passes and the per-round floor of the fifteenth)
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
    # From the fifteenth pass the floor is measured after every round and judged on the median round.
    rounds=re.search(r'within 2x of the floor line \(six t2 2g, per round\): (\d+) rounds, idxkit / the floor after it: median ([\d.]+)x \(min ([\d.]+)x, max ([\d.]+)x; idxkit median ([\d.]+) s, floor median ([\d.]+) s\)', s)
    floor=(f"{rounds.group(3)}x / **{rounds.group(2)}x** / {rounds.group(4)}x (idxkit {rounds.group(5)} s, floor {rounds.group(6)} s)" if rounds
           else f"{fl.group(1)}x ({fw.group(1)} s; idxkit {ins.group(1)} s)")
    print(f"| {f} | {cli.group(1)} / {cli.group(2)} / {cli.group(3)} s | {pg.group(1)} s | {pairs.group(4)} s / {pairs.group(5)} s | {pairs.group(1)}x / **{pairs.group(2)}x** / {pairs.group(3)}x | {sq.group(1)}x | {floor} | {pk.group(2)}x |")
