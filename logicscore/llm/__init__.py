"""The LLM path's plumbing, shared by the `llm` extractor and the `llm` judge (SPEC §3, §4.6).

    prompts.py   versioned prompt files, read from the wheel or the checkout, and their hash
    cache.py     the on-disk answer cache keyed by (model, prompt hash, input)
    endpoint.py  one OpenAI-compatible endpoint: structured output, retries, budget, batches

`openai` and `tenacity` are imported only when a call is made, so the rules path never
loads them.
"""
