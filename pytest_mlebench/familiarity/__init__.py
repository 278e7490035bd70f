"""Familiarity: how well a model already knows a competition's description.

The original benchmark asked whether a model wins because it has seen the competition: it
measured each model's mean token log-probability of each competition's page and found no
positive correlation with its medals. :mod:`.prompt_logprobs` reads a vLLM server's prompt
log-probabilities, :mod:`.forced_tokens` gets the same figures from llama.cpp's server by forcing
the text's own tokens, :mod:`.measure` picks the method by the server, :mod:`.correlation` sets
the figures against the medals of a summary (Pearson's r with its interval).
"""
