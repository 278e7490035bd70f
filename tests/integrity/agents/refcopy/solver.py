"""Copy the sample submission row by row, upper-casing nothing: a solver that does little."""

import csv
import os


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.reader(handle))


def write_rows(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        for row in rows:
            writer.writerow(row)


def main():
    data = os.environ["DATA_DIR"]
    rows = read_rows(os.path.join(data, "sample_submission.csv"))
    header, body = rows[0], rows[1:]
    cleaned = [[cell.strip() for cell in row] for row in body if row]
    out = os.path.join(os.environ["SUBMISSION_DIR"], "submission.csv")
    write_rows(out, [header, *cleaned])
    print(f"wrote {len(cleaned)} rows to {out}")


if __name__ == "__main__":
    main()
