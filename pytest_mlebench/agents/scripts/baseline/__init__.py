"""The baseline agent: a generic scikit-learn solver for the data layouts of the embedded set.

The harness copies this folder into the sandbox and runs it with ``python3`` (see ``__main__.py``).
It reads only ``$DATA_DIR`` (the public files and ``description.md``), works out the metric from the
description and the data layout from the files, trains a sensible model, writes
``$SUBMISSION_DIR/submission.csv`` in the columns of ``sample_submission.csv`` and asks
``$VALIDATE_SUBMISSION`` about it. Layouts it knows:

* tables (classification, regression, several targets, dates, categories), with a text column
  when there is one (tf-idf + linear model);
* a folder of images per split (pixels as features);
* long-format series in a separate CSV (``<id>, t, value``: per-series summary features);
* ratings (user, item) with a space-separated list to predict (popularity + item co-occurrence);
* survival data (a time and an event column in train only: a boosted exponential hazard model).

It needs only the standard library, numpy, pandas, scikit-learn and Pillow, uses
``$MLEBENCH_SEED`` for every random choice, logs what it does to ``$LOGS_DIR/baseline.log`` and
keeps to a share of ``$TIME_LIMIT_SECS``. When anything fails it falls back to the sample
submission, so it always leaves a valid file behind.

Modules, bottom to top: ``contract`` (the sandbox's environment variables), ``task`` (reading the
competition's files and its metric), ``targets`` (what a target column asks for), ``features``
(table features), ``models`` (the model builders), ``text`` (tf-idf models), ``search`` (holdout,
blends and the classifier search), ``regression``, one module per layout (``tables``, ``images``,
``series``, ``survival``, ``ranking``), ``layout`` (which layout the files have), ``submission``
(writing and validating) and ``entry`` (the run from start to hand-in).
"""
