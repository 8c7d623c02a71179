"""Benchmark builders: ``generate.kg`` (TempBench-style, from a TKG) and ``generate.table`` (TDBench-style)."""
