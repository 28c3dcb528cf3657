import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { memo, useRef, type MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError } from "../api/api-error.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";
import { licenseQueries, rememberResult, type SearchAnswer } from "../api/license-queries.ts";
import { MAX_RESULTS } from "../contract/envelopes.ts";
import type { SearchQuery } from "../contract/search-query.ts";
import { stateName } from "../contract/states.ts";
import { localIsoDate } from "../shared/dates.ts";
import { recordAsOf } from "../contract/record-source.ts";
import { licenseVerdict } from "../contract/verdict.ts";
import { HighlightPattern, highlightPattern } from "./highlight.tsx";
import { closeMatchWords } from "./close-match.ts";
import { ResultItem } from "./result-item.tsx";
import { searchUrl } from "./search-url.ts";

/** `typed`: the search was made as the clerk typed, so the cursor stays in the box rather than coming to the results. */
export function SearchResults({
  query,
  typed,
  beforeOpen,
}: {
  query: SearchQuery;
  typed: boolean;
  /** Called, and waited for, before a result is opened: the form writes the search typed into the history. */
  beforeOpen?: () => Promise<void> | undefined;
}) {
  // While the next search is on its way, the last answer stays on screen, marked as the search it answers.
  const result = useQuery({ ...licenseQueries.search(query), placeholderData: keepPreviousData });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stateLabel = stateName(query.state) ?? query.state.toUpperCase();
  useArrivalFocus(headingRef, result.isSuccess && !typed);

  const answered = result.data?.query ?? query;
  const licenses = result.data?.licenses ?? [];
  const count = licenses.length;
  const today = localIsoDate(new Date());
  // The service answers at most MAX_RESULTS and never says how many more match: a full page is "the first".
  const status = result.isPending
    ? "Searching…"
    : result.isPlaceholderData
      ? `Searching… Showing the results for “${answered.q}” until then.`
      : result.isError
        ? "The search failed."
        : count === 0
          ? "No licenses found."
          : count === MAX_RESULTS
            ? `The first ${MAX_RESULTS} matches, best first; there may be more.`
            : `${count} license${count === 1 ? "" : "s"} found.`;

  return (
    <section className="results" aria-labelledby="results-heading" aria-busy={result.isFetching}>
      <div className="results__header">
        <h2 id="results-heading" ref={headingRef} tabIndex={-1}>
          Results for “{query.q}” in {stateLabel}
        </h2>
        <p className="results__count" role="status">
          {status}
        </p>
      </div>

      {result.isError ? (
        <ApiErrorNotice error={result.error} stateLabel={stateLabel} onRetry={() => void result.refetch()}>
          {result.error instanceof ApiError && result.error.kind === "unavailable" ? (
            <button type="button" className="button" onClick={() => document.getElementById("search-state")?.focus()}>
              Choose another state
            </button>
          ) : null}
        </ApiErrorNotice>
      ) : null}

      {count === MAX_RESULTS ? (
        <p className="notice notice--info">
          The service gives the first {MAX_RESULTS} matches and does not say how many more there are. Add more words to
          the {answered.by} to narrow the search.
        </p>
      ) : null}

      {result.isSuccess && !result.isPlaceholderData && count === 0 ? (
        <NoResults query={query} stateLabel={stateLabel} />
      ) : null}

      {count > 0 ? (
        // The clicks caught here are its links' own, which the keyboard reaches and opens (Enter clicks a link).
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
        <ol
          className={result.isPlaceholderData ? "results__list results__list--previous" : "results__list"}
          aria-label="Matching licenses"
          onClick={(event) =>
            openInApp(event, (link) => {
              rememberResult(queryClient, result.data!, link.dataset.license!);
              const href = link.getAttribute("href")!;
              void (async () => {
                await beforeOpen?.();
                await navigate(href);
              })();
            })
          }
        >
          <ResultItems answer={result.data!} today={today} />
        </ol>
      ) : null}
    </section>
  );
}

/**
 * One answer's licenses. Kept as they are while the clerk types on: the answer shown until the next one comes
 * is the same object, so a keystroke re-renders none of its items (that cost a keystroke's results a frame).
 * The next answer draws again only the results that differ from the last and the words marked in each.
 */
const ResultItems = memo(function ResultItems({ answer, today }: { answer: SearchAnswer; today: string }) {
  return (
    <HighlightPattern value={highlightPattern(answer.query.q)}>
      {answer.licenses.map((license, i) => {
        const provenance = answer.provenance[i] ?? null;
        const verdict = licenseVerdict(license, { today, asOf: recordAsOf(provenance), decoding: answer.decoding });
        return (
          <ResultItem
            key={license.license}
            license={license}
            verdict={verdict.verdict}
            reason={verdict.reason}
            provenance={provenance}
            by={answer.query.by}
            closeFor={closeMatchWords(answer.query, license).join(", ")}
          />
        );
      })}
    </HighlightPattern>
  );
});

/** A plain click on a result's link opens it in the app, as a router link would; any other (new tab, window) is the browser's. */
function openInApp(event: MouseEvent, open: (link: HTMLAnchorElement) => void) {
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement)) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  open(link);
}

function NoResults({ query, stateLabel }: { query: SearchQuery; stateLabel: string }) {
  const other = query.by === "name" ? "address" : "name";
  return (
    <div className="empty">
      <p>
        No license in {stateLabel} has {query.by === "name" ? "a business or owner name" : "an address"} containing “
        {query.q}”.
      </p>
      <ul>
        <li>Check the spelling, or use fewer or shorter words (“smith” rather than “smith’s tavern inc”).</li>
        <li>
          <Link to={searchUrl({ ...query, by: other })}>Search by {other} instead</Link>, in case the words belong
          there.
        </li>
        <li>Make sure {stateLabel} is the state that issued the license.</li>
      </ul>
    </div>
  );
}
