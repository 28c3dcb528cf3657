import type { FallbackProps } from "react-error-boundary";
import { Link } from "react-router";

/** The last stop for errors no page explains: a fault in the app, or its code failing to arrive. */
export function RootError({ error }: FallbackProps) {
  console.error("License Lookup:", error);
  return (
    <div className="not-found">
      <title>Something went wrong – License Lookup</title>
      <h1>Something went wrong</h1>
      <p className="lede">The page hit an unexpected problem. Reloading usually helps.</p>
      <p className="notice__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link className="button button--quiet" to="/">
          Go to the search
        </Link>
      </p>
    </div>
  );
}
