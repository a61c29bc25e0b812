/**
 * Opening an input file that should be a regular file, safely: without following a link that was
 * swapped in, and without blocking, since opening a FIFO for reading waits for a writer forever
 * (a library file replaced by a FIFO during a build would hang it past SIGINT). Anything but a
 * regular file fails with the code ENOTREG, which util/errno.ts words as "not a regular file".
 */
import fs from 'node:fs';

/** A read-only descriptor of the regular file at `abs`; the caller closes it. */
export function openRegular(abs: string): number {
  const fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw Object.assign(new Error(`${abs} is not a regular file`), { code: 'ENOTREG' });
  }
  return fd;
}

