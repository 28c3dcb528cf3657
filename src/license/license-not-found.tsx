import { useRef } from "react";
import { Link } from "react-router";
import { stateName } from "../contract/states.ts";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";

/** The service answered `data: null`: the state is searchable but holds no such number. */
export function LicenseNotFound({ state, license }: { state: string; license: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  const stateLabel = stateName(state) ?? state.toUpperCase();

  return (
    <div className="not-found">
      <title>{`No license ${license} in ${stateLabel} – License Lookup`}</title>
      <p className="eyebrow">{stateLabel} liquor license</p>
      <h1 ref={headingRef} tabIndex={-1}>
        License not found
      </h1>
      <p className="lede">
        {stateLabel} has no license numbered <span className="mono given">{license}</span>.
      </p>
      <p>
        License numbers must match exactly, leading zeros and punctuation included. Check the number against the
        license, or find the business by name or address.
      </p>
      <p>
        <Link className="button button--primary" to={`/?state=${state}`}>
          Search {stateLabel}
        </Link>
      </p>
    </div>
  );
}
