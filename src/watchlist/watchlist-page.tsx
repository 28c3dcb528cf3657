import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useRef } from "react";
import { sessionQuery } from "../api/session-query.ts";
import { isMissingExtension } from "../api/api-error.ts";
import { watchlistQueries } from "../api/watchlist-queries.ts";
import type { Watchlist } from "../contract/watchlist.ts";
import { mayChange } from "../shared/may-change.ts";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { BulkAdd } from "./bulk-add.tsx";
import { WatchChanges } from "./watch-changes.tsx";
import { UndeliveredAlerts, WatchChecks } from "./watch-checks.tsx";
import { WatchTable } from "./watch-table.tsx";

// What a failure says arrives with the failure: a watchlist that loads never needs it.
const ApiErrorNotice = lazy(async () => ({ default: (await import("../shared/api-error-notice.tsx")).ApiErrorNotice }));

/** The `/watchlist` route: the team's watched licenses, what changed since someone last looked, and the checks. */
export function WatchlistPage() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  const list = useQuery(watchlistQueries.list());
  const session = useQuery(sessionQuery());

  return (
    <div className="watchlist">
      <title>Watchlist – License Lookup</title>
      <div className="page-intro">
        <h1 ref={headingRef} tabIndex={-1}>
          Watchlist
        </h1>
        <p className="lede">
          The licenses your team watches. Each is checked against the service on a schedule, and what changed shows here
          first.
        </p>
      </div>
      {/* The controls an auditor lacks would vanish if drawn before the session said who is reading. */}
      {list.data && !session.isPending ? (
        <WatchlistBody watchlist={list.data} readOnly={!mayChange(session.data)} />
      ) : list.isError ? (
        isMissingExtension(list.error) ? (
          <p className="notice notice--info">
            This deployment of License Lookup keeps no watchlist. The app’s own server (npm run serve) keeps one for the
            team.
          </p>
        ) : (
          <Suspense fallback={null}>
            <ApiErrorNotice error={list.error} stateLabel="The watchlist" onRetry={() => void list.refetch()} />
          </Suspense>
        )
      ) : (
        <p className="page-loading" role="status">
          Loading…
        </p>
      )}
    </div>
  );
}

function WatchlistBody({ watchlist, readOnly }: { watchlist: Watchlist; readOnly: boolean }) {
  const count = watchlist.entries.length;
  return (
    <>
      <p className="watchlist__count">
        {count.toLocaleString("en-US")} {count === 1 ? "license" : "licenses"} watched, of at most{" "}
        {watchlist.max.toLocaleString("en-US")}.
      </p>
      {readOnly ? <p className="notice notice--info">Auditors can read the watchlist but not change it.</p> : null}
      <UndeliveredAlerts undelivered={watchlist.alerts.undelivered} />
      <WatchChanges watchlist={watchlist} readOnly={readOnly} />
      <WatchChecks watchlist={watchlist} readOnly={readOnly} />
      {readOnly ? null : <BulkAdd />}
      <WatchTable entries={watchlist.entries} readOnly={readOnly} />
    </>
  );
}
