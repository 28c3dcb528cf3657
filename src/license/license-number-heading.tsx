import { useRef } from "react";
import { useArrivalFocus } from "../shared/use-arrival-focus.ts";

/** The top of a page about a number with no record to show (not found, not covered, a failure): the number as given. */
export function LicenseNumberHeading({ stateLabel, license }: { stateLabel: string; license: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useArrivalFocus(headingRef);
  return (
    <>
      <p className="eyebrow">{stateLabel} liquor license</p>
      <h1 ref={headingRef} tabIndex={-1}>
        License <span className="mono given">{license}</span>
      </h1>
    </>
  );
}
