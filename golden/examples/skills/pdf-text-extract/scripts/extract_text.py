#!/usr/bin/env python3
"""Extract text (and optionally tables) from a PDF with pdfplumber."""
import argparse
import sys

import pdfplumber


def parse_pages(spec, total):
    if not spec:
        return range(total)
    start, _, end = spec.partition("-")
    first = int(start) - 1
    last = int(end) if end else first + 1
    return range(max(first, 0), min(last, total))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pdf", help="path to the input PDF")
    parser.add_argument("--out", required=True, help="text file to write")
    parser.add_argument("--pages", help="page range, e.g. 2-5 (1-based)")
    parser.add_argument("--tables", action="store_true", help="also dump tables")
    args = parser.parse_args()

    with pdfplumber.open(args.pdf) as pdf, open(args.out, "w", encoding="utf-8") as out:
        for i in parse_pages(args.pages, len(pdf.pages)):
            page = pdf.pages[i]
            out.write(f"===== page {i + 1} =====\n")
            out.write((page.extract_text() or "") + "\n")
            if args.tables:
                for table in page.extract_tables():
                    for row in table:
                        out.write("\t".join(cell or "" for cell in row) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
