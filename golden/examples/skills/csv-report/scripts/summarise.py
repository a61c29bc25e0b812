#!/usr/bin/env python3
"""Summarise a CSV file into a markdown report using pandas."""
import argparse
from pathlib import Path

import pandas as pd


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv", help="path to the input CSV")
    parser.add_argument("--out", required=True, help="markdown file to write")
    parser.add_argument("--sep", default=",", help="field delimiter")
    parser.add_argument("--title", help="report heading")
    args = parser.parse_args()

    df = pd.read_csv(args.csv, sep=args.sep)
    title = args.title or Path(args.csv).name
    columns = pd.DataFrame({
        "dtype": df.dtypes.astype(str),
        "missing": df.isna().sum(),
    })

    parts = [
        f"# {title}",
        f"{len(df)} rows x {len(df.columns)} columns",
        "## Columns",
        columns.to_markdown(),
    ]
    numeric = df.select_dtypes("number")
    if not numeric.empty:
        parts += ["## Numeric statistics", numeric.describe().round(3).to_markdown()]

    Path(args.out).write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
