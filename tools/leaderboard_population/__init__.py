"""Reference solutions, weak to strong, whose scores make each embedded competition's leaderboard.

One module per competition (the id with ``-`` written ``_``) defines ``entries(public)``, which
reads only the prepared public files and yields :class:`~leaderboard_population.common.Entry`
objects: a descriptive name, a model family and a submission frame. ``tools/build_leaderboards.py``
scores them against the private answers.
"""
