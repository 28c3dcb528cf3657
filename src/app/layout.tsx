import { Link, Outlet, ScrollRestoration, useNavigation } from "react-router";

export function Layout() {
  const navigation = useNavigation();
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
        </div>
        {navigation.state === "loading" ? (
          <div className="progress" role="progressbar" aria-label="Loading page" />
        ) : null}
      </header>
      <main id="main" className="container" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="container">
          Records as published by each state’s licensing authority, through the License Lookup service.
        </div>
      </footer>
      <ScrollRestoration />
    </>
  );
}
