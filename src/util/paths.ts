/** Library-relative paths are POSIX; the library root itself is ".". */
export function joinRel(dir: string, name: string): string {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}
