/* KernelArena host oracle ABI (reference.cpp). The harness converts every tensor to double
 * on the host, calls arena_reference, and compares the candidate's outputs with the double
 * results. Inputs must not be modified; outputs (and inout tensors, which arrive holding
 * their input values) are written in place. Return 0 on success. */
#ifndef ARENA_REFERENCE_H
#define ARENA_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  double* const* tensors; /* host arrays, task.json order, each of its tensor's element count */
  const int64_t* numel;   /* element count of each tensor */
  int num_tensors;
  const int64_t* ints;
  int num_ints;
  const double* floats;
  int num_floats;
} arena_ref_args;

typedef int (*arena_reference_fn)(const arena_ref_args* a);

#ifdef __cplusplus
#define ARENA_REFERENCE_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define ARENA_REFERENCE_EXPORT __attribute__((visibility("default")))
#endif

#endif
