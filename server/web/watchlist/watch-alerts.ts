import { randomUUID } from "node:crypto";
import { licenseDates, type License } from "../../../src/contract/license.ts";
import {
  NO_LONGER_LISTED,
  type WatchChange,
  type WatchEntry,
  type WatchWebhook,
} from "../../../src/contract/watchlist.ts";
import type { DeliveryKind } from "./watch-store.ts";

/** What goes into the outbox: the exact bytes a webhook posts, or an email's parts. */
export interface Alert {
  key: string;
  kind: DeliveryKind;
  subject: string;
  payload: string;
}

export interface EmailPayload {
  subject: string;
  text: string;
  html: string;
}

export interface AlertChannels {
  webhook: boolean;
  email: boolean;
}

type Change = Omit<WatchChange, "seen">;

/** A license's page in the team's app. */
export function licenseLink(appUrl: string, state: string, license: string): string {
  return `${appUrl.replace(/\/+$/, "")}/license/${encodeURIComponent(state)}/${encodeURIComponent(license)}`;
}

const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/** `2026-03-31` -> "March 31, 2026" */
export function longDate(iso: string): string {
  return DATE.format(new Date(`${iso}T00:00:00Z`));
}

/** One change in the words a clerk reads: "Expiry moved from March 31, 2026 to March 31, 2028". */
export function changeWords({ field, from, to }: Pick<Change, "field" | "from" | "to">): string {
  const quoted = (value: string | null, none: string) => (value === null ? none : `“${value}”`);
  switch (field) {
    case "listing":
      return to === NO_LONGER_LISTED
        ? "No longer listed: the license service no longer returns this license"
        : "Listed again: the license service returns this license again";
    case "expires":
      return `Expiry moved from ${from ? longDate(from) : "no date"} to ${to ? longDate(to) : "no date"}`;
    case "status":
      return `Status changed from ${quoted(from, "none")} to ${quoted(to, "none")}`;
    case "business":
      return `Business name changed from ${quoted(from, "none")} to ${quoted(to, "none")}`;
    case "owner":
      return `Owner changed from ${quoted(from, "none")} to ${quoted(to, "none")}`;
    case "address":
      return `Address changed from ${quoted(from, "none")} to ${quoted(to, "none")}`;
  }
}

/** "NY 0012345 · ACME TAVERN" */
function licenseTitle(state: string, license: string, record: License | null | undefined): string {
  const name = record ? record.business || record.owner : "";
  return `${state.toUpperCase()} ${license}${name ? ` · ${name}` : ""}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One webhook and one email digest for the changes a check found, on the channels configured. */
export function changeAlerts(
  checkId: number,
  changes: readonly Change[],
  records: ReadonlyMap<string, License | null>,
  channels: AlertChannels,
): Alert[] {
  if (changes.length === 0) return [];
  const alerts: Alert[] = [];
  const count = `${changes.length} change${changes.length === 1 ? "" : "s"}`;
  if (channels.webhook) {
    const body: WatchWebhook = {
      delivery_id: randomUUID(),
      event: "watchlist.changes",
      check_id: checkId,
      changes: changes.map(({ state, license, field, from, to, detected_at, link }) => ({
        state,
        license,
        field,
        from,
        to,
        detected_at,
        link,
      })),
    };
    alerts.push({ key: `check:${checkId}:webhook`, kind: "webhook", subject: count, payload: JSON.stringify(body) });
  }
  if (channels.email) {
    const byLicense = new Map<string, Change[]>();
    for (const change of changes) {
      const key = `${change.state}/${change.license}`;
      byLicense.set(key, [...(byLicense.get(key) ?? []), change]);
    }
    const groups = [...byLicense.values()].map((list) => {
      const { state, license, link } = list[0]!;
      return { title: licenseTitle(state, license, records.get(`${state}/${license}`)), link, list };
    });
    const names = groups.map((g) => g.title.split(" · ")[0]).join(", ");
    const subject = `License Lookup: ${count} to watched licenses (${names.length > 80 ? `${names.slice(0, 77)}...` : names})`;
    const text = [
      `A check of the team's watchlist found ${count}:`,
      "",
      ...groups.flatMap((g) => [g.title, ...g.list.map((c) => `  - ${changeWords(c)}`), `  ${g.link}`, ""]),
    ].join("\n");
    const html = [
      `<p>A check of the team's watchlist found ${count}:</p>`,
      ...groups.map(
        (g) =>
          `<h3><a href="${escapeHtml(g.link)}">${escapeHtml(g.title)}</a></h3><ul>${g.list
            .map((c) => `<li>${escapeHtml(changeWords(c))}</li>`)
            .join("")}</ul>`,
      ),
    ].join("\n");
    alerts.push({
      key: `check:${checkId}:email`,
      kind: "email",
      subject: count,
      payload: JSON.stringify({ subject, text, html } satisfies EmailPayload),
    });
  }
  return alerts;
}

/** `2026-11-22` plus `days` days. */
export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The outbox key of a day's expiring digest: one a day. */
export function expiringKey(today: string): string {
  return `expiring:${today}:email`;
}

/** The record of checks' size and newest hash. */
export interface ChainHead {
  entries: number;
  hash: string;
}

/**
 * The day's "expiring within 30 days" email, once a day, when any watched license expires that soon, or
 * when there is a record of checks: its newest hash goes out every day, so a record rewritten whole
 * no longer ends in the hash a mailbox outside the server holds.
 */
export function expiringDigest(
  entries: readonly WatchEntry[],
  today: string,
  appUrl: string,
  chain: ChainHead | null = null,
): Alert | null {
  const until = addDays(today, 30);
  const expiring = entries
    .filter((e) => e.outcome === "found" && e.record)
    .map((e) => ({ entry: e, expires: licenseDates(e.record!).expires }))
    .filter(
      (e): e is { entry: WatchEntry; expires: string } =>
        e.expires !== null && e.expires >= today && e.expires <= until,
    )
    .sort((a, b) => a.expires.localeCompare(b.expires) || a.entry.license.localeCompare(b.entry.license));
  const held = chain && chain.entries > 0 ? chain : null;
  if (expiring.length === 0 && !held) return null;
  const count = `${expiring.length} watched license${expiring.length === 1 ? "" : "s"}`;
  const subject =
    expiring.length === 0
      ? "License Lookup: no watched license expires within 30 days"
      : `License Lookup: ${count} expire${expiring.length === 1 ? "s" : ""} within 30 days`;
  const lines = expiring.map(({ entry, expires }) => ({
    text: `${longDate(expires)} · ${licenseTitle(entry.state, entry.license, entry.record)}`,
    link: licenseLink(appUrl, entry.state, entry.license),
  }));
  const lead =
    expiring.length === 0
      ? `As of ${longDate(today)}, no license on the team's watchlist expires by ${longDate(until)}.`
      : `As of ${longDate(today)}, ${count} on the team's watchlist expire${expiring.length === 1 ? "s" : ""} by ${longDate(until)}:`;
  const record = held && `Record of checks: ${held.entries.toLocaleString("en-US")} entries, newest hash ${held.hash}`;
  const text = [lead, "", ...lines.flatMap((l) => [l.text, `  ${l.link}`]), "", ...(record ? [record, ""] : [])].join(
    "\n",
  );
  const html = [
    `<p>${lead}</p>`,
    ...(lines.length
      ? [`<ul>${lines.map((l) => `<li><a href="${escapeHtml(l.link)}">${escapeHtml(l.text)}</a></li>`).join("")}</ul>`]
      : []),
    ...(record ? [`<p>${escapeHtml(record)}</p>`] : []),
  ].join("\n");
  return {
    key: expiringKey(today),
    kind: "email",
    subject: "expiring within 30 days",
    payload: JSON.stringify({ subject, text, html } satisfies EmailPayload),
  };
}
