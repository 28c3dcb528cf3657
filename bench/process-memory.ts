import { readFileSync } from "node:fs";

/** Resident memory of a process in MB, from /proc/<pid>/status (VmRSS). */
export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak and the last sample. */
export function sampleRss(pid: number, everyMs = 250) {
  let peak = rssMb(pid);
  let last = peak;
  const timer = setInterval(() => {
    last = rssMb(pid);
    peak = Math.max(peak, last);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peak, last };
    },
  };
}
