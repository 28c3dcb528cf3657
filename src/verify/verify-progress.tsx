import type { VerifyProgress } from "./verify-list.ts";

/** How far the check is; once it ends, the full bar and its count stay in place of the bar that ran. */
export function VerifyProgressBar({ progress }: { progress: VerifyProgress }) {
  const total = progress.results.length;
  return (
    <div className="verify__progress no-print">
      <progress id="verify-progress" max={total} value={progress.done} aria-label="Rows verified" />
      <p role="status">
        Verified {progress.done.toLocaleString("en-US")} of {total.toLocaleString("en-US")} rows.
        {progress.waiting > 0 ? ` The service asked to wait ${progress.waiting} s; the check goes on by itself.` : ""}
      </p>
      {progress.oneByOne ? (
        <p className="notice notice--info">
          This service answers one license a request, so a long list takes longer here.
        </p>
      ) : null}
    </div>
  );
}
