import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  memo,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type MouseEvent,
  type Ref,
} from "react";
import { flushSync } from "react-dom";
import { Link, useLocation, useNavigate } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import type { SearchQuery } from "../contract/search-query.ts";
import { isStateCode, stateName } from "../contract/states.ts";
import { NearNumberOffer } from "../shared/near-number-offer.tsx";
import { matchesNumberFormat, nearNumbers } from "../contract/near-numbers.ts";
import { rememberState } from "./last-state.ts";
import {
  looksLikeLicenseNumber,
  submitTarget,
  typedSearch,
  type FieldError,
  type SearchFormValues,
  type SearchMode,
  type SubmitTarget,
} from "./search-url.ts";
import { coverageNote, ServiceUnreachable, StatePicker, type CoverageFailure } from "./state-picker.tsx";

const MODES: { value: SearchMode; label: string; field: string; hint: string }[] = [
  { value: "name", label: "Name", field: "Business or owner name", hint: "Part of a name works: “tavern”, “smith”." },
  {
    value: "address",
    label: "Address",
    field: "Street address",
    hint: "Street line only, such as “12 main st”; no city or ZIP.",
  },
  {
    value: "license",
    label: "License number",
    field: "License number",
    hint: "Exactly as issued, leading zeros included. Opens the license.",
  },
];

interface Props {
  initial: SearchFormValues;
  coverage: readonly StateCoverage[] | null | undefined;
  /** The list of states could not be fetched: said under the picker, which then marks no state. */
  coverageFailure: CoverageFailure | null;
  /** The page's history entry holds a search: opening a license then keeps it, behind the form with the number. */
  holdsSearch: boolean;
  onModeChange: (by: SearchMode) => void;
  /** The search typed is to be shown (null: the form without results), before the URL follows it. */
  onTyped: (query: SearchQuery | null) => void;
  /** Marks the URLs this form writes while typing, so the page keeps the form (and its cursor) through them. */
  formId: number;
  /** What the page may ask of the form: `leave()` before it opens a result. */
  handle?: Ref<SearchFormHandle>;
}

export interface SearchFormHandle {
  /**
   * A result is being opened: the search typed goes into the history now, if its URL was still to be
   * written, so that Back comes to it; nothing typed is written later, over the page opened.
   */
  leave(): Promise<void>;
}

/** A pause this long in typing keeps the search in the history: the next keystroke starts a new entry. */
const PAUSE_MS = 1000;
/** A keystroke's results show once its answer is in, or after this long, the last answer kept and marked as waiting. */
const SHOW_WAITING_MS = 150;
/**
 * The URL follows what is typed once typing stops this long, not at every keystroke: each change of URL cost
 * Chromium about 20 ms of CPU (the history entry, the tab's icon fetched again), more than the search itself.
 */
const URL_FOLLOWS_MS = 300;

/** Kept as it is while the page shows what is typed: its props stay the same until the URL changes. */
export const SearchForm = memo(function SearchForm({
  initial,
  coverage,
  coverageFailure,
  holdsSearch,
  onModeChange,
  onTyped,
  formId,
  handle,
}: Props) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState<FieldError | null>(null);
  const stateRef = useRef<HTMLSelectElement>(null);
  const termRef = useRef<HTMLInputElement>(null);
  // A mode chosen by pointer sends the cursor to the box; arrow keys stay in the group, or the next mode is out of reach.
  const pointing = useRef(false);
  // The entry was written by typing and no pause or Enter has kept it yet: the next keystroke replaces it.
  const draft = useRef(false);
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Each keystroke's turn: a show or URL write of an earlier one, still to come, is dropped.
  const turn = useRef(0);
  const urlWrite = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The URL write urlWrite waits to make, if one is due.
  const writeUrl = useRef<(() => Promise<void>) | undefined>(undefined);
  const hereNow = useRef(here);
  useEffect(() => {
    hereNow.current = here;
  });
  /** Nothing typed is still to show or to write: Enter, a license opened, or the form gone. */
  const settle = () => {
    turn.current += 1;
    clearTimeout(urlWrite.current);
    writeUrl.current = undefined;
    clearTimeout(pause.current);
  };
  useEffect(() => settle, []);
  useImperativeHandle(handle, () => ({
    async leave() {
      const write = writeUrl.current;
      settle();
      await write?.();
    },
  }));
  const mode = MODES.find((m) => m.value === values.by)!;
  const decoding = useQuery({ ...licenseQueries.decoding(values.state), enabled: isStateCode(values.state) });
  const offer = licenseOffer(values, decoding.data?.number?.format ?? null);
  const change = (patch: Partial<SearchFormValues>) => {
    const next = { ...values, ...patch };
    setValues(next);
    setProblem(null);
    if ("q" in patch || "state" in patch) follow(next);
  };

  /**
   * Results as the clerk types, asked at the keystroke and shown once answered; the URL follows once typing
   * stops, one history entry per search the clerk paused on or entered.
   */
  function follow(next: SearchFormValues) {
    const typed = typedSearch(next);
    if (typed === null) return;
    const mine = ++turn.current;
    let shown = false;
    const show = () => {
      if (shown || mine !== turn.current) return;
      shown = true;
      // Drawn in the task that brought the answer: a scheduled render could miss the frame already on its way.
      flushSync(() => onTyped(typed.query));
    };
    if (typed.query) {
      const waiting = setTimeout(show, SHOW_WAITING_MS);
      void queryClient.prefetchQuery(licenseQueries.search(typed.query)).then(() => {
        clearTimeout(waiting);
        show();
      });
    } else show();
    clearTimeout(urlWrite.current);
    const write = async () => {
      writeUrl.current = undefined;
      if (typed.url === hereNow.current) return;
      const replace = draft.current;
      draft.current = true;
      await navigate(typed.url, { replace, state: { typedBy: formId } });
    };
    writeUrl.current = write;
    urlWrite.current = setTimeout(() => void write(), URL_FOLLOWS_MS);
    clearTimeout(pause.current);
    pause.current = setTimeout(() => {
      draft.current = false;
    }, PAUSE_MS);
  }

  function chooseMode(by: SearchMode) {
    change({ by });
    onModeChange(by);
    if (pointing.current) {
      termRef.current?.focus();
      termRef.current?.select();
    }
    pointing.current = false;
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const target = submitTarget(values);
    if ("error" in target) {
      setProblem(target);
      (target.field === "state" ? stateRef : termRef).current?.focus();
      return;
    }
    settle();
    rememberState(values.state);
    // The search typed is on screen, or on its way: Enter keeps it in the history, and takes the clerk to the results.
    if (!target.formUrl) void navigate(target.url, { replace: draft.current || target.url === here });
    else void go(target);
    draft.current = false;
  }

  async function go({ url, formUrl }: SubmitTarget) {
    settle();
    rememberState(values.state);
    // Back from the license comes to the form with its number; a blank form is replaced, a search stays in the history.
    if (formUrl) await navigate(formUrl, { replace: !holdsSearch || draft.current });
    await navigate(url);
  }

  function openOffer(event: MouseEvent, target: SubmitTarget) {
    // A new tab or window opens the link itself.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void go(target);
  }

  const note = useMemo(() => coverageNote(values.state, coverage), [values.state, coverage]);
  const stateProblem = problem?.field === "state";
  return (
    <form className="search-form" role="search" aria-label="License search" noValidate onSubmit={onSubmit}>
      <div className="field field--state">
        <label htmlFor="search-state">State</label>
        <StatePicker
          ref={stateRef}
          value={values.state}
          onChange={(state) => change({ state })}
          coverage={coverage}
          invalid={stateProblem}
          describedBy="search-state-note"
        />
        {coverageFailure && !stateProblem ? (
          <ServiceUnreachable id="search-state-note" failure={coverageFailure} />
        ) : (
          <p
            id="search-state-note"
            className={stateProblem ? "field__error" : "field__hint"}
            title={stateProblem ? undefined : note || undefined}
          >
            {stateProblem ? problem.error : note}
          </p>
        )}
        <p className="field__more">
          <Link to="/data">Every state’s data, and how old it is</Link>
        </p>
      </div>

      <fieldset className="field field--mode">
        <legend>Search by</legend>
        <div className="segmented">
          {MODES.map((m) => (
            <label key={m.value} className="segmented__option">
              <input
                type="radio"
                name="by"
                value={m.value}
                checked={values.by === m.value}
                onPointerDown={() => {
                  pointing.current = true;
                }}
                onKeyDown={() => {
                  pointing.current = false;
                }}
                onChange={() => chooseMode(m.value)}
              />
              <span>{m.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="field field--term">
        <label htmlFor="search-term">{mode.field}</label>
        <div className="search-form__row">
          <input
            ref={termRef}
            id="search-term"
            name="q"
            type="search"
            className="input"
            autoComplete="off"
            spellCheck={false}
            value={values.q}
            onChange={(e) => change({ q: e.target.value })}
            aria-invalid={problem?.field === "q" || undefined}
            aria-describedby={offer ? "search-term-note search-term-offer" : "search-term-note"}
          />
          <button type="submit" className="button button--primary">
            {values.by === "license" ? "Open license" : "Search"}
          </button>
        </div>
        <p id="search-term-note" className={problem?.field === "q" ? "field__error" : "field__hint"}>
          {problem?.field === "q" ? problem.error : mode.hint}
        </p>
        {offer ? (
          <p id="search-term-offer" className="field__offer">
            Looks like a license number.{" "}
            <Link to={offer.url} onClick={(event) => openOffer(event, offer)}>
              Look up license number {values.q.trim()} in {stateName(values.state)}
            </Link>
          </p>
        ) : null}
        {values.by === "license" && isStateCode(values.state) && values.q.trim() ? (
          <NearNumberOffer state={values.state} number={values.q} />
        ) : null}
      </div>
    </form>
  );
});

/** A name or address term shaped like a license number (or like the state's), in a chosen state: where it would open as one. */
function licenseOffer(values: SearchFormValues, format: string | null): SubmitTarget | null {
  if (values.by === "license") return null;
  const { q } = values;
  if (!looksLikeLicenseNumber(q) && !matchesNumberFormat(q, format) && nearNumbers(q, format).length === 0) return null;
  const target = submitTarget({ ...values, by: "license" });
  return "url" in target ? target : null;
}
