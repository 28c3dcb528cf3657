import { useQuery, useSuspenseQuery, type QueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import {
  data,
  isRouteErrorResponse,
  Link,
  redirect,
  useParams,
  useRevalidator,
  useRouteError,
  type LoaderFunctionArgs,
} from "react-router";
import { ApiError } from "../api/api-error.ts";
import { licenseQueries } from "../api/license-queries.ts";
import { isStateCode, stateName } from "../contract/states.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { LicenseDetail } from "./license-detail.tsx";
import { LicenseNotCovered } from "./license-not-covered.tsx";
import { LicenseNotFound } from "./license-not-found.tsx";

/** The `/license/:state/:license` route; its loader fetches through the query cache so the page renders complete. */
export function licenseRoute(queryClient: QueryClient) {
  return {
    loader: async ({ params, request }: LoaderFunctionArgs) => {
      const { state = "", license = "" } = params;
      const code = state.toLowerCase();
      if (!isStateCode(code)) throw data(`No state “${state}”`, { status: 404 });
      if (code !== state) throw redirect(`/license/${code}/${encodeURIComponent(license)}`);
      const detail = licenseQueries.detail(code, license);
      const provenance = licenseQueries.provenance(code, license);
      request.signal.addEventListener("abort", () => {
        void queryClient.cancelQueries({ queryKey: detail.queryKey });
        void queryClient.cancelQueries({ queryKey: provenance.queryKey });
      });
      // What the state's data covers is for "not found"; without it that page still answers.
      const coverage = queryClient.ensureQueryData(licenseQueries.coverage()).catch(() => null);
      const [found] = await Promise.all([queryClient.ensureQueryData(detail), queryClient.ensureQueryData(provenance)]);
      if (found === null) await coverage;
      return null;
    },
    Component: LicensePage,
    ErrorBoundary: LicenseError,
  };
}

function useLicenseParams() {
  const { state = "", license = "" } = useParams();
  return { state, license, stateLabel: stateName(state) ?? state.toUpperCase() };
}

function LicensePage() {
  const { state, license } = useLicenseParams();
  const { data: found, dataUpdatedAt } = useSuspenseQuery(licenseQueries.detail(state, license));
  const { data: provenance } = useSuspenseQuery(licenseQueries.provenance(state, license));
  const { data: decoding } = useSuspenseQuery(licenseQueries.decoding(state));
  const coverage = useQuery({ ...licenseQueries.coverage(), enabled: found === null });
  return found ? (
    <LicenseDetail license={found} provenance={provenance} decoding={decoding} retrievedAt={new Date(dataUpdatedAt)} />
  ) : (
    <LicenseNotFound
      state={state}
      license={license}
      coverage={coverage.data === null ? null : coverage.data?.find((c) => c.state === state)}
    />
  );
}

/** The service's failures, and a state code that names no state, are this route's to explain; the rest goes up. */
function LicenseError() {
  const error = useRouteError();
  const { state, license, stateLabel } = useLicenseParams();
  const revalidator = useRevalidator();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  if (isRouteErrorResponse(error) && error.status === 404) return <NoSuchState state={state} license={license} />;
  if (error instanceof ApiError && error.kind === "unavailable") {
    return <LicenseNotCovered state={state} license={license} />;
  }
  if (!(error instanceof ApiError)) throw error;

  return (
    <div className="license-error">
      <title>{`License ${license} in ${stateLabel} – License Lookup`}</title>
      <p className="eyebrow">{stateLabel} liquor license</p>
      <h1 ref={headingRef} tabIndex={-1}>
        License <span className="mono given">{license}</span>
      </h1>
      <ApiErrorNotice error={error} stateLabel={stateLabel} onRetry={() => void revalidator.revalidate()}>
        <Link className="button button--quiet" to={`/?state=${state}`}>
          New search
        </Link>
      </ApiErrorNotice>
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
