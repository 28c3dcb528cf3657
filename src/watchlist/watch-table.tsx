import { useMutation, useQueries, useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useCallback, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import { watchlistMutations, watchWriteFailure } from "../api/watchlist-queries.ts";
import type { DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { WatchEntry } from "../contract/watchlist.ts";
import { localIsoDate } from "../shared/dates.ts";
import {
  csvRecords,
  EXPIRING_DAYS,
  isExpiring,
  readExpiring,
  sortRows,
  watchRow,
  type ExpiringDays,
  type WatchRow,
} from "./watch-rows.ts";
import { ExpiryFilter } from "./expiry-filter.tsx";
import { WatchRowView } from "./watch-table-row.tsx";

/** Rows drawn before "Show all": a first screenful many times over, and a fast render of up to 10,000 watched. */
const FIRST = 500;

const count = (n: number) => n.toLocaleString("en-US");
const keyOf = (entry: WatchEntry) => `${entry.state} ${entry.license}`;

/** Every state's table once all are in; a table that failed to load counts as none (its codes stay as written). */
function decodingTables(results: UseQueryResult<DecodingTable | null>[]): (DecodingTable | null)[] | null {
  return results.some((r) => r.isPending) ? null : results.map((r) => r.data ?? null);
}

/** Every watched license, with its verdict as the list check gives it; filtered by expiry through `?expiring=`. */
export function WatchTable({ entries, readOnly }: { entries: readonly WatchEntry[]; readOnly: boolean }) {
  const [params] = useSearchParams();
  const expiring = readExpiring(params);
  const today = localIsoDate(new Date());
  const states = useMemo(() => [...new Set(entries.map((e) => e.state))].sort(), [entries]);
  const tables = useQueries({ queries: states.map((s) => licenseQueries.decoding(s)), combine: decodingTables });
  // What each state's data covers, named beside a license no longer listed; the rows do not wait for it.
  const coverage = useQuery(licenseQueries.coverage()).data;

  const rows = useMemo(() => {
    if (!tables) return null;
    const byState = new Map(states.map((s, i) => [s, tables[i] ?? null]));
    const covered = (state: string) => coverage?.find((c) => c.state === state);
    return sortRows(entries.map((e) => watchRow(e, today, byState.get(e.state) ?? null, covered(e.state))));
  }, [entries, states, tables, today, coverage]);
  const windows = useMemo(
    () => new Map(EXPIRING_DAYS.map((d) => [d, (rows ?? []).filter((r) => isExpiring(r, d, today))] as const)),
    [rows, today],
  );
  const filtered = expiring === null ? (rows ?? []) : (windows.get(expiring) ?? []);

  // "Show all" holds for the filter it was asked under.
  const [allFor, setAllFor] = useState<ExpiringDays | null | undefined>(undefined);
  const shown = allFor === expiring ? filtered : filtered.slice(0, FIRST);

  const headingRef = useRef<HTMLHeadingElement>(null);
  const [said, setSaid] = useState("");
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [failures, setFailures] = useState<ReadonlyMap<string, string>>(new Map());
  const { mutateAsync: unwatch } = useMutation(watchlistMutations.unwatch());

  const remove = useCallback(
    async (entry: WatchEntry) => {
      const key = keyOf(entry);
      const name = `${entry.state.toUpperCase()} ${entry.license}`;
      setRemoving((now) => new Set(now).add(key));
      setFailures((now) => {
        const next = new Map(now);
        next.delete(key);
        return next;
      });
      try {
        await unwatch({ state: entry.state, license: entry.license });
        setSaid(`${name} is no longer watched.`);
        // Its row is gone with it: the table's heading keeps the reader's place.
        headingRef.current?.focus();
      } catch (error) {
        setFailures((now) => new Map(now).set(key, watchWriteFailure(error)));
      } finally {
        setRemoving((now) => {
          const next = new Set(now);
          next.delete(key);
          return next;
        });
      }
    },
    [unwatch],
  );

  return (
    <section className="watch-table" aria-labelledby="watch-table-heading">
      <h2 id="watch-table-heading" ref={headingRef} tabIndex={-1}>
        Watched licenses
      </h2>
      <p className="action-status" role="status">
        {said}
      </p>
      {entries.length === 0 ? (
        <p>No licenses are watched yet: add them above, from a license’s page, or from a checked list.</p>
      ) : !rows ? (
        <p className="page-loading" role="status">
          Loading…
        </p>
      ) : (
        <>
          <ExpiryFilter
            all={rows.length}
            counts={new Map(EXPIRING_DAYS.map((d) => [d, windows.get(d)?.length ?? 0]))}
          />
          <p className="watchlist__actions">
            <button
              type="button"
              className="button"
              disabled={filtered.length === 0}
              onClick={() => void download(filtered, today)}
            >
              Download CSV ({count(filtered.length)})
            </button>
          </p>
          {shown.length < filtered.length ? (
            <p className="watch-table__more">
              Showing the first {count(shown.length)} of {count(filtered.length)}: changed ones first, then the soonest
              to expire.{" "}
              <button type="button" className="button button--quiet" onClick={() => setAllFor(expiring)}>
                Show all {count(filtered.length)}
              </button>
            </p>
          ) : null}
          {filtered.length === 0 ? (
            <p>None of the watched licenses expires within {expiring} days.</p>
          ) : (
            <div className="watch-table__wrap">
              <table className="watch-table__table">
                <caption className="visually-hidden">
                  Watched licenses: changed ones first, then the soonest to expire
                </caption>
                <thead>
                  <tr>
                    <th scope="col">State</th>
                    <th scope="col">Number</th>
                    <th scope="col">Business and owner</th>
                    <th scope="col">Verdict</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Source</th>
                    <th scope="col">Changed</th>
                    {readOnly ? null : (
                      <th scope="col">
                        <span className="visually-hidden">Remove</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((row) => (
                    <WatchRowView
                      key={keyOf(row.entry)}
                      row={row}
                      removing={removing.has(keyOf(row.entry))}
                      failure={failures.get(keyOf(row.entry)) ?? null}
                      onRemove={readOnly ? null : remove}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The CSV writer (papaparse) arrives on the first download, not with the page. */
async function download(rows: readonly WatchRow[], today: string) {
  const { downloadCsv, verdictCsv } = await import("../shared/verdict-csv.ts");
  downloadCsv(verdictCsv(csvRecords(rows)), `watchlist-${today}.csv`);
}
