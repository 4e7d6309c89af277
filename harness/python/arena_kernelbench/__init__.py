"""The parts of arena-import-kernelbench (harness/python/arena_import_kernelbench.py, its command
line): probe (load the problem file, run the model at given sizes), sizes (size expressions read
off observed sizes), shapes (the tensors, params and init arguments), configs (minimums, unseen
configurations, fuzz domain), writer (task.json, README.md, the folder), oracle_check (the
harness's oracle on the written task). Every part but sizes needs PyTorch."""
