import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <div className="not-found">
      <title>Page not found – License Lookup</title>
      <h1>Page not found</h1>
      <p className="lede">There is no page at this address. A license link looks like /license/ny/0012345.</p>
      <p>
        <Link className="button button--primary" to="/">
          Go to the search
        </Link>
      </p>
    </div>
  );
}
