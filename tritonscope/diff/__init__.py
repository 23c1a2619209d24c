"""Kernels compared across caches for CI: records, normalization, metrics, snapshots, verdicts."""
