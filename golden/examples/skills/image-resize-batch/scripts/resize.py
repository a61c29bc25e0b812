#!/usr/bin/env python3
"""Resize every image in a folder, keeping aspect ratio, into a new folder."""
import argparse
import sys
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp", ".tiff"}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("input", type=Path, help="folder of source images")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--max-size", type=int, default=1024, help="longest edge in px")
    parser.add_argument("--quality", type=int, default=85, help="JPEG/WebP quality")
    parser.add_argument("--format", help="convert all images to this format, e.g. webp")
    args = parser.parse_args()

    if args.out.resolve() == args.input.resolve():
        sys.exit("error: --out must differ from the input folder")
    args.out.mkdir(parents=True, exist_ok=True)

    done = 0
    for src in sorted(args.input.iterdir()):
        if src.suffix.lower() not in SUFFIXES:
            continue
        try:
            with Image.open(src) as img:
                img = ImageOps.exif_transpose(img)
                img.thumbnail((args.max_size, args.max_size))
                suffix = f".{args.format.lower()}" if args.format else src.suffix
                if suffix.lower() in {".jpg", ".jpeg"} and img.mode not in ("RGB", "L"):
                    img = img.convert("RGB")
                img.save(args.out / (src.stem + suffix), quality=args.quality)
                done += 1
        except (UnidentifiedImageError, OSError) as exc:
            print(f"skipping {src.name}: {exc}", file=sys.stderr)
    print(f"resized {done} images into {args.out}")


if __name__ == "__main__":
    main()
