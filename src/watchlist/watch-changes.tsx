import { useMutation } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { watchlistMutations, watchWriteFailure } from "../api/watchlist-queries.ts";
import type { License } from "../contract/license.ts";
import type { Watchlist } from "../contract/watchlist.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { licenseUrl } from "../shared/page-urls.ts";
import { changeWords } from "./change-words.ts";

/** A state's import can change thousands at once: the first ones show, the rest on asking. */
const FIRST = 100;

/** "Changed since you last looked": each unseen change in words, newest first, until someone marks them seen. */
export function WatchChanges({
  watchlist: { changes, entries, looked_at },
  readOnly,
}: {
  watchlist: Watchlist;
  /** An auditor's: the changes without "Mark all as seen". */
  readOnly: boolean;
}) {
  const seen = useMutation(watchlistMutations.markSeen());
  const [all, setAll] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const records = useMemo(() => new Map(entries.map((e) => [`${e.state} ${e.license}`, e.record] as const)), [entries]);
  const shown = all ? changes : changes.slice(0, FIRST);

  return (
    <section className="watch-changes" aria-labelledby="watch-changes-heading">
      <h2 id="watch-changes-heading" ref={headingRef} tabIndex={-1}>
        Changed since you last looked
      </h2>
      {changes.length === 0 ? (
        <p className="watch-changes__none">
          No changes since you last looked{looked_at ? ` (${formatLocalTime(looked_at)})` : ""}.
        </p>
      ) : (
        <>
          <ul className="watch-changes__list">
            {shown.map((change) => {
              const record: License | null = records.get(`${change.state} ${change.license}`) ?? null;
              const name = record?.business || record?.owner;
              return (
                <li key={change.id}>
                  <Link to={licenseUrl(change.state, change.license)}>
                    {change.state.toUpperCase()} {change.license}
                    {name ? ` · ${name}` : ""}
                  </Link>
                  {` — ${changeWords(change, record)} · found ${formatLocalTime(change.detected_at)}`}
                </li>
              );
            })}
          </ul>
          <p className="watchlist__actions">
            {shown.length < changes.length ? (
              <button type="button" className="button button--quiet" onClick={() => setAll(true)}>
                Show all {changes.length.toLocaleString("en-US")} changes
              </button>
            ) : null}
            {readOnly ? null : (
              <button
                type="button"
                className="button"
                disabled={seen.isPending}
                onClick={() =>
                  // The list is gone once seen: the heading keeps the reader's place. Up to the newest change
                  // shown: one a running check finds meanwhile was not read, and stays.
                  seen.mutate(Math.max(...changes.map((c) => c.id)), {
                    onSuccess: () => headingRef.current?.focus(),
                  })
                }
              >
                Mark all as seen
              </button>
            )}
          </p>
        </>
      )}
      {seen.error ? (
        <p className="notice notice--error" role="alert">
          {watchWriteFailure(seen.error)}
        </p>
      ) : null}
    </section>
  );
}
