#!/usr/bin/env python3
"""The dummy agent: copy the sample submission, then ask the validator about it.

It needs nothing but the standard library and the sandbox contract (``DATA_DIR``,
``SUBMISSION_DIR``, ``VALIDATE_SUBMISSION``), so it proves the plumbing of a backend end to end.
"""

import os
import shutil
import subprocess
import sys


def main() -> int:
    data = os.environ["DATA_DIR"]
    submission = os.path.join(os.environ["SUBMISSION_DIR"], "submission.csv")
    shutil.copyfile(os.path.join(data, "sample_submission.csv"), submission)
    print(f"copied the sample submission to {submission}")
    validate = os.environ.get("VALIDATE_SUBMISSION")
    if validate:
        check = subprocess.run([validate, submission], capture_output=True, text=True)
        print(f"validator said: {(check.stdout or check.stderr).strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
