"""Stages mapped back to Python lines: the kernel map, its JSON-ready results, where sources are found."""
