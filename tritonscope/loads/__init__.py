"""Per-thread memory accesses across stages: sites, joins, reclaimed instructions, verdicts."""
