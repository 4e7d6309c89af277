// A worker process (docs/DESIGN.md, "Process model"): it maps the buffers the judge lends and
// does one job for one kernel, as the judge asks over a socket (worker_protocol.h):
//   record  runs the kernel's host code and records what a launch enqueues (a recipe); the
//           only process that runs a candidate's host code, confined before it loads it;
//   replay  launches recorded recipes from device code alone, and times them;
//   direct  runs a trusted kernel's host code itself (PyTorch references; every kernel
//           where replay is not available) and times it.
// The judge compares, counts and decides; a worker only reports what it did.
#pragma once

namespace arena {

// Serves requests on `fd` until "exit" or until the judge goes away; returns the exit status.
int run_worker(int fd);

}  // namespace arena
