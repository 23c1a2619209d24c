"""Cross-compiling (and launching) kernels: requests, signatures, specialization, Gluon, diagnostics."""
