"""The optional failure summary (``--mle-summarize MODEL``): why each failed run failed, in words.

:mod:`.prompt` builds the bounded prompt from a run's record and folder (everything from the
sandbox quoted as data), :mod:`.asking` asks the model through the LLM gateway at the session's
end and writes the answer into the run's record and folder, :mod:`.views` gives the reports their
text (escaped where it is shown) and the summaries' cost.
"""

from __future__ import annotations

from pytest_mlebench.failure_summary.asking import summarize_failures
from pytest_mlebench.failure_summary.views import summaries_block

__all__ = ["summaries_block", "summarize_failures"]
