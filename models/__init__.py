"""cass.models: everything that maps CUDA to AMD: the engine contract and registry, the rules
engine, the SASS lifter, learned engines, the benchmark, the dataset pipeline and training."""
