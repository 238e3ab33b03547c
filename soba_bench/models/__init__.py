"""Models: everything that talks to a language model, shared by the summarizers (capsules)
and the probe scorer (answers and judge verdicts).

* :mod:`~soba_bench.models.client`: a chat client for any OpenAI-compatible endpoint.
* :mod:`~soba_bench.models.cache`: the response cache (SQLite, keyed by model and request);
  :mod:`~soba_bench.models.cache_migrate` upgrades an older cache file.
* :mod:`~soba_bench.models.invoker`: client behind cache, with the latency a call takes on the
  virtual clock; what the engine's ``portable_only`` slot and the probe backend call.
* :mod:`~soba_bench.models.latency`: latency models (registry ``LATENCY_MODELS``).
* :mod:`~soba_bench.models.local_models` / :mod:`~soba_bench.models.local_server`: small GGUF
  models and the llama.cpp server on 127.0.0.1 that serves them, started once per process.

Kept import-free so that importing one module does not load the others (the client needs
no engine, the local server no client).
"""
