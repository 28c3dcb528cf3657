import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { BACKENDS, freshStateDb } from "../testing/state-backends.ts";
import { idType, migrateStateDb, type StateDb } from "./state-db.ts";

describe.each(BACKENDS)("the state database on %s", (backend) => {
  let state: StateDb | null = null;
  afterEach(async () => {
    await state?.close();
    state = null;
  });

  it("runs each migration once, and numbers rows itself", async () => {
    state = await freshStateDb(backend);
    const set = {
      "2026-11-26-notes": (b: typeof backend) => ({
        up: async (db: StateDb["db"]) => {
          await db.schema
            .createTable("notes")
            .ifNotExists()
            .addColumn("id", idType(b), (c) => c.primaryKey())
            .addColumn("text", "text", (c) => c.notNull())
            .execute();
        },
      }),
    };
    expect(await migrateStateDb(state, "test", set)).toEqual(["2026-11-26-notes"]);
    expect(await migrateStateDb(state, "test", set)).toEqual([]);
    const first = await state.db.insertInto("notes").values({ text: "a" }).returning("id").executeTakeFirstOrThrow();
    const second = await state.db.insertInto("notes").values({ text: "b" }).returning("id").executeTakeFirstOrThrow();
    expect([first.id, second.id]).toEqual([1, 2]);
    const { n } = await state.db
      .selectFrom("notes")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(2);
  });

  it("names the migration that failed", async () => {
    state = await freshStateDb(backend);
    const broken = {
      "2026-11-26-broken": () => ({ up: async (db: StateDb["db"]) => void (await sql`SELEC 1`.execute(db)) }),
    };
    await expect(migrateStateDb(state, "test", broken)).rejects.toThrow(/migration 2026-11-26-broken/);
  });
});
