# Scripted agent: leaves a kernel that does not compile.
ws=$1
echo 'this is not C++ at all' >> "$ws/kernel.hip"
