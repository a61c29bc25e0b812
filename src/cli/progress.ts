/**
 * Progress on stderr for long work. On a terminal (and not under CI) one line is redrawn at most
 * ten times a second; elsewhere nothing is drawn, so logs stay clean.
 */
export interface Progress {
  update(label: string, done: number, total: number): void;
  done(): void;
}

export function createProgress(stream: NodeJS.WriteStream, enabled: boolean): Progress {
  if (!enabled || !stream.isTTY || process.env.CI) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(label, done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      drawn = true;
      stream.write(`\r\x1b[2K${label} ${done}/${total}`);
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
