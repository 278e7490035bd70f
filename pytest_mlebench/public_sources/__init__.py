"""Second public sources: files a competition's prepare step needs beside Kaggle's download.

Some competitions' answers are not in Kaggle's files but in a data set published elsewhere
(freesound-audio-tagging-2019's test labels are in Zenodo's FSDKaggle2019 record). A config's
``public_sources:`` names each such file; ``mlebench prepare`` puts its members into ``raw/``
beside Kaggle's files, verified, before ``prepare.py`` runs. One module per concern:

- :mod:`.spec`: the ``public_sources:`` entries of a ``config.yaml``;
- :mod:`.verify`: a file against its published MD5 and size, and the zip's members and CRCs;
- :mod:`.fetch`: the download, with the checksum read from the record's metadata;
- :mod:`.fill`: where a file comes from (a verified earlier copy, ``--from``, the network) and
  its members unpacked into ``raw/``.

This package imports nothing of the competition definition (the definition imports
:mod:`.spec`), so it stays free of cycles.
"""
