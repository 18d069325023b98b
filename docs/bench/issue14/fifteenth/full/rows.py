import re,sys
# One table row per full-*.txt of this pass: the command's 5 runs, PostgreSQL's first six builds, pair medians,
# pair ratios, SQLite ratio, the floor judged per round (median, min-max; floor median), the pk t1/t2 ratio.
# (The thirteenth pass's rows.py read the single floor of earlier passes.)
for f in sys.argv[1:]:
    s=open(f).read()
    cli=re.search(r'5 runs: min ([\d.]+) / median ([\d.]+) / max ([\d.]+) s', s)
    pg=re.search(r'postgres loaded in .*?six CREATE INDEX in +([\d.]+) s', s)
    pairs=re.search(r'pairs in turn.*?min ([\d.]+)x / median ([\d.]+)x / max ([\d.]+)x \(postgres median ([\d.]+) s, idxkit median ([\d.]+) s\)', s)
    sq=re.search(r'sqlite / idxkit idxbuild \(new JVM\) six t2 2g +([\d.]+)', s)
    fl=re.search(r'within 2x of the floor line \(six t2 2g, per round\): (\d+) rounds, idxkit / the floor after it: median ([\d.]+)x \(min ([\d.]+)x, max ([\d.]+)x; idxkit median ([\d.]+) s, floor median ([\d.]+) s\)', s)
    pk=re.search(r'primary key alone: t1 / t2 \((\w+)\) +([\d.]+)', s)
    print(f"| {f} | {cli.group(1)} / {cli.group(2)} / {cli.group(3)} s | {pg.group(1)} s | {pairs.group(4)} s / {pairs.group(5)} s | {pairs.group(1)}x / **{pairs.group(2)}x** / {pairs.group(3)}x | {sq.group(1)}x | {fl.group(3)}x / **{fl.group(2)}x** / {fl.group(4)}x (idxkit {fl.group(5)} s, floor {fl.group(6)} s) | {pk.group(2)}x |")
