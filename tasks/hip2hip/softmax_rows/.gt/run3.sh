#!/bin/bash
D=$(dirname $0)
./run.sh list1.txt > $OUT/log3.txt 2>&1
grep -E "TIME|FAIL|launch" $OUT/log3.txt
echo "fails: $(grep -c FAIL $OUT/log3.txt) oks: $(grep -c ' ok ' $OUT/log3.txt)"
declare -A NAME=([softmax]=softmax_rows [layernorm]=layernorm_rows [reduce]=reduce_sum)
while read task M N eps dotime; do
  n=${NAME[$task]}
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool $D/driver $task $M $N $eps 0 $D/${n}_b.so $D/${n}_s.so $D/${n}_r.so 1 1 > $OUT/san_$tool.txt 2>&1
    echo "$tool $task $M $N: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san_$tool.txt | tr '\n' ' ') $(grep -c FAIL $OUT/san_$tool.txt)"
  done
done < san.txt
timeout 200 python3 sumsq.py
for n in 149999999 134217728 100000000 67108864; do $D/driver reduce 1 $n 0 0 $D/reduce_atomic.so $D/reduce_sum_s.so $D/reduce_sum_r.so 1e-5 9e-4 | grep "^base"; done
