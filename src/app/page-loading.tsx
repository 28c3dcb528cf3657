/** Shown while the first page's code and data arrive. */
export function PageLoading() {
  return (
    <p className="page-loading" role="status">
      Loading…
    </p>
  );
}
