# Scripted agent: a real (small) change to the kernel: 512 threads per block instead of 256.
ws=$1
sed -i 's/const int block = 256;/const int block = 512;/' "$ws/kernel.hip"
grep -q 'const int block = 512;' "$ws/kernel.hip"
