/** `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, the shape the contract gives `updated_at`. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-22T02:33:02.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/** `YYYY-MM-DD` of a moment, in UTC. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
