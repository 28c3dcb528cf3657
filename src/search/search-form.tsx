import { useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import type { StateCoverage } from "../contract/envelopes.ts";
import { rememberState } from "./last-state.ts";
import { submitTarget, type FieldError, type SearchFormValues, type SearchMode } from "./search-url.ts";
import { coverageNote, StatePicker } from "./state-picker.tsx";

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
}

export function SearchForm({ initial, coverage }: Props) {
  const navigate = useNavigate();
  const [values, setValues] = useState(initial);
  const [problem, setProblem] = useState<FieldError | null>(null);
  const stateRef = useRef<HTMLSelectElement>(null);
  const termRef = useRef<HTMLInputElement>(null);
  const mode = MODES.find((m) => m.value === values.by)!;
  const change = (patch: Partial<SearchFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setProblem(null);
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const target = submitTarget(values);
    if ("error" in target) {
      setProblem(target);
      (target.field === "state" ? stateRef : termRef).current?.focus();
      return;
    }
    rememberState(values.state);
    void navigate(target.url);
  }

  const note = coverageNote(values.state, coverage);
  return (
    <form className="search-form" role="search" aria-label="License search" noValidate onSubmit={onSubmit}>
      <div className="field field--state">
        <label htmlFor="search-state">State</label>
        <StatePicker
          ref={stateRef}
          value={values.state}
          onChange={(state) => change({ state })}
          coverage={coverage}
          invalid={problem?.field === "state"}
          describedBy="search-state-note"
        />
        <p id="search-state-note" className={problem?.field === "state" ? "field__error" : "field__hint"}>
          {problem?.field === "state" ? problem.error : note}
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
                onChange={() => change({ by: m.value })}
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
            aria-describedby="search-term-note"
          />
          <button type="submit" className="button button--primary">
            {values.by === "license" ? "Open license" : "Search"}
          </button>
        </div>
        <p id="search-term-note" className={problem?.field === "q" ? "field__error" : "field__hint"}>
          {problem?.field === "q" ? problem.error : mode.hint}
        </p>
      </div>
    </form>
  );
}
