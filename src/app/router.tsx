import { lazy } from "react";
import { Route, Routes } from "react-router";
import { Layout } from "./layout.tsx";
import { NotFoundPage } from "./not-found-page.tsx";

// Each page's code arrives when it is first opened.
const SearchPage = lazy(async () => ({ default: (await import("../search/search-page.tsx")).SearchPage }));
const LicenseRoute = lazy(async () => ({ default: (await import("../license/license-route.tsx")).LicenseRoute }));
const VerifyPage = lazy(async () => ({ default: (await import("../verify/verify-page.tsx")).VerifyPage }));
const WatchlistPage = lazy(async () => ({
  default: (await import("../watchlist/watchlist-page.tsx")).WatchlistPage,
}));
const DataPage = lazy(async () => ({ default: (await import("../coverage/data-page.tsx")).DataPage }));
const SignInPage = lazy(async () => ({ default: (await import("../account/sign-in-page.tsx")).SignInPage }));
const SetPasswordPage = lazy(async () => ({
  default: (await import("../account/set-password-page.tsx")).SetPasswordPage,
}));
const UsersPage = lazy(async () => ({ default: (await import("../account/users-page.tsx")).UsersPage }));
const ChecksPage = lazy(async () => ({ default: (await import("../checks/checks-page.tsx")).ChecksPage }));
const ReceiptPage = lazy(async () => ({ default: (await import("../checks/receipt-page.tsx")).ReceiptPage }));

/** The app's pages, inside the layout (whose boundaries show loading and faults with the header kept). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<SearchPage />} />
        <Route path="license/:state/:license" element={<LicenseRoute />} />
        <Route path="verify" element={<VerifyPage />} />
        <Route path="watchlist" element={<WatchlistPage />} />
        <Route path="data" element={<DataPage />} />
        <Route path="checks" element={<ChecksPage />} />
        <Route path="checks/:id" element={<ReceiptPage />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="set-password" element={<SetPasswordPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
