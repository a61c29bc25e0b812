#!/usr/bin/env python3
"""Compare a file's SHA-256 digest with an expected value.

Usage: verify_checksum.py FILE --sha256 HEX
Exits 0 when the digests match, 1 when they differ, 2 on bad arguments.
"""
import argparse
import hashlib
import sys


def sha256_of(path, chunk_size=1 << 20):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(chunk_size), b""):
            digest.update(chunk)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--sha256", required=True, help="expected hex digest")
    args = parser.parse_args()

    actual = sha256_of(args.file)
    expected = args.sha256.strip().lower()
    if actual != expected:
        print(f"checksum mismatch for {args.file}", file=sys.stderr)
        print(f"  expected {expected}", file=sys.stderr)
        print(f"  actual   {actual}", file=sys.stderr)
        return 1
    print(f"{args.file}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
