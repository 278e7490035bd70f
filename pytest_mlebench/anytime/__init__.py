"""Anytime grading: copies of the submission kept while a run is live, graded once it ended.

:mod:`.copies` keeps the copies (a thread beside the agent polls the submission's size and
mtime and copies it out when they change); :mod:`.curve` turns graded copies into a run's curve
(score over agent time, first valid, first medal, the best medal at each mark);
:mod:`.grade_copies` grades them on the host with the run's own grader;
``--mle-marks`` is parsed in :mod:`pytest_mlebench.values.marks`. ``docs/reports.md`` describes it.
"""
