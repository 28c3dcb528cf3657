import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { NotFoundPage } from "./not-found-page.tsx";

/** The last stop for errors no route explains: a page that was never there, or a fault in the app. */
export function RootError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
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
