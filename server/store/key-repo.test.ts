import { describe, expect, it } from "vitest";
import { createKeyRepo } from "./key-repo.ts";
import { openDatabase } from "./open-database.ts";

describe("key repository", () => {
  const db = openDatabase(":memory:");
  const keys = createKeyRepo(db);

  it("stores only a hash of the key", () => {
    const { key } = keys.create(["ny"], "ops");
    const stored = JSON.stringify(db.prepare(`SELECT * FROM api_keys`).all());
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(3));
  });

  it("knows a key's scope", () => {
    const caller = keys.verify(keys.create(["ny", "ma"]).key)!;
    expect(["ny", "ma", "nj"].map((s) => caller.covers(s))).toEqual([true, true, false]);
    expect(keys.verify(keys.create(["*"]).key)!.covers("wy")).toBe(true);
  });

  it("refuses a revoked key, and lists when it was revoked", () => {
    const { id, key } = keys.create(["ny"]);
    expect(keys.revoke(id)).toBe(true);
    expect(keys.verify(key)).toBeNull();
    expect(keys.revoke(id)).toBe(false);
    expect(keys.list().find((k) => k.id === id)?.revoked_at).toMatch(/^\d{4}-/);
  });

  it("refuses keys that are malformed or unknown", () => {
    const { key } = keys.create(["ny"]);
    expect(keys.verify(key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toBeNull();
    expect(keys.verify("")).toBeNull();
    expect(keys.verify(`${key} `)).toBeNull();
  });
});
