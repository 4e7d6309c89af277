#!/bin/bash
# usage: run.sh <list>  ; list lines: task M N eps dotime
D=$(dirname $0)
declare -A NAME=([softmax]=softmax_rows [layernorm]=layernorm_rows [reduce]=reduce_sum)
declare -A TOL=([softmax]="1e-12 2e-5" [layernorm]="7e-5 1e-5" [reduce]="1e-5 9e-4")
while read task M N eps dotime; do
  [ -z "$task" ] && continue
  n=${NAME[$task]}
  $D/driver $task $M $N $eps $dotime $D/${n}_b.so $D/${n}_s.so $D/${n}_r.so ${TOL[$task]}
done < $1
