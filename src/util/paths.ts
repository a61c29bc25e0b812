/** Library-relative paths are always POSIX, whatever the host separator. */
import path from 'node:path';

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Join library-relative POSIX segments; the library root itself is ".". */
export function joinRel(dir: string, name: string): string {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}

export function dirnameRel(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '.' : p.slice(0, i);
}
