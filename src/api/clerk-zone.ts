/** The clerk's time zone as their browser says (IANA): a recorded check keeps it, so a receipt tells their own time. */
export function clerkZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // The contract takes at most 64 characters; a browser that says none, or something longer, sends none.
  return zone && zone.length <= 64 ? zone : undefined;
}
