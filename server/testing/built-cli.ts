import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where this run's bundle of server/cli/*.ts is: `cliCommand` names a program of it. */
    cliDir: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The programs the tests run as a person would (`npm run NAME`). */
const PROGRAMS = ["api", "checks", "import", "keys", "migrate", "sync", "users"] as const;
export type Program = (typeof PROGRAMS)[number];

/**
 * The server tests' global set-up: each program bundled from this run's source once, as `npm run build:server`
 * bundles the service (esbuild, the packages left to node_modules). A test starts it in about 0.6 s where
 * `node --import tsx` took 1.5 s, compiling the same source on every start; the tests start about a hundred.
 */
export default async function setup(project: TestProject) {
  // Inside node_modules, so the bundle finds the packages it leaves out; one folder a run, so runs never share one.
  const dir = join(ROOT, "node_modules/.cache/license-lookup-cli", String(process.pid));
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: PROGRAMS.map((name) => join(ROOT, "server/cli", `${name}.ts`)),
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    target: "node20.19",
    outdir: dir,
    logLevel: "warning",
  });
  project.provide("cliDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The arguments to `process.execPath` that run `npm run NAME`, from this run's source bundled: its own follow. */
export function cliCommand(name: Program): string[] {
  return [join(inject("cliDir"), `${name}.js`)];
}
