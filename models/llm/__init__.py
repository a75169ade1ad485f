"""cass.models.llm: the published CASS models, run locally and never trusted blindly.

prompts     the exact chat prompts the CASS models were trained on (source and assembly)
extract     the code block out of a model's answer
split       long inputs cut at kernel / function boundaries, and put back together
backend     the chat-backend contract, sampling, streaming with cancellation, loop detection
llama_gguf / transformers_local / http_chat   the three backends (GGUF, HF directory, server)
engine      ModelEngine and AutoEngine: the engine contract over a backend
verified    N candidates on a temperature schedule, each verified, first match wins
catalog     the published CASS models (task, arch, expected files) and where the user has them
convert     a Qwen2 Hugging Face checkpoint -> GGUF (f16, q8_0, q4_0) with tokenizer and template
check       a GGUF validated, loaded, and timed
"""
