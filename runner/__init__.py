"""cass.runner: toolchains, compilation, execution backends, differential comparison.

This layer imports nothing else of cass: engines, front ends and the benchmark build on it.
"""
