import { useQuery } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import { licenseQueries } from "../api/license-queries.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { localIsoDate } from "../shared/dates.ts";
import { searchFormUrl } from "../shared/page-urls.ts";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { VerdictBadge } from "../shared/verdict-badge.tsx";
import { CoverageMap } from "./coverage-map.tsx";
import { CoverageTable } from "./coverage-table.tsx";
import { AGE_BANDS, stateAges, type StateAge } from "./data-age.ts";
import { DATA_KINDS } from "./data-kind.ts";
import { needsALook, tellsHealth } from "./state-health.tsx";

const searchUrl = (state: string) => searchFormUrl({ state, by: "name" });

/** The `/data` route: what the team's key covers, state by state, on a map and in a table. */
export function DataPage() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  const coverage = useQuery(licenseQueries.coverage());

  return (
    <div className="data-page">
      <title>Data – License Lookup</title>
      <div className="page-intro">
        <h1 ref={headingRef} tabIndex={-1}>
          Data
        </h1>
        <p className="lede">
          Which states License Lookup holds for your team, where each state’s records come from, and how old they are. A
          record from data more than a year old reads <VerdictBadge verdict="check" />: confirm it with the state.
        </p>
      </div>
      {coverage.data ? (
        <Coverage coverage={coverage.data} now={coverage.dataUpdatedAt} />
      ) : coverage.data === null ? (
        <p className="notice notice--info">
          This License Lookup service does not say which states it holds or how old their data is.
        </p>
      ) : coverage.isError ? (
        <ApiErrorNotice
          error={coverage.error}
          stateLabel="The list of states"
          onRetry={() => void coverage.refetch()}
        />
      ) : (
        <p className="page-loading" role="status">
          Loading…
        </p>
      )}
    </div>
  );
}

/** `now`: when the service answered, so that "checked 2 hours ago" is told from the moment it was true. */
function Coverage({ coverage, now }: { coverage: readonly StateCoverage[]; now: number }) {
  const today = localIsoDate(new Date(now));
  const states = useMemo(() => stateAges(coverage, today), [coverage, today]);
  const covered = states.filter((s) => s.coverage);
  const uncovered = states.filter((s) => !s.coverage);
  const troubled = covered.filter((s) => needsALook(s.coverage!));
  return (
    <>
      <section className="data-section" aria-labelledby="data-map-heading">
        <h2 id="data-map-heading">What each state’s data is, and how old</h2>
        <CoverageMap states={states} searchUrl={searchUrl} />
        <Legend states={states} />
        {covered.some((s) => s.kind === "part_of_state" || s.kind === "not_a_roster") ? (
          <p className="data-section__hint">
            Where a state’s data covers part of the state or is not a license roster, a license missing from it may
            still be licensed.
          </p>
        ) : null}
        {covered.length ? <p className="data-section__hint">Choose a shaded state to search it.</p> : null}
      </section>
      <section className="data-section" aria-labelledby="data-table-heading">
        <h2 id="data-table-heading">States your team can search</h2>
        {troubled.length ? (
          <p className="notice notice--warning">
            <strong>
              <span aria-hidden="true">⚠ </span>Updates to look at:
            </strong>{" "}
            {troubled.map((s) => s.name).join(", ")} (see Updates below). Their records are still served as before.
          </p>
        ) : null}
        {covered.length ? (
          <div className="coverage-table__wrap">
            <CoverageTable
              states={covered}
              searchUrl={searchUrl}
              health={covered.some((s) => tellsHealth(s.coverage!))}
              now={now}
            />
          </div>
        ) : (
          <p>Your team’s key reads no state’s records.</p>
        )}
        {uncovered.length ? (
          <p className="coverage-none">
            <strong>Not covered for your team ({uncovered.length}):</strong> {uncovered.map((s) => s.name).join(", ")}.
            Ask whoever runs License Lookup for your team to add a state.
          </p>
        ) : null}
      </section>
    </>
  );
}

const statesCount = (n: number) => `${n} ${n === 1 ? "state" : "states"}`;

/**
 * Each shade and each pattern in words, with how many states it holds; "of a date not given" only when a state is,
 * and the patterns only when the service says what backs a state.
 */
function Legend({ states }: { states: readonly StateAge[] }) {
  const bands = AGE_BANDS.map((b) => ({ ...b, n: states.filter((s) => s.band === b.band).length })).filter(
    (b) => b.n > 0 || b.band !== "undated",
  );
  const kinds = DATA_KINDS.map((k) => ({ ...k, n: states.filter((s) => s.kind === k.kind).length }));
  return (
    <div className="coverage-legend">
      <ul aria-label="Map legend: how old the newest data is">
        {bands.map((b) => (
          <li key={b.band}>
            <span className="coverage-swatch" data-age={b.band} aria-hidden="true" />
            {b.band === "not-covered" ? "Not covered" : `Newest data ${b.words}`}: {statesCount(b.n)}
          </li>
        ))}
      </ul>
      {kinds.some((k) => k.n > 0) ? (
        <ul aria-label="Map legend: what the data is">
          {kinds.map((k) => (
            <li key={k.kind}>
              <span className="coverage-swatch" data-kind={k.kind} aria-hidden="true" />
              {k.legend}: {statesCount(k.n)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
