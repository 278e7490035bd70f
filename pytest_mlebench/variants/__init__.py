"""Description variants: what the agent is told about a competition.

``standard`` is the competition's ``description.md``; ``obfuscated`` its
``description_obfuscated.md``, the same task with the competition's identity removed
(:mod:`.obfuscation`). :mod:`.public_view` gives a run the public folder whose
``description.md`` is the chosen variant's.
"""
