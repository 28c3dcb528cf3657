import { SingleBar } from "cli-progress";
import type { ImportProgress } from "./import-source.ts";

export interface ProgressReporter {
  update(progress: ImportProgress): void;
  stop(): void;
}

const PLAIN_EVERY_SECONDS = 2;
const FINISHING = "all read; the store is finishing its search index";

const count = (n: number) => n.toLocaleString("en-US");
const rate = (p: ImportProgress) => (p.seconds > 0 ? Math.round(p.rowsRead / p.seconds) : 0);

/** Seconds left, from the share of the input's bytes read so far. */
function eta(p: ImportProgress): string {
  if (p.bytesRead === 0 || p.bytesRead >= p.totalBytes) return "ETA -";
  const left = Math.ceil((p.seconds * (p.totalBytes - p.bytesRead)) / p.bytesRead);
  return left >= 60 ? `ETA ${Math.floor(left / 60)}m${String(left % 60).padStart(2, "0")}s` : `ETA ${left}s`;
}

/**
 * Import progress on `stream`: a bar with rows, rows/s and an ETA (from the share of input bytes
 * read) on a terminal; otherwise a plain line every few seconds, fit for logs.
 */
export function progressReporter(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  return stream.isTTY ? barReporter(stream, label) : lineReporter(stream, label);
}

function barReporter(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | {stage}`,
    hideCursor: true,
    clearOnComplete: true,
  });
  let started = false;
  return {
    update(p) {
      const payload = { rows: count(p.rowsRead), rate: count(rate(p)), stage: p.allRead ? FINISHING : eta(p) };
      if (!started) {
        bar.start(Math.max(p.totalBytes, 1), 0, payload);
        started = true;
      }
      bar.update(Math.min(p.bytesRead, p.totalBytes), payload);
    },
    stop: () => bar.stop(),
  };
}

function lineReporter(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  let next = PLAIN_EVERY_SECONDS;
  return {
    update(p) {
      if (p.allRead) {
        if (p.seconds >= PLAIN_EVERY_SECONDS) stream.write(`${label}: ${count(p.rowsRead)} rows, ${FINISHING}\n`);
        return;
      }
      if (p.seconds < next) return;
      next = p.seconds + PLAIN_EVERY_SECONDS;
      const share = p.totalBytes ? Math.floor((100 * p.bytesRead) / p.totalBytes) : 100;
      stream.write(
        `${label}: ${count(p.rowsRead)} rows read (${share}% of the input), ${count(rate(p))} rows/s, ${eta(p)}\n`,
      );
    },
    stop() {},
  };
}
