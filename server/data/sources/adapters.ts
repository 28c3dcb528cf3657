import { caAbc } from "./ca-abc/adapter.ts";
import { caAbcExport } from "./ca-abc/export-adapter.ts";
import { coLed } from "./co-led/adapter.ts";
import { dcAbra } from "./dc-abra/adapter.ts";
import { kyAbc } from "./ky-abc/adapter.ts";
import { gaDor } from "./ga-dor/adapter.ts";
import { maAbcc } from "./ma-abcc/adapter.ts";
import { miMlcc } from "./mi-mlcc/adapter.ts";
import { mdBllc } from "./md-bllc/adapter.ts";
import { njAbc } from "./nj-abc/adapter.ts";
import { nySla } from "./ny-sla/adapter.ts";
import { paPlcb } from "./pa-plcb/adapter.ts";
import type { SourceAdapter } from "./source-adapter.ts";
import { txCpa } from "./tx-cpa/adapter.ts";
import { waWslcb } from "./wa-wslcb/adapter.ts";

/** Every source `npm run import -- --source NAME` knows. */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [
  nySla,
  maAbcc,
  njAbc,
  caAbc,
  caAbcExport,
  dcAbra,
  gaDor,
  kyAbc,
  miMlcc,
  paPlcb,
  waWslcb,
  txCpa,
  coLed,
  mdBllc,
];

export function findSourceAdapter(name: string): SourceAdapter | undefined {
  return SOURCE_ADAPTERS.find((adapter) => adapter.name === name);
}
