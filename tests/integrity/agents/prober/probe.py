"""Adversary: asks the validator about 300 submissions that differ from each other in one row."""

import os
import subprocess

data, out = os.environ["DATA_DIR"], os.environ["SUBMISSION_DIR"]
with open(os.path.join(data, "sample_submission.csv")) as handle:
    header, *rows = handle.read().splitlines()
path = os.path.join(out, "submission.csv")
answered = 0
for attempt in range(300):
    changed = list(rows)
    row = attempt % len(rows)
    identifier = changed[row].split(",")[0]
    changed[row] = f"{identifier},{attempt % 2}"
    with open(path, "w") as handle:
        handle.write("\n".join([header, *changed]) + "\n")
    check = subprocess.run([os.environ["VALIDATE_SUBMISSION"], path], capture_output=True)
    answered += "rate limited" not in (check.stdout + check.stderr).decode()
print(f"asked the validator 300 times, {answered} answered")
