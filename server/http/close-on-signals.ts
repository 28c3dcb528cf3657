export interface CloseOnSignalsOptions {
  /** How long the close may take before the process exits anyway, with 1. */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 10_000;

// Ctrl+C reaches both npm and the server, and npm forwards it again: a repeat this soon is the same stop.
const SAME_STOP_MS = 1_000;

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close, exit 0.
 * A close that outlasts the grace period, or a second signal, ends the process at once with 1.
 */
export function closeOnSignals(
  close: () => Promise<unknown>,
  { graceMs = DEFAULT_GRACE_MS }: CloseOnSignalsOptions = {},
) {
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstAt !== undefined) {
      if (Date.now() - firstAt < SAME_STOP_MS) return;
      console.error(`${signal} again: exiting without waiting for requests in flight`);
      process.exit(1);
    }
    firstAt = Date.now();
    setTimeout(() => {
      console.error(`still closing after ${graceMs / 1000} s: exiting without waiting for requests in flight`);
      process.exit(1);
    }, graceMs).unref();
    close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, onSignal);
}
