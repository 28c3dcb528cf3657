/** `2026-03-04` as `Mar 4, 2026`: a calendar date, so no time zone may shift it. */
export function formatIsoDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" });
}
