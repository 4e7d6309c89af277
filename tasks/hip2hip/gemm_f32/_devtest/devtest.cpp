// throwaway device test: correctness vs the host reference and timing of kernel libraries
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include <random>
#include <algorithm>
#include <chrono>
#include "arena/arena_abi.h"
#include "arena/arena_reference.h"
typedef int (*launch_t)(const arena_args*);
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(2); } } while (0)
int main(int argc, char** argv) {
  bool gemm = std::string(argv[1]) == "gemm";
  void* rh = dlopen(argv[2], RTLD_NOW); if (!rh) { printf("%s\n", dlerror()); return 2; }
  auto ref = (arena_reference_fn)dlsym(rh, "arena_reference");
  std::vector<std::string> names; std::vector<launch_t> fns; std::vector<arena_workspace_size_fn> wss;
  int i = 3;
  for (; i < argc && std::string(argv[i]) != "--"; ++i) {  // lib.so or lib.so:symbol
    std::string s = argv[i]; std::string sym = "arena_launch"; auto c = s.find(':');
    if (c != std::string::npos) { sym = s.substr(c + 1); s = s.substr(0, c); }
    void* h = dlopen(s.c_str(), RTLD_NOW); if (!h) { printf("%s\n", dlerror()); return 2; }
    names.push_back(std::string(argv[i])); fns.push_back((launch_t)dlsym(h, sym.c_str()));
    wss.push_back(sym == "arena_launch" ? (arena_workspace_size_fn)dlsym(h, "arena_workspace_size") : nullptr);
  }
  int fails = 0;
  double atol = 2e-4, rtol = 2e-5;
  for (++i; i < argc; ++i) {
    char kind = argv[i][0]; int64_t p[3] = {1, 1, 1}; int np = 0;
    for (char* t = strtok(argv[i] + 2, ","); t; t = strtok(nullptr, ",")) p[np++] = atoll(t);
    int nt = gemm ? 3 : 2;
    std::vector<int64_t> numel = gemm ? std::vector<int64_t>{p[0] * p[2], p[2] * p[1], p[0] * p[1]} : std::vector<int64_t>{p[0] * p[1], p[0] * p[1]};
    std::mt19937 rng(1234 + i);
    std::vector<std::vector<float>> h(nt);
    int dmode = (kind == 'o') ? 1 : (kind == 'n' ? 2 : 0);  // o: outliers, n: normal std 1/sqrt3
    for (int t = 0; t < nt; ++t) {
      h[t].resize(numel[t]);
      if (t == nt - 1) continue;
      std::uniform_real_distribution<float> ud(-1, 1); std::normal_distribution<float> nd(0, gemm ? 0.57735f : 1.f);
      std::uniform_real_distribution<float> u01(0, 1);
      for (auto& v : h[t]) { v = (gemm && dmode != 2) ? ud(rng) : nd(rng); if (dmode == 1 && u01(rng) < 1e-3f) v *= 50; }
    }
    std::vector<void*> d(nt);
    for (int t = 0; t < nt; ++t) { CK(cudaMalloc(&d[t], std::max<int64_t>(numel[t], 1) * 4)); CK(cudaMemcpy(d[t], h[t].data(), numel[t] * 4, cudaMemcpyHostToDevice)); }
    std::vector<std::vector<double>> hd(nt);
    for (int t = 0; t < nt; ++t) hd[t].assign(h[t].begin(), h[t].end());
    std::vector<double*> rp(nt); for (int t = 0; t < nt; ++t) rp[t] = hd[t].data();
    arena_ref_args ra{rp.data(), numel.data(), nt, p, nt, nullptr, 0};
    auto t0 = std::chrono::steady_clock::now(); ref(&ra); auto t1 = std::chrono::steady_clock::now();
    double ref_s = std::chrono::duration<double>(t1 - t0).count();
    printf("[%c] %s  ref %.3fs\n", kind, argv[i] + 2, ref_s);
    cudaStream_t st; CK(cudaStreamCreate(&st));
    arena_args a{d.data(), nt, p, nt, nullptr, 0, nullptr, 0, st};
    double base_us = 0;
    for (size_t f = 0; f < fns.size(); ++f) {
      CK(cudaMemset(d[nt - 1], 0xff, numel[nt - 1] * 4));
      a.workspace = nullptr; a.workspace_bytes = 0;
      if (wss[f]) { arena_args q = a; q.tensors = nullptr; a.workspace_bytes = wss[f](&q); }
      if (a.workspace_bytes) { CK(cudaMalloc(&a.workspace, a.workspace_bytes)); CK(cudaMemset(a.workspace, 0xff, a.workspace_bytes)); }
      int rc = fns[f](&a); CK(cudaStreamSynchronize(st)); CK(cudaGetLastError());
      std::vector<float> out(numel[nt - 1]);
      CK(cudaMemcpy(out.data(), d[nt - 1], numel[nt - 1] * 4, cudaMemcpyDeviceToHost));
      int64_t bad = 0; double maxerr = 0, worst = 0;
      for (int64_t e = 0; e < numel[nt - 1]; ++e) {
        double w = hd[nt - 1][e], g = out[e], err = std::fabs(g - w);
        if (!(err == err)) err = 1e30;
        maxerr = std::max(maxerr, err);
        if (gemm) { worst = std::max(worst, err / (atol + rtol * std::fabs(w))); if (err > atol + rtol * std::fabs(w)) ++bad; }
        else if (g != w) ++bad;
      }
      fails += (bad != 0 || rc != 0);
      double us = 0;
      if (kind == 's') {
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        for (int w = 0; w < 3; ++w) fns[f](&a);
        std::vector<float> ts;
        for (int r = 0; r < 30; ++r) { cudaEventRecord(e0, st); fns[f](&a); cudaEventRecord(e1, st); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms * 1000); }
        std::sort(ts.begin(), ts.end()); us = ts[ts.size() / 2];
        if (f == 0) base_us = us;
      }
      double work = gemm ? 2.0 * p[0] * p[1] * p[2] : 8.0 * p[0] * p[1];
      if (a.workspace) CK(cudaFree(a.workspace));
      printf("   ws=%zu %-28s rc=%d bad=%lld maxerr=%.3g err/tol=%.3f", a.workspace_bytes, names[f].c_str(), rc, (long long)bad, maxerr, worst);
      if (us > 0) printf("  %9.2f us  %s %.2f  speedup %.2fx", us, gemm ? "TFLOP/s" : "TB/s", work / us / 1e6, base_us / us);
      printf("\n");
    }
    for (int t = 0; t < nt; ++t) cudaFree(d[t]);
    cudaStreamDestroy(st);
    fflush(stdout);
  }
  printf(fails ? "FAILURES: %d\n" : "ALL PASS\n", fails);
  return fails != 0;
}
