import { Link } from "react-router";
import type { Source } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { newestFirst } from "../contract/record-source.ts";
import { bandWords, type StateAge } from "./data-age.ts";
import { kindWords } from "./data-kind.ts";
import { StateHealth } from "./state-health.tsx";

interface Props {
  /** The covered states, in the order to show them. */
  states: readonly StateAge[];
  searchUrl: (state: string) => string;
  /** Whether to show each state's updates (feed checks, refused files): not when the service says nothing of them. */
  health: boolean;
  /** When the service answered (the reader's clock): how long ago a check was is told from then. */
  now: number;
}

const count = (n: number) => n.toLocaleString("en-US");
const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/**
 * Each covered state: what its data is (where the service says), its records, the age of its newest data, every
 * source behind it, newest first, and, where the service says, how it is kept current.
 */
export function CoverageTable({ states, searchUrl, health, now }: Props) {
  return (
    <table className="coverage-table">
      <thead>
        <tr>
          <th scope="col">State</th>
          <th scope="col">Newest data</th>
          <th scope="col">Records</th>
          <th scope="col">Sources, newest first</th>
          {health ? <th scope="col">Updates</th> : null}
        </tr>
      </thead>
      <tbody>
        {states.map((state) => {
          const sources = newestFirst(state.coverage?.sources ?? []);
          const live = sources.filter((s) => s.records > 0);
          const replaced = sources.filter((s) => s.records === 0);
          return (
            <tr key={state.code} data-age={state.band}>
              <th scope="row">
                <Link to={searchUrl(state.code)}>
                  <span className="visually-hidden">Search</span> {state.name}
                </Link>
                {state.kind ? (
                  <span className="coverage-table__kind">
                    <span className="coverage-swatch" data-kind={state.kind} aria-hidden="true" />
                    {capitalized(kindWords(state.kind))}
                  </span>
                ) : null}
              </th>
              <td data-label="Newest data">
                {state.asOf ? formatIsoDate(state.asOf) : <span className="none">Not given</span>}{" "}
                <span className="coverage-table__age">
                  <span className="coverage-swatch" data-age={state.band} aria-hidden="true" />
                  {state.asOf ? bandWords(state.band) : "age not known"}
                </span>
              </td>
              <td data-label="Records" className="coverage-table__count">
                {count(state.coverage?.records ?? 0)}
              </td>
              <td data-label="Sources">
                <ul className="coverage-sources">
                  {(live.length ? live : replaced).map((s) => (
                    <SourceItem key={s.id} source={s} />
                  ))}
                </ul>
                {live.length && replaced.length ? (
                  <details className="coverage-sources__older">
                    <summary>
                      {replaced.length === 1 ? "1 earlier source" : `${count(replaced.length)} earlier sources`}, none
                      of whose records is served today
                    </summary>
                    <ul className="coverage-sources">
                      {replaced.map((s) => (
                        <SourceItem key={s.id} source={s} />
                      ))}
                    </ul>
                  </details>
                ) : null}
              </td>
              {health && state.coverage ? (
                <td data-label="Updates" className="data-health">
                  <StateHealth coverage={state.coverage} now={now} />
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "New York State Liquor Authority, Active licenses: New York City only. As of January 14, 2016 (stated in the file); 6,651 records." */
function SourceItem({ source }: { source: Source }) {
  return (
    <li>
      <span className="coverage-sources__agency">{source.agency}</span>
      {source.title ? <span className="coverage-sources__title">, {source.title}</span> : null}
      <span className="coverage-sources__covers">{source.coverage}</span>
      <span className="coverage-sources__facts">
        {source.as_of ? `As of ${formatIsoDate(source.as_of)} (${source.as_of_from})` : "Its date is not given"};{" "}
        {source.records === 1 ? "1 record" : `${count(source.records)} records`}.
      </span>
    </li>
  );
}
