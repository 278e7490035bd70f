"""Familiarity: how well a model already knows a competition's description.

The original benchmark asked whether a model wins because it has seen the competition: it
measured each model's mean token log-probability of each competition's page and found no
positive correlation with its medals. :mod:`.prompt_logprobs` reads a server's prompt
log-probabilities, :mod:`.measure` asks for them through the LLM gateway, :mod:`.correlation`
sets them against the medals of a summary (Pearson's r with its interval).
"""
