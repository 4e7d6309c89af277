#!/bin/bash
D=$(dirname $0)
for cfg in "2053 32771" "2053 32772" "4096 16384" "2000 16388"; do
  for v in s v; do
  echo "variant $v"
  $D/driver softmax $cfg 0 1 $D/softmax_rows_b.so $D/softmax_rows_$v.so $D/softmax_rows_r.so 1e-12 2e-5 | grep -E "TIME|FAIL"
  $D/driver layernorm $cfg 1e-5 1 $D/layernorm_rows_b.so $D/layernorm_rows_$v.so $D/layernorm_rows_r.so 6e-5 1e-5 | grep -E "TIME|FAIL"
  done
done
