import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// scrypt from node:crypto, at one of OWASP's settings for it (N=2^15, r=8, p=3: 32 MiB, about 0.1 s here).
export const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 3 };
export type ScryptCost = typeof SCRYPT_COST;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, { N, r, p }: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Checked against for an email with no password, so an unknown account takes as long to refuse as a wrong password. */
export function noSuchHash({ N, r, p }: ScryptCost = SCRYPT_COST): string {
  return `scrypt$${N}$${r}$${p}$${randomBytes(16).toString("base64")}$${randomBytes(KEY_LENGTH).toString("base64")}`;
}
