"""The reporting job's entry point (do not edit): ``python3 app.py`` prints one line."""

import mlb_core
import mlb_io
import mlb_plot
import mlb_utils


def main() -> str:
    table = mlb_io.read_table([3, 1, 2, 4])
    return f"{mlb_plot.render(mlb_core.normalize(table))} {mlb_utils.tag()}"


if __name__ == "__main__":
    print(main())
