import { useEffect, useEffectEvent, useState, type ReactNode } from "react";
import { ApiError } from "../api/api-error.ts";
import { adviseOnError } from "./error-advice.ts";

interface Props {
  error: unknown;
  /** The state's name, for messages about coverage. */
  stateLabel: string;
  onRetry?: () => void;
  /** A way forward that depends on the page, such as a link to a new search. */
  children?: ReactNode;
}

export function ApiErrorNotice({ error, stateLabel, onRetry, children }: Props) {
  const advice = adviseOnError(error, stateLabel);
  // What a report needs: when it happened, and the service's id for the request when it gave one.
  const [at] = useState(() => new Date());
  const requestId = error instanceof ApiError ? error.details.requestId : undefined;
  useEffect(() => {
    // With the request id, the service's log tells the rest.
    if (advice.report) console.error("License Lookup:", error, error instanceof ApiError ? error.details : "");
  }, [advice.report, error]);
  // The wait starts with each new error, not with each render.
  const retry = useEffectEvent(() => onRetry?.());
  useEffect(() => {
    if (!advice.retryIn) return;
    // At most an hour: a larger delay would overflow the timer and fire at once.
    const timer = setTimeout(retry, Math.min(advice.retryIn, 3600) * 1000);
    return () => clearTimeout(timer);
  }, [advice.retryIn, error]);

  return (
    <div className="notice notice--error" role="alert">
      <h2 className="notice__title">{advice.title}</h2>
      <p>{advice.body}</p>
      {advice.report || (error instanceof ApiError && error.kind === "network") ? (
        <p className="notice__reference">
          At {at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "long" })}
          {requestId ? `; request id ${requestId}` : ""}.
        </p>
      ) : null}
      {(advice.retry && onRetry) || children ? (
        <p className="notice__actions">
          {advice.retry && onRetry ? (
            <button type="button" className="button" onClick={onRetry}>
              Try again
            </button>
          ) : null}
          {children}
        </p>
      ) : null}
    </div>
  );
}
