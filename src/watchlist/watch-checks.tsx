import { useMutation, useQuery } from "@tanstack/react-query";
import { watchlistMutations, watchlistQueries, watchWriteFailure } from "../api/watchlist-queries.ts";
import type { WatchCheck, WatchDelivery, Watchlist } from "../contract/watchlist.ts";
import { formatLocalTime } from "../shared/dates.ts";

const count = (n: number) => n.toLocaleString("en-US");

const TRIGGER_WORDS: Record<WatchCheck["trigger"], string> = {
  "start-up": "on start-up",
  schedule: "scheduled",
  "check now": "asked for with Check now",
};

/** "Last check: November 22, 2026, 10:04 (scheduled): 3,000 of 3,000 licenses checked; 2 changes found." */
function lastCheckWords(check: WatchCheck): string {
  const changes = check.changes === 1 ? "1 change" : `${count(check.changes)} changes`;
  return `Last check: ${formatLocalTime(check.finished_at ?? check.started_at)} (${TRIGGER_WORDS[check.trigger]}): ${count(check.checked)} of ${count(check.total)} licenses checked; ${changes} found.`;
}

function alertWords({ webhook, email }: Watchlist["alerts"]): string {
  if (webhook && email) return "Changes are also sent by webhook and by email.";
  if (webhook) return "Changes are also sent by webhook.";
  if (email) return "Changes are also sent by email.";
  return "No alerts are set up: changes show only on this page.";
}

/** The checks: the last one and what it found, the next one, "Check now" and its progress; and whether alerts go out. */
export function WatchChecks({ watchlist, readOnly }: { watchlist: Watchlist; readOnly: boolean }) {
  const start = useMutation(watchlistMutations.check());
  // Followed on its own while it runs; the list is asked again once it ends.
  const latest = useQuery(watchlistQueries.check());
  const { next_check_at: next, alerts } = watchlist;
  const check = latest.data ?? watchlist.check;
  const running = check?.finished_at === null ? check : null;
  const progress = running ? `Checking… ${count(running.checked)} of ${count(running.total)}` : null;

  return (
    <section className="watch-checks" aria-labelledby="watch-checks-heading">
      <h2 id="watch-checks-heading">Checks</h2>
      {/* Said when a check starts and when it ends; its count moves on the button and the bar, not in speech. */}
      <p role="status">
        {running
          ? `Checking ${count(running.total)} licenses, since ${formatLocalTime(running.started_at)}…`
          : check
            ? lastCheckWords(check)
            : "No check has run yet."}
      </p>
      {running ? (
        <progress max={running.total} value={running.checked} aria-label="Licenses checked" />
      ) : check?.error ? (
        <p className="notice notice--warning">Some licenses could not be checked: {check.error}</p>
      ) : null}
      <p>{next ? `Next scheduled check: ${formatLocalTime(next)}.` : "No check is scheduled."}</p>
      {readOnly ? null : (
        <p className="watchlist__actions">
          {/* aria-disabled, not disabled: the button keeps the focus while the check it started runs. */}
          <button
            type="button"
            className="button"
            aria-disabled={running !== null || start.isPending}
            onClick={() => {
              if (!running && !start.isPending) start.mutate();
            }}
          >
            {progress ?? "Check now"}
          </button>
        </p>
      )}
      {start.error ? (
        <p className="notice notice--error" role="alert">
          {watchWriteFailure(start.error)}
        </p>
      ) : null}
      <p className="watch-checks__alerts">{alertWords(alerts)}</p>
    </section>
  );
}

/** An alert that did not go is the clerk's to know: each, with why and when it is tried again. */
export function UndeliveredAlerts({ undelivered }: { undelivered: readonly WatchDelivery[] }) {
  if (undelivered.length === 0) return null;
  return (
    <div className="notice notice--warning">
      <p className="notice__title">
        {undelivered.length === 1 ? "An alert did not go out" : `${count(undelivered.length)} alerts did not go out`}
      </p>
      <ul className="watch-checks__undelivered">
        {undelivered.map((d, i) => (
          <li key={i}>
            {d.kind === "email" ? "Email" : "Webhook"} “{d.subject}” of {formatLocalTime(d.created_at)}:{" "}
            {d.attempts === 0 ? "not tried yet" : `${count(d.attempts)} ${d.attempts === 1 ? "attempt" : "attempts"}`}
            {d.last_error ? `, last error: ${d.last_error}` : ""};{" "}
            {d.next_attempt_at ? `tried again ${formatLocalTime(d.next_attempt_at)}.` : "given up."}
          </li>
        ))}
      </ul>
    </div>
  );
}
