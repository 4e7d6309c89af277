#!/bin/bash
# throwaway device run
D=tasks/hip2hip/gemm_f32/_devtest
B=/tmp/devbuild
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv
$D/build.sh $B > /dev/null 2>&1; ls $B
$B/devtest transpose $B/transpose_2d_ref.so $B/transpose_2d_baseline.so $B/transpose_2d_solution.so -- \
  s:8192,8192 s:4096,16384 s:16384,4096 s:6000,10000 s:12007,11003 \
  u:1,1 u:1,1000003 u:999983,1 u:257,255 u:4099,997 u:33,65537 u:3,5000011 u:8191,8193 2>&1 | tee $OUT/transpose.log
V=$B/gemm_var.so
$B/devtest gemm $B/gemm_f32_ref.so $B/gemm_f32_baseline.so $B/gemm_f32_solution.so $V:v128 $V:v128x64 $V:v64x128 $V:v64 $V:v64k8 -- \
  s:1024,1024,160 s:1536,1536,80 s:768,768,320 s:8192,128,176 s:2048,2048,48 s:512,512,512 s:1024,1024,192 s:2048,1024,96 s:4096,256,192 \
  u:1,1,1 u:1,1000,997 u:1023,1,777 u:127,129,131 u:1000,999,1 u:33,65,2039 u:16,4093,2048 u:1031,1009,191 u:4099,61,509 \
  o:1031,1009,191 n:1031,1009,191 o:61,67,2048 n:97,101,2048 o:500,400,1000 2>&1 | tee $OUT/gemm.log
