import { LOG_ACTIONS, LOGGED_VERDICTS } from "../contract/checks.ts";
import { STATES } from "../contract/states.ts";
import type { ChecksFilter } from "../api/checks-queries.ts";
import { FILTER_KEYS } from "./checks-filter.ts";

interface Props {
  filter: ChecksFilter;
  /** False for a member, who sees only their own checks: no one else to filter by. */
  byPerson: boolean;
  onFilter: (filter: ChecksFilter) => void;
}

/** The filters as a form: sent whole, and kept in the page's address (the form is drawn afresh when it changes). */
export function ChecksFilters({ filter, byPerson, onFilter }: Props) {
  return (
    <form
      className="checks-filters no-print"
      aria-label="Filter the checks"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        onFilter(
          Object.fromEntries(
            FILTER_KEYS.flatMap((key) => {
              const given = form.get(key);
              const value = typeof given === "string" ? given.trim() : "";
              return value ? [[key, value]] : [];
            }),
          ),
        );
      }}
    >
      {byPerson ? (
        <label>
          Person’s email
          <input name="user" type="email" defaultValue={filter.user ?? ""} />
        </label>
      ) : null}
      <label>
        State
        <select name="state" defaultValue={filter.state ?? ""}>
          <option value="">Any</option>
          {STATES.map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        License number
        <input name="license" defaultValue={filter.license ?? ""} />
      </label>
      <label>
        Verdict
        <select name="verdict" defaultValue={filter.verdict ?? ""}>
          <option value="">Any</option>
          {LOGGED_VERDICTS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label>
        What
        <select name="action" defaultValue={filter.action ?? ""}>
          <option value="">Anything</option>
          {LOG_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input name="from" type="date" defaultValue={filter.from ?? ""} />
      </label>
      <label>
        To
        <input name="to" type="date" defaultValue={filter.to ?? ""} />
      </label>
      <p className="checks-filters__actions">
        <button type="submit" className="button button--primary">
          Filter
        </button>
      </p>
    </form>
  );
}
