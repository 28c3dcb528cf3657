import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import { stateName } from "../contract/states.ts";
import { lastState } from "./last-state.ts";
import { readSearchUrl } from "./search-url.ts";
import { SearchForm } from "./search-form.tsx";
import { SearchResults } from "./search-results.tsx";

/** The `/` route: the search lives in the query string, so reload, back and forward restore it. */
export function Component() {
  const [params] = useSearchParams();
  const { values, query, problem } = readSearchUrl(params);
  const coverage = useQuery(licenseQueries.coverage());
  const initial = { ...values, state: values.state || lastState() };

  return (
    <>
      <title>{query ? `“${query.q}” in ${stateName(query.state)} – License Lookup` : "License Lookup"}</title>
      <div className="page-intro">
        <h1>Find a liquor license</h1>
        <p className="lede">
          Search a state’s license records by business or owner name, street address or license number.
        </p>
      </div>
      {/* A new URL is a new search: the form starts again from what the URL says. */}
      <SearchForm key={params.toString()} initial={initial} coverage={coverage.data} />
      {problem ? (
        <p className="notice notice--error" role="alert">
          The search in this link was not run. {problem.error}
        </p>
      ) : null}
      {query ? <SearchResults query={query} /> : null}
    </>
  );
}
