/**
 * An errno error as a user reads it: the code and what it means ("EACCES (permission denied)"),
 * for one-line messages that name a path and say why it failed, without a stack trace.
 */
export function errnoText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (!e || !e.code) return String(err);
  const meaning: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'it is a folder',
    ENOENT: 'no such file or folder',
    EEXIST: 'it already exists',
    EBUSY: 'it is busy',
    EMFILE: 'too many open files',
    EIO: 'input/output error',
    ELOOP: 'too many symbolic links',
    ENAMETOOLONG: 'the name is too long',
    EXDEV: 'it is on another file system',
    ENOTEMPTY: 'the folder is not empty',
    ENOTREG: 'not a regular file',
  };
  return meaning[e.code] ? `${e.code} (${meaning[e.code]})` : e.code;
}
