import { readFileSync, rmSync, writeFileSync } from "node:fs";

/** A second sync of a database while one runs: it says which process holds it. */
export class SyncLockedError extends Error {
  constructor(
    readonly db: string,
    readonly pid: number,
  ) {
    super(`another sync of ${db} is running (pid ${pid}); this one did nothing.`);
  }
}

/**
 * Takes the database's sync lock: a file `<db>.sync-lock` created exclusively (O_EXCL), holding our pid. A lock
 * whose process is gone (killed, the machine restarted) is taken over. Returns the function that lets it go.
 */
export function takeSyncLock(db: string, pid = process.pid): () => void {
  const path = `${db}.sync-lock`;
  for (let tries = 0; ; tries++) {
    try {
      writeFileSync(path, `${pid}\n`, { flag: "wx" });
      let held = true;
      return () => {
        if (held) rmSync(path, { force: true });
        held = false;
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readOr(path, ""), 10);
      const known = Number.isInteger(holder) && holder > 0;
      if ((known && alive(holder)) || tries > 0) throw new SyncLockedError(db, known ? holder : 0);
      // Stale: its process is gone. Two syncs that both see it so race for the new file; one wins.
      rmSync(path, { force: true });
    }
  }
}

/** Runs `work` holding the database's sync lock (SyncLockedError when another process holds it); lets it go after. */
export async function withSyncLock<T>(db: string, work: () => Promise<T>): Promise<T> {
  const release = takeSyncLock(db);
  try {
    return await work();
  } finally {
    release();
  }
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return fallback;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
