// Host arrays of a launch's values (docs/DESIGN.md, "Scheduling": where a gate's host time
// goes). Inputs drawn on the host, expected outputs and outputs copied back are arrays of up to
// 10^9 doubles. A std::vector<double> zeroes its elements when it is made, on one thread, and
// that first touch of fresh pages costs more than drawing the values; these vectors leave their
// elements uninitialised, so the parallel code that writes them (the draw, the conversion from
// the dtype, the oracle's poison fill) also touches the pages, on every host thread at once.
#pragma once
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace arena {

// std::allocator whose value-initialisation is default-initialisation: `HostValues v(n)` and
// `v.resize(n)` leave doubles unwritten. Constructions with arguments are unchanged.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() noexcept = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

using HostValues = std::vector<double, UninitializedAllocator<double>>;  // one tensor as doubles
using HostBytes = std::vector<unsigned char, UninitializedAllocator<unsigned char>>;  // in its dtype
using HostTensors = std::vector<HostValues>;  // one per tensor of a task; empty where unused

}  // namespace arena
