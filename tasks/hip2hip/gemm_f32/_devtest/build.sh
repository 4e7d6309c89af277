#!/bin/bash
# throwaway: build everything for the device test into $1
set -e
O=$1; mkdir -p $O
D=tasks/hip2hip/gemm_f32/_devtest
NV="/usr/local/cuda/bin/nvcc -std=c++17 -x cu -arch=sm_90 -O3 -shared -Xcompiler -fPIC -cudart shared -I harness/include/hip_on_cuda -I harness/include"
for t in transpose_2d gemm_f32; do
  for k in baseline solution; do $NV tasks/hip2hip/$t/$k.hip -o $O/${t}_$k.so & done
  g++ -std=c++17 -O2 -fPIC -shared -I harness/include tasks/hip2hip/$t/reference.cpp -o $O/${t}_ref.so &
done
$NV $D/variants.cu -o $O/gemm_var.so &
/usr/local/cuda/bin/nvcc -std=c++17 -O2 -I harness/include/hip_on_cuda -I harness/include $D/devtest.cpp -o $O/devtest -ldl -cudart shared &
wait
ls $O
