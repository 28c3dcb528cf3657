import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { Link, Navigate, Outlet, useLocation } from "react-router";
import { AccountMenu } from "../account/account-menu.tsx";
import { signInUrl } from "../account/sign-in-url.ts";
import { accountQueries, isSignedOut } from "../api/account-queries.ts";
import { SET_PASSWORD_PAGE, SIGN_IN_PAGE } from "../contract/accounts.ts";
import { useNavigationPending } from "./browser-router.tsx";
import { PageLoading } from "./page-loading.tsx";
import { RootError } from "./root-error.tsx";

/** The pages a person without a session may open. */
const OPEN_PAGES: readonly string[] = [SIGN_IN_PAGE, SET_PASSWORD_PAGE];

export function Layout() {
  const pending = useNavigationPending();
  const { key, pathname, search, hash } = useLocation();
  const session = useQuery(accountQueries.session());
  // The session ended (or never was) while the app is open: sign in, then back to this very page.
  const signIn = isSignedOut(session.error) && !OPEN_PAGES.includes(pathname);
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
          <AccountMenu session={isSignedOut(session.error) ? undefined : session.data} />
        </div>
        {pending ? <div className="progress" role="progressbar" aria-label="Loading page" /> : null}
      </header>
      <main id="main" className="container" tabIndex={-1}>
        {/* Inside the layout, so an error page keeps the header and its way home; another page clears it. */}
        <ErrorBoundary FallbackComponent={RootError} resetKeys={[key]}>
          <Suspense fallback={<PageLoading />}>
            {signIn ? <Navigate replace to={signInUrl(`${pathname}${search}${hash}`)} /> : <Outlet />}
          </Suspense>
        </ErrorBoundary>
      </main>
      <footer className="site-footer">
        <div className="container">
          Records as published by each state’s licensing authority, through the License Lookup service.
        </div>
      </footer>
      {session.data?.development ? (
        // Fixed to the window's foot: on every page, and moving nothing when it arrives.
        <p className="development-notice" role="note">
          Development sign-in: you are signed in automatically as a local administrator.
        </p>
      ) : null}
    </>
  );
}
