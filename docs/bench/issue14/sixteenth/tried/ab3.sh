#!/bin/bash
# ScanMergeBench B (pack + Unpacker) vs C (B + branchless replay), in turn
for i in 1 2 3; do for v in B C; do
  java -jar /tmp/s23/jmh/$v.jar 'ScanMergeBench' -f 1 -wi 3 -i 6 -w 1 -r 1 > /tmp/s23/jmh/ab3-$v-$i.txt 2>&1
  echo "$v-$i $(date -u +%T)"; grep -E "^Scan" /tmp/s23/jmh/ab3-$v-$i.txt
done; done
