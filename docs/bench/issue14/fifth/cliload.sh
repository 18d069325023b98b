#!/bin/bash
# five back-to-back `idxkit load` processes of the SF 1 lineitem CSV, each into a new database (JDK 17 launcher of /work/main)
cd /tmp/s12
for r in 1 2 3 4 5; do
  rm -rf /tmp/s12/ldb; /work/main/idxkit create /tmp/s12/ldb --tpch > /dev/null
  s=$(date +%s.%N)
  /work/main/idxkit load /tmp/s12/ldb --table lineitem --csv /tmp/bulk-work/lineitem-sf1.0.csv --progress none > /tmp/s12/cliload-$1-$r.txt 2>&1
  e=$(date +%s.%N)
  echo "$1 run $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) wall $(echo "$e - $s" | bc) s | $(grep -iE 'rows/s|loaded' /tmp/s12/cliload-$1-$r.txt | head -3 | tr '\n' '|' | cut -c1-300)"
done
rm -rf /tmp/s12/ldb
