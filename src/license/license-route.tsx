import { QueryErrorResetBoundary, usePrefetchQuery, useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { lazy, Suspense, useRef } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { Link, Navigate, useParams } from "react-router";
import { ApiError } from "../api/api-error.ts";
import { licenseQueries } from "../api/license-queries.ts";
import { watchlistQueries } from "../api/watchlist-queries.ts";
import { isStateCode, stateName } from "../contract/states.ts";
import { afterPaint } from "../shared/after-paint.ts";
import { licenseUrl } from "../shared/page-urls.ts";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { LicenseDetail } from "./license-detail.tsx";
import { LicenseHistory } from "./license-history.tsx";
import { LicenseNumberHeading } from "./license-number-heading.tsx";
import { WithHistory } from "./with-history.tsx";

// Recording what the page showed follows the verdict on screen: its code is fetched once the page has painted.
const RecordCheck = lazy(async () => {
  await afterPaint();
  return { default: (await import("./record-check.tsx")).RecordCheck };
});

// Only a number not found, or a state not covered, needs these: a page that shows a record never loads them. They
// suspend to the page's own loading state, so the answer still arrives whole.
const LicenseNotFound = lazy(async () => ({ default: (await import("./license-not-found.tsx")).LicenseNotFound }));
const LicenseNotCovered = lazy(async () => ({
  default: (await import("./license-not-covered.tsx")).LicenseNotCovered,
}));

// What a failure says arrives with the failure: a page that shows a record never needs it.
const ApiErrorNotice = lazy(async () => ({ default: (await import("../shared/api-error-notice.tsx")).ApiErrorNotice }));

function Recorded({ state, license }: { state: string; license: string }) {
  return (
    <Suspense fallback={null}>
      <RecordCheck state={state} license={license} />
    </Suspense>
  );
}

/**
 * The `/license/:state/:license` page. Record, provenance, decoding and history are fetched together
 * through the query cache, and the page shows once all are in: it never shows a verdict without its
 * source, nor a history that arrives after the page.
 */
export function LicenseRoute() {
  const { state = "", license = "" } = useParams();
  const code = state.toLowerCase();
  if (!isStateCode(code)) return <NoSuchState state={state} license={license} />;
  if (code !== state) return <Navigate replace to={licenseUrl(code, license)} />;
  return <LicenseAnswer state={code} license={license} />;
}

function LicenseAnswer({ state, license }: { state: string; license: string }) {
  // The record, its source and the state's code table, asked together: the page reads each in turn, none waits on another.
  usePrefetchQuery(licenseQueries.detail(state, license));
  usePrefetchQuery(licenseQueries.provenance(state, license));
  usePrefetchQuery(licenseQueries.decoding(state));
  // What the state's data covers, for "not found": asked alongside the record, so that page has it at once.
  usePrefetchQuery(licenseQueries.coverage());
  // Asked with the record, not once the record is in: the page waits for it (WithHistory).
  usePrefetchQuery(licenseQueries.history(state, license));
  // The Watch button's answer, asked now so that it is in when the record shows and the buttons never move.
  usePrefetchQuery(watchlistQueries.entry(state, license));
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          onReset={reset}
          resetKeys={[state, license]}
          fallbackRender={({ error, resetErrorBoundary }) => (
            <LicenseError error={error} state={state} license={license} retry={resetErrorBoundary} />
          )}
        >
          <LicensePage state={state} license={license} />
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}

function LicensePage({ state, license }: { state: string; license: string }) {
  const { data: found, dataUpdatedAt } = useSuspenseQuery(licenseQueries.detail(state, license));
  const { data: provenance } = useSuspenseQuery(licenseQueries.provenance(state, license));
  const { data: decoding } = useSuspenseQuery(licenseQueries.decoding(state));
  const coverage = useQuery({ ...licenseQueries.coverage(), enabled: found === null });
  // What the state's data covers is part of a "not found" answer: asked with the record, and waited for, so the
  // answer shows whole rather than growing a line when it comes.
  if (found === null && coverage.isPending) {
    return (
      <p className="page-loading" role="status">
        Loading…
      </p>
    );
  }
  return found ? (
    <LicenseDetail
      license={found}
      provenance={provenance}
      decoding={decoding}
      retrievedAt={new Date(dataUpdatedAt)}
      recorded={<Recorded state={state} license={license} />}
      history={
        <WithHistory state={state} license={license}>
          {(answer) => (
            <LicenseHistory answer={answer} decoding={decoding} stateLabel={stateName(state) ?? state.toUpperCase()} />
          )}
        </WithHistory>
      }
    />
  ) : (
    <LicenseNotFound
      state={state}
      license={license}
      coverage={coverage.data === null ? null : coverage.data?.find((c) => c.state === state)}
      decoding={decoding}
      recorded={<Recorded state={state} license={license} />}
    />
  );
}

/** The service's failures are this page's to explain; the rest goes up. */
function LicenseError({
  error,
  state,
  license,
  retry,
}: {
  error: unknown;
  state: string;
  license: string;
  retry: () => void;
}) {
  const stateLabel = stateName(state) ?? state.toUpperCase();
  if (error instanceof ApiError && error.kind === "unavailable") {
    return (
      <LicenseNotCovered state={state} license={license} recorded={<Recorded state={state} license={license} />} />
    );
  }
  // Not the service's: a fault of the app, for the page-wide boundary.
  if (!(error instanceof ApiError)) throw error;

  return (
    <div className="license-error">
      <title>{`License ${license} in ${stateLabel} – License Lookup`}</title>
      <LicenseNumberHeading stateLabel={stateLabel} license={license} />
      <Suspense fallback={null}>
        <ApiErrorNotice error={error} stateLabel={stateLabel} onRetry={retry}>
          <Link className="button button--quiet" to={`/?state=${state}`}>
            New search
          </Link>
        </ApiErrorNotice>
      </Suspense>
    </div>
  );
}

function NoSuchState({ state, license }: { state: string; license: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  return (
    <div className="not-found">
      <title>No such state – License Lookup</title>
      <h1 ref={headingRef} tabIndex={-1}>
        No state “<span className="given">{state}</span>”
      </h1>
      <p className="lede">
        License links name a state by its two-letter code, such as /license/ny/{license || "0012345"} for New York. “
        {state}” is not one of the 50 states or DC.
      </p>
      <p>
        <Link className="button button--primary" to="/">
          Go to the search
        </Link>
      </p>
    </div>
  );
}
