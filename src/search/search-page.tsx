import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useRef, useState } from "react";
import { NavigationType, useLocation, useNavigationType, useSearchParams } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import type { SearchQuery } from "../contract/search-query.ts";
import { stateName } from "../contract/states.ts";
import { lastState } from "./last-state.ts";
import { readSearchUrl, type SearchMode } from "./search-url.ts";
import { SearchForm, type SearchFormHandle } from "./search-form.tsx";
import { SearchResults } from "./search-results.tsx";

/** The `/` route: the search lives in the query string, so reload, back and forward restore it. */
export function SearchPage() {
  const [params] = useSearchParams();
  const url = params.toString();
  const location = useLocation();
  const navigationType = useNavigationType();
  // A URL the form wrote as the clerk typed keeps the form, cursor and all; any other (Enter, Back, a link) sets it again.
  const [form, setForm] = useState({ key: location.key, id: 0 });
  if (form.key !== location.key) {
    const typed = navigationType !== NavigationType.Pop && typedBy(location.state) === form.id;
    setForm({ key: location.key, id: typed ? form.id : form.id + 1 });
  }
  // Read once per URL: the page is drawn again for each search typed, the URL is not.
  const { values, query: urlQuery, problem } = useMemo(() => readSearchUrl(params), [params]);
  // What the clerk has typed, shown before the URL follows it: over as soon as the URL changes (the form writing
  // it, which then says the same, or Back, or a link).
  const [typing, setTyping] = useState<{ query: SearchQuery | null; key: string } | null>(null);
  if (typing && typing.key !== location.key) setTyping(null);
  const typed = typing !== null && typing.key === location.key;
  const query = typed ? typing.query : urlQuery;
  const coverage = useQuery(licenseQueries.coverage());
  // The form's first values: the same object while the URL is, so the form is not drawn again for what is typed.
  const initial = useMemo(() => ({ ...values, state: values.state || lastState() }), [values]);
  // A mode chosen since this URL: the results, of the URL's mode, stay hidden until the form is searched or set back.
  const [switched, setSwitched] = useState<{ url: string; by: SearchMode } | null>(null);
  // Any other URL (a search, Back, a link) sets the form again, so the switch is over, even on coming back to this one.
  if (switched && switched.url !== url) setSwitched(null);
  const formMode = switched?.url === url ? switched.by : values.by;
  const shown = query?.by === formMode ? query : null;
  const onModeChange = useCallback((by: SearchMode) => setSwitched({ url, by }), [url]);
  const onTyped = useCallback(
    (typedQuery: SearchQuery | null) => setTyping({ query: typedQuery, key: location.key }),
    [location.key],
  );
  // The tab's title follows the URL, not each keystroke: every change of it costs the browser a few ms.
  const titled = urlQuery?.by === formMode ? urlQuery : null;
  const formHandle = useRef<SearchFormHandle>(null);
  const beforeOpen = useCallback(() => formHandle.current?.leave(), []);

  return (
    <>
      <title>{titled ? `“${titled.q}” in ${stateName(titled.state)} – License Lookup` : "License Lookup"}</title>
      <div className="page-intro">
        <h1>Find a liquor license</h1>
        <p className="lede">
          Search a state’s license records by business or owner name, street address or license number.
        </p>
      </div>
      {/* A new search not typed here: the form starts again from what the URL says. */}
      <SearchForm
        key={form.id}
        formId={form.id}
        initial={initial}
        coverage={coverage.data}
        coverageFailure={
          coverage.isError
            ? {
                error: coverage.error,
                at: coverage.errorUpdatedAt,
                retrying: coverage.isFetching,
                retry: () => void coverage.refetch(),
              }
            : null
        }
        holdsSearch={urlQuery !== null}
        onModeChange={onModeChange}
        onTyped={onTyped}
        handle={formHandle}
      />
      {problem ? (
        <p className="notice notice--error" role="alert">
          The search in this link was not run. {problem.error}
        </p>
      ) : null}
      {shown ? (
        <SearchResults query={shown} typed={typed || typedBy(location.state) !== null} beforeOpen={beforeOpen} />
      ) : null}
    </>
  );
}

/** The form that wrote this history entry as the clerk typed, if one did. */
function typedBy(state: unknown): number | null {
  return typeof state === "object" && state !== null && "typedBy" in state && typeof state.typedBy === "number"
    ? state.typedBy
    : null;
}
