"""The CASS dataset pipeline (`cass dataset build`): aligned, execution-verified CUDA/HIP/SASS/RDNA3
records from CUDA folders, git repositories and the synthetic generator.

    collect -> deduplicate -> decontaminate -> port -> compile both stacks -> align kernels
            -> verify by execution -> write (Parquet, instruction JSONL, dataset card)
"""
