import { caAbc } from "./ca-abc/adapter.ts";
import { coLed } from "./co-led/adapter.ts";
import { dcAbra } from "./dc-abra/adapter.ts";
import { maAbcc } from "./ma-abcc/adapter.ts";
import { mdBllc } from "./md-bllc/adapter.ts";
import { njAbc } from "./nj-abc/adapter.ts";
import { nySla } from "./ny-sla/adapter.ts";
import type { SourceAdapter } from "./source-adapter.ts";

/** Every source `npm run import -- --source NAME` knows. */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [nySla, maAbcc, njAbc, caAbc, dcAbra, coLed, mdBllc];

export function findSourceAdapter(name: string): SourceAdapter | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.name === name);
}
