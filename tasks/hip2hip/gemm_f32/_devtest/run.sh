#!/bin/bash
# throwaway device run (final configs)
D=tasks/hip2hip/gemm_f32/_devtest
B=/tmp/devbuild
$D/build.sh $B > /dev/null 2>&1; ls $B
$B/devtest transpose $B/transpose_2d_ref.so $B/transpose_2d_baseline.so $B/transpose_2d_solution.so -- \
  s:8192,8192 s:4096,8192 s:8192,4096 s:5000,6000 \
  u:1,1 u:1,1000003 u:999983,1 u:257,255 u:4099,997 u:33,65537 u:3,5000011 u:4097,4099 s:8009,7993 s:3571,9973 2>&1 | tee $OUT/transpose.log
$B/devtest gemm $B/gemm_f32_ref.so $B/gemm_f32_baseline.so $B/gemm_f32_solution.so -- \
  s:1024,1024,160 s:2048,1920,48 s:768,768,320 s:4096,256,176 s:512,512,512 s:1536,1536,80 \
  u:1,1,1 u:3,5,7 u:1,1000,997 u:1023,1,777 u:1000,999,1 u:127,129,131 s:33,65,2039 s:4099,61,509 s:16,4093,2048 s:1031,1009,191 \
  u:2500,3001,17 u:4096,4096,11 u:1,4096,2048 u:4096,1,2048 u:777,1500,171 \
  o:1031,1009,191 n:1031,1009,191 o:61,67,2048 n:97,101,2048 o:500,400,1000 o:2048,1920,48 n:4099,61,509 2>&1 | tee $OUT/gemm.log
