import { readFileSync } from "node:fs";

/** Ticks per second of /proc's CPU times (USER_HZ): 100 on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU time a process has used so far, user and system, all its threads, in microseconds. */
export function cpuMicros(pid: number): number {
  // Fields after the command (which may hold spaces, hence after its closing parenthesis):
  // state is field 3, utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`no CPU times for process ${pid}`);
  return (ticks / TICKS_PER_SECOND) * 1e6;
}
