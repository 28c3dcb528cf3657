import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.ts";

describe("passwords", () => {
  it("are kept as scrypt at 32 MiB with their own salt, never as given, and only the same password verifies", async () => {
    const [one, two] = await Promise.all([
      hashPassword("correct horse battery"),
      hashPassword("correct horse battery"),
    ]);
    expect(one).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain("horse");
    expect(await verifyPassword("correct horse battery", one)).toBe(true);
    expect(await verifyPassword("correct horse batterY", one)).toBe(false);
    expect(await verifyPassword("correct horse battery", "bcrypt$whatever")).toBe(false);
  });
});
