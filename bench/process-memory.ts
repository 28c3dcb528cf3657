import { readdirSync, readFileSync } from "node:fs";

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

/** Resident memory of a process and all its descendants: a launcher's children are part of what it costs. */
export function treeRssMb(pid: number): { mb: number; processes: number } {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
  );
  return children.map(treeRssMb).reduce((a, b) => ({ mb: a.mb + b.mb, processes: a.processes + b.processes }), {
    mb: rssMb(pid),
    processes: 1,
  });
}
