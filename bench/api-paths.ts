import type { Db } from "../server/store/open-database.ts";
import { liveRowsTable } from "./naive-search.ts";
import type { MixQuery } from "./query-mix.ts";

export function searchPath(state: string, { by, q }: Pick<MixQuery, "by" | "q">): string {
  return `/v2/search?${new URLSearchParams({ state, [by]: q })}`;
}

export function licensePath(state: string, license: string): string {
  return `/v2/license/${state}/${encodeURIComponent(license)}`;
}

/** Every 1000th license of the state: spread over the whole table, the same on every build. */
export function licensePaths(db: Db, state: string): string[] {
  const licenses = db
    .prepare(`SELECT license FROM ${liveRowsTable(db, state)} WHERE id % 1000 = 1 ORDER BY id`)
    .pluck()
    .all();
  return (licenses as string[]).map((license) => licensePath(state, license));
}
