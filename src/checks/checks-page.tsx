import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { sessionQuery } from "../api/session-query.ts";
import { isMissingExtension } from "../api/api-error.ts";
import { checksCsvUrl, checksQueries } from "../api/checks-queries.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { ChainState } from "./chain-state.tsx";
import { filterSearch, readBefore, readFilter } from "./checks-filter.ts";
import { ChecksFilters } from "./checks-filters.tsx";
import { ChecksTable } from "./checks-table.tsx";

/** `/checks`: the record of every check and sign-in, filtered through the address, newest first, a page at a time. */
export function ChecksPage() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const before = readBefore(params);
  const session = useQuery(sessionQuery());
  const page = useQuery(checksQueries.page(filter, before));
  const everyone = session.data?.user.role !== "member";

  return (
    <div className="checks">
      <title>Checks – License Lookup</title>
      <div className="page-intro">
        <h1 ref={headingRef} tabIndex={-1}>
          Checks
        </h1>
        <p className="lede">
          {everyone
            ? "Every verdict shown to anyone on your team, every sign-in and every administrator’s change, as recorded at the time."
            : "Every verdict you were shown, as recorded at the time. Auditors and administrators read everyone’s."}
        </p>
      </div>
      {page.isError && isMissingExtension(page.error) ? (
        <p className="notice notice--info">
          This copy of License Lookup keeps no record of checks. The app’s own server (npm run serve) keeps one.
        </p>
      ) : (
        <>
          <ChainState everyone={everyone} />
          {/* Drawn afresh for each address, so Back shows the filters of the page it returns to. */}
          <ChecksFilters
            key={filterSearch(filter)}
            filter={filter}
            byPerson={everyone}
            onFilter={(next) => setParams(filterSearch(next))}
          />
          {page.isError ? (
            <ApiErrorNotice error={page.error} stateLabel="The record of checks" onRetry={() => void page.refetch()} />
          ) : !page.data ? (
            <p className="page-loading" role="status">
              Loading…
            </p>
          ) : (
            <>
              <p className="checks__count">
                {countWords(page.data.total, Object.keys(filter).length > 0, everyone)}
                {before ? ` Listed here: those older than entry ${before}.` : ""}{" "}
                <a className="button no-print" href={checksCsvUrl(filter)} download>
                  Download CSV
                </a>
              </p>
              {page.data.entries.length > 0 ? <ChecksTable entries={page.data.entries} /> : null}
              <p className="checks__paging no-print">
                {before ? <Link to={filterSearch(filter)}>Newest</Link> : null}{" "}
                {page.data.next_before ? (
                  <Link className="button" to={filterSearch(filter, page.data.next_before)}>
                    Older
                  </Link>
                ) : null}
              </p>
            </>
          )}
        </>
      )}
    </div>
  );
}

/**
 * How many entries the page lists, in words that say whose they are, beside the banner's count of the whole record:
 * "1,234 entries." for an auditor, "18 entries are yours." for a member, "3 of them match the filters." filtered.
 */
function countWords(total: number, filtered: boolean, everyone: boolean): string {
  const n = total.toLocaleString("en-US");
  const entries = total === 1 ? "entry" : "entries";
  if (filtered) {
    if (total === 0) return everyone ? "No entries match the filters." : "None of your entries match the filters.";
    const match = total === 1 ? "matches" : "match";
    return everyone ? `${n} ${entries} ${match} the filters.` : `${n} of your entries ${match} the filters.`;
  }
  if (total === 0) return everyone ? "No entries yet." : "No entries of yours yet.";
  return everyone ? `${n} ${entries}.` : `${n} ${entries} ${total === 1 ? "is" : "are"} yours.`;
}
