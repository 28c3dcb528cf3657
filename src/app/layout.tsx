import { lazy, Suspense, useEffect } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { Link, Outlet, useLocation } from "react-router";
import { afterPaint, markPageShown } from "../shared/after-paint.ts";
import { useNavigationPending } from "./browser-router.tsx";
import { PageLoading } from "./page-loading.tsx";
import { RootError } from "./root-error.tsx";

// Who is signed in, and all the layout shows of it, arrives after the first page, into the room kept for it.
const SessionCorner = lazy(async () => {
  await afterPaint();
  return { default: (await import("../account/account-menu.tsx")).SessionCorner };
});

export function Layout() {
  const pending = useNavigationPending();
  const { key } = useLocation();
  // index.html paints this same frame before the JavaScript arrives (layout.test.tsx holds the two alike).
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <Link className="brand" to="/">
            <span className="brand__mark" aria-hidden="true">
              LL
            </span>
            License Lookup
          </Link>
          <span className="site-header__tagline">State liquor license records</span>
          <nav className="site-header__nav" aria-label="Pages">
            <Link to="/verify">Verify a list</Link>
            <Link to="/watchlist">Watchlist</Link>
            <Link to="/checks">Checks</Link>
            <Link to="/data">Data</Link>
          </nav>
          <Suspense fallback={<div className="site-header__account" />}>
            <SessionCorner />
          </Suspense>
        </div>
        {pending ? <div className="progress" role="progressbar" aria-label="Loading page" /> : null}
      </header>
      <main id="main" className="container" tabIndex={-1}>
        {/* Inside the layout, so an error page keeps the header and its way home; another page clears it. */}
        <ErrorBoundary FallbackComponent={RootError} resetKeys={[key]}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
            <PageShown />
          </Suspense>
        </ErrorBoundary>
      </main>
      <footer className="site-footer">
        <div className="container">
          Records as published by each state’s licensing authority, through the License Lookup service.
        </div>
      </footer>
    </>
  );
}

/** Committed with the page, never before it (the same Suspense boundary): the page is on screen. */
function PageShown() {
  useEffect(markPageShown, []);
  return null;
}
