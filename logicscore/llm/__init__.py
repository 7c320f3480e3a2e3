"""The LLM path's plumbing, shared by the `llm` extractor and the `llm` judge (docs/architecture.md, docs/metrics.md).

    prompts.py   versioned prompt files, read from the wheel or the checkout, and their hash
    cache.py     the on-disk answer cache keyed by (model, prompt hash, input)
    options.py   the endpoint's options (EndpointConfig), light enough for CLI start-up
    endpoint.py  one OpenAI-compatible endpoint: structured output, retries, budget, batches
    structured.py  the ways a server is asked for JSON of a schema, in the order negotiated
    transport.py the HTTP client under it: each call bounded in time, each body in bytes
    redact.py    the API key kept out of everything the endpoint's replies reach
    judge.py     the `llm` determinateness judge (the `llm` extractor is extract/llm.py)
    plan.py      `--estimate`: the calls and tokens a run would make

`openai` and `tenacity` are imported only when a call is made, so the rules path never
loads them.
"""
