"""datakit: small data-preparation helpers (sampling, vocabularies, a tokenizer registry)."""
