import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { StateCoverage } from "../../../src/contract/envelopes.ts";
import { sharedData } from "../../testing/adapter-test-helpers.ts";
import type { LicenseRecord } from "../../store/license-record.ts";
import {
  caDailyExportZip,
  csvHead,
  dcLayerFeatures,
  maRetailXls,
  nyCurrentCsv,
  realFile,
  realRecords,
} from "../../testing/agency-files.ts";
import {
  httpDate,
  massGovLanding,
  pathOf,
  njReportsPage,
  startAgencyReplay,
  withPageSize,
  type AgencyReplay,
} from "../../testing/agency-replay.ts";
import type { Fault } from "../../testing/replay-server.ts";
import { tempService } from "../../testing/temp-service.ts";
import { migrateStateDb, openStateDb } from "../../db/state-db.ts";
import { createWatchlist } from "../../web/watchlist/watchlist.ts";
import { WATCH_MIGRATIONS } from "../../web/watchlist/watch-store.ts";
import type { FileSource, LinkedFileSource, SocrataSource } from "./feed-definition.ts";
import { FEEDS } from "./feeds.ts";
import { formatFeedReport, syncFeeds, type FeedReport, type SyncOptions } from "./run-sync.ts";
import { socrataUrls } from "./socrata-fetch.ts";

// Small pages, so that paging is exercised on small data sets; small time limits, so that faults end fast.
const feeds = FEEDS.map((f) => withPageSize(f, f.source.kind === "arcgis" ? 500 : 2500));
const feed = (name: string) => feeds.find((f) => f.feed === name)!;
const FAST: SyncOptions["client"] = { idleTimeoutMs: 300, totalTimeoutMs: 5000, attempts: 2, backoffMs: 10 };

const ny = feed("ny-sla/active-licenses");
const nyPages = socrataUrls(ny.source as SocrataSource);
const nj = feed("nj-abc/retail-license-report").source as LinkedFileSource;
const ma = feed("ma-abcc/active-retail-licenses").source as FileSource;
const ca = feed("ca-abc/daily-export").source as FileSource;
const NJ_APRIL = "https://www.njoag.gov/wp-content/uploads/2026/04/RETAIL-LICENSE-REPORT-APRIL-2026.xlsx";
const NJ_MAY = "https://www.njoag.gov/wp-content/uploads/2026/05/RETAIL-LICENSE-REPORT-MAY-2026.xlsx";
const NY_UPDATED = 1_763_500_000; // 2025-11-18
const DC_EDITED = Date.parse("2026-05-14T12:00:00Z");

let fixtures: {
  nyRecords: LicenseRecord[];
  nyCsv: string;
  /** The first 3,000 of them (two pages): enough to show a fault, in half the time of all 6,657. */
  nySmall: LicenseRecord[];
  nySmallCsv: string;
  maXls: Buffer;
  caRecords: LicenseRecord[];
  caZip: Buffer;
  dcRecords: LicenseRecord[];
  coCsv: string;
  njXlsx: Buffer;
};

beforeAll(async () => {
  // Our real records in each live layout; the real NJ report and Colorado list as they are. MA's .xls is written
  // from 1,000 of its rows (SheetJS takes a second and more a thousand rows to write one), CA's zip from 2,000 licenses.
  const nyRecords = await realRecords("ny-sla", "ny/nyc_bars.csv");
  const caRecords = await realRecords(
    "ca-abc",
    "ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz",
    2000,
  );
  fixtures = {
    nyRecords,
    nyCsv: nyCurrentCsv(nyRecords),
    nySmall: nyRecords.slice(0, 3000),
    nySmallCsv: nyCurrentCsv(nyRecords.slice(0, 3000)),
    maXls: await maRetailXls(csvHead(readFileSync(sharedData("ma/ma_license_list.csv"), "utf8"), 1000)),
    caRecords,
    caZip: caDailyExportZip(caRecords),
    dcRecords: await realRecords("dc-abra", "dc/DistrictABCLicenseeList842016.xls"),
    coCsv: readFileSync(sharedData("co/Recently_Approved_Liquor_Licenses_in_Colorado.csv"), "utf8"),
    njXlsx: realFile("nj/nj_retail_licensees_april2026.xlsx"),
  };
}, 60_000);

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Every feed as the agencies publish it on a day: what a first sync loads. */
function publishAll(replay: AgencyReplay) {
  replay.publishSocrata(ny.source as SocrataSource, fixtures.nyCsv, NY_UPDATED);
  replay.publishPage(nj.page, njReportsPage([{ url: NJ_APRIL, label: "Retail License Report April 2026" }]));
  replay.publishFile(NJ_APRIL, { body: fixtures.njXlsx, contentType: XLSX });
  replay.publishPage(ma.datedBy!.url, massGovLanding("ABCC Active Retail Licenses", "April 20, 2026"));
  replay.publishFile(ma.url, { body: fixtures.maXls, contentType: "application/vnd.ms-excel" });
  publishCa(replay, fixtures.caZip, '"ca-1"');
  const dc = feed("dc-abra/license-locations").source;
  if (dc.kind === "arcgis") replay.publishArcgis(dc, dcLayerFeatures(fixtures.dcRecords, DC_EDITED), DC_EDITED);
  replay.publishSocrata(feed("co-led/recently-approved").source as SocrataSource, fixtures.coCsv, 1_762_000_000);
}

function publishCa(replay: AgencyReplay, zip: Buffer, etag: string) {
  replay.publishFile(ca.url, {
    body: zip,
    contentType: "application/zip",
    etag,
    lastModified: httpDate(Date.parse("2026-11-26T11:00:00Z")),
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A replay of the agencies, a service over a fresh database, and a sync between them whose lines are kept. */
async function setup() {
  const replay = await startAgencyReplay();
  publishAll(replay);
  const service = await tempService({});
  const { headers } = await service.keyFor(["ny", "nj", "ma", "ca", "dc", "co"]);
  cleanups.push(async () => {
    await replay.close();
    await service.close();
  });
  const archive = join(dirname(service.file), "archive");
  const lines: string[] = [];
  const sync = (states?: string[], options: Partial<SyncOptions> = {}) =>
    syncFeeds(service.db, {
      archive,
      origin: replay.origin,
      feeds,
      states,
      client: FAST,
      onFeed: (r) => lines.push(formatFeedReport(r)),
      ...options,
    });
  const states = async (): Promise<StateCoverage[]> =>
    (await service.app.inject({ url: "/v2/states", headers })).json<{ data: StateCoverage[] }>().data;
  const stateOf = async (state: string) => (await states()).find((s) => s.state === state)!;
  const served = (state: string, license: string) => service.licenses.get(state, license);
  return { replay, service, sync, lines, states, stateOf, served, archive };
}

const outcomes = (reports: FeedReport[]) => Object.fromEntries(reports.map((r) => [r.feed, r.outcome]));

describe("a sync against the agencies' replay", { timeout: 60_000 }, () => {
  it("loads every feed the first time; the second time asks only whether each changed, and changes nothing", async () => {
    const { replay, sync, lines, states, served } = await setup();
    const first = await sync();
    expect(outcomes(first)).toEqual({
      "ny-sla/active-licenses": "changed",
      "nj-abc/retail-license-report": "changed",
      "ma-abcc/active-retail-licenses": "changed",
      "ca-abc/daily-export": "changed",
      "dc-abra/license-locations": "changed",
      "co-led/recently-approved": "changed",
    });
    expect(lines[0]).toMatch(
      /^NY ny-sla\/active-licenses: updated: its rows were updated 2025-11-18 \d\d:\d\d UTC: 9s3h-dpkz\.csv loaded, 6,657 licenses served as of 2025-11-18$/,
    );
    const records = Object.fromEntries((await states()).map((s) => [s.state, s.records]));
    expect(records).toEqual({ ca: 2000, co: 1157, dc: 1926, ma: 1000, nj: 8815, ny: 6657 });
    expect(served("ny", "1268007")).toContain('"business":"DEAD RABBIT TAVERN"');
    expect(served("dc", "ABRA-000559")).toContain("Tune Inn");
    for (const s of await states()) {
      expect(s.feeds).toEqual([expect.objectContaining({ outcome: "changed", changed_at: s.feeds![0]!.checked_at })]);
    }
    // One request at a time, whatever the agency.
    expect(replay.maxInFlight()).toBe(1);

    const before = JSON.stringify((await states()).map((s) => [s.state, s.records, s.sources]));
    const asked = replay.requests.length;
    const second = await sync();
    expect(new Set(Object.values(outcomes(second)))).toEqual(new Set(["unchanged"]));
    expect(replay.asked(asked)).toEqual([
      "/api/views/9s3h-dpkz.json",
      new URL(nj.page).pathname,
      "/doc/abcc-active-retail-licenses",
      "/wp-content/uploads/DailyExport-CSV.zip",
      "/dcgis/rest/services/DCGIS_DATA/Business_Licensing_and_Grants_WebMercator/FeatureServer/5?f=json",
      "/api/views/htyp-tqzh.json",
    ]);
    // The zip was asked with its validators, and answered 304.
    expect(replay.requests.at(asked + 3)).toMatchObject({ answer: 304, headers: { "if-none-match": '"ca-1"' } });
    expect(lines.slice(6, 8)).toEqual([
      "NY ny-sla/active-licenses: unchanged: its rows were last updated 2025-11-18 21:06 UTC, as at the last check",
      "NJ nj-abc/retail-license-report: unchanged: the newest file its page links is still RETAIL-LICENSE-REPORT-APRIL-2026.xlsx",
    ]);
    expect(JSON.stringify((await states()).map((s) => [s.state, s.records, s.sources]))).toBe(before);
  });

  it("brings a changed list's change into the records, the license's history and the watchlist's next check", async () => {
    const { replay, sync, served, service } = await setup();
    await sync(["ny"]);
    // The team watches the license through the service, as `npm run serve` does.
    const { key } = await service.keyFor(["ny"]);
    const baseUrl = await service.app.listen({ host: "127.0.0.1", port: 0 });
    const state = openStateDb({ file: join(dirname(service.file), "app.sqlite") });
    cleanups.unshift(() => state.close());
    await migrateStateDb(state, "app", WATCH_MIGRATIONS);
    const watchlist = await createWatchlist({
      state,
      service: { baseUrl, apiKey: key, requestsPerSecond: 1000 },
      appUrl: "http://app.test",
      checkEveryMs: null,
      checkOnStart: false,
    });
    cleanups.unshift(() => watchlist.close());
    expect(await watchlist.add([{ row: 1, state: "ny", license: "1268007" }])).toMatchObject({ added: 1 });
    const renamed = fixtures.nyRecords.map((r) =>
      r.license === "1268007" ? { ...r, business: "DEAD RABBIT GROCERY AND GROG" } : r,
    );
    replay.publishSocrata(ny.source as SocrataSource, nyCurrentCsv(renamed), NY_UPDATED + 86_400);
    const [report] = await sync(["ny"]);
    expect(report).toMatchObject({ outcome: "changed" });
    expect(report!.detail).toMatch(/its rows were updated 2025-11-19 .* \(last check: 2025-11-18 .*\)/);
    expect(served("ny", "1268007")).toContain('"business":"DEAD RABBIT GROCERY AND GROG"');
    const history = service.licenses.history("ny", "1268007")!;
    expect(history.entries.find((e) => e.event === "changed")).toMatchObject({
      event: "changed",
      date: "2025-11-19",
      changes: [{ field: "business", from: "DEAD RABBIT TAVERN", to: "DEAD RABBIT GROCERY AND GROG" }],
    });
    await watchlist.check("schedule");
    await watchlist.settled();
    expect((await watchlist.list()).changes.map((c) => [c.license, c.field, c.from, c.to])).toEqual([
      ["1268007", "business", "DEAD RABBIT TAVERN", "DEAD RABBIT GROCERY AND GROG"],
    ]);
  });

  it("finds New Jersey's report under its new name at the month's turn", async () => {
    const { replay, sync, lines } = await setup();
    await sync(["nj"]);
    replay.publishPage(
      nj.page,
      njReportsPage([
        { url: NJ_APRIL, label: "Retail License Report April 2026" },
        { url: NJ_MAY, label: "Retail License Report May 2026" },
      ]),
    );
    // The agency republished April's rows under May's name: fetched (a new name), loaded before (same bytes).
    replay.publishFile(NJ_MAY, { body: fixtures.njXlsx, contentType: XLSX });
    const asked = replay.requests.length;
    const [report] = await sync(["nj"]);
    expect(replay.asked(asked)).toEqual([new URL(nj.page).pathname, new URL(NJ_MAY).pathname]);
    expect(report).toMatchObject({ outcome: "unchanged" });
    expect(lines.at(-1)).toBe(
      "NJ nj-abc/retail-license-report: unchanged: the file is byte for byte the one of the last check",
    );
    const [third] = await sync(["nj"]);
    expect(third!.detail).toBe("the newest file its page links is still RETAIL-LICENSE-REPORT-MAY-2026.xlsx");
  });
});

describe(
  "a hostile agency writes nothing outside the sync's folder and cannot end the sync",
  { timeout: 60_000 },
  () => {
    it("a link whose name decodes to %2F..%2F is fetched under a plain name inside the folder", async () => {
      const { replay, sync } = await setup();
      const escaped = `pwned-${process.pid}-${Date.now()}.xlsx`;
      const hostile = `https://www.njoag.gov/wp-content/uploads/2026/05/RETAIL-LICENSE-REPORT-MAY-2026%2F..%2F..%2F${escaped}`;
      replay.publishPage(nj.page, njReportsPage([{ url: hostile, label: "Retail License Report May 2026" }]));
      replay.publishFile(hostile, { body: fixtures.njXlsx, contentType: XLSX });
      const [report] = await sync(["nj"]);
      expect(replay.asked()).toContain(pathOf(hostile));
      // Decoded, it would have gone two folders up from the sync's own, into the temporary folder itself.
      expect(existsSync(join(tmpdir(), escaped))).toBe(false);
      expect(existsSync(join(dirname(tmpdir()), escaped))).toBe(false);
      expect(report).toMatchObject({
        outcome: "changed",
        detail: expect.stringContaining(`${escaped} loaded`) as string,
      });
    });

    it("a zip member that inflates past the cap is refused in a sentence, and the state's records stay served", async () => {
      const { replay, sync, served, stateOf } = await setup();
      await sync(["ca"]);
      const license = fixtures.caRecords[0]!.license;
      // 8 MB of zeros in 8 KB, against a cap of 1 MB.
      publishCa(replay, Buffer.from(zipSync({ "ABC-DailyDataExport.csv": new Uint8Array(8 << 20) })), '"ca-bomb"');
      const [report] = await sync(["ca"], { maxMemberBytes: 1 << 20 });
      expect(report).toMatchObject({ outcome: "refused" });
      expect(report!.detail).toMatch(
        /DailyExport-CSV\.zip: its member ABC-DailyDataExport\.csv inflates past 1 MB, the most a zip member may hold/,
      );
      expect(served("ca", license)).not.toBeNull();
      const state = await stateOf("ca");
      expect(state.records).toBe(2000);
      expect(state.last_refusal).toMatchObject({ reason: expect.stringContaining("inflates past 1 MB") as string });
    });
  },
);

describe("a fault of an agency leaves its state's records served and says why", { timeout: 60_000 }, () => {
  const refusals: [string, (replay: AgencyReplay) => void, RegExp, boolean][] = [
    [
      "an HTML page with status 200 where the zip was",
      (replay) => replay.fault(ca.url, [{ kind: "html" }]),
      /sent a web page where a data file was expected/,
      true,
    ],
    [
      "a body cut mid-row",
      (replay) =>
        replay.fault(ca.url, [
          { kind: "cut", at: 5000 },
          { kind: "cut", at: 5000 },
        ]),
      /sent 5000 of the \d+ bytes it announced: the file is incomplete/,
      true,
    ],
    [
      "an unknown layout",
      (replay) =>
        publishCa(replay, Buffer.from(zipSync({ "ABC-DailyDataExport.csv": Buffer.from("a,b\n1,2\n") })), '"ca-x"'),
      /unknown layout: no header row in the first 10 rows matches a known layout/,
      true,
    ],
    [
      "a zip that does not open",
      (replay) => publishCa(replay, fixtures.caZip.subarray(0, 2000), '"ca-y"'),
      /is not a whole zip file/,
      false,
    ],
  ];

  it.each(refusals)("refuses %s", async (_, fault, reason, archived) => {
    const { replay, sync, lines, stateOf, served, archive } = await setup();
    await sync(["ca"]);
    const license = fixtures.caRecords[0]!.license;
    fault(replay);
    const [report] = await sync(["ca"]);
    expect(report).toMatchObject({ outcome: "refused", detail: expect.stringMatching(reason) as string });
    expect(lines.at(-1)).toMatch(/^CA ca-abc\/daily-export: refused \(the old records stay served\): /);
    expect(served("ca", license)).not.toBeNull();
    const state = await stateOf("ca");
    expect(state.records).toBe(2000);
    expect(state.feeds![0]).toMatchObject({ outcome: "refused", detail: expect.stringMatching(reason) as string });
    expect(state.last_refusal).toMatchObject({ reason: expect.stringMatching(reason) as string });
    // Named as a person finds it, not by the sync's temporary folder.
    expect(`${state.last_refusal!.reason} ${state.feeds![0]!.detail}`).not.toContain(tmpdir());
    if (archived) {
      const kept = existsSync(join(archive, "ca-abc-export")) ? readdirSync(join(archive, "ca-abc-export")) : [];
      const copy = kept.find((name) => name.startsWith(state.last_refusal!.sha256));
      expect(copy).toBeDefined();
      // The bytes as they came: what the refusal names is what was refused, not an empty file.
      const bytes = readFileSync(join(archive, "ca-abc-export", copy!));
      expect(bytes.length).toBeGreaterThan(0);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(state.last_refusal!.sha256);
    }

    // The agency's next good file goes in.
    const changed = fixtures.caRecords.map((r, i) => (i === 0 ? { ...r, business: "A NEW TRADE NAME" } : r));
    publishCa(replay, caDailyExportZip(changed), '"ca-2"');
    const [next] = await sync(["ca"]);
    expect(next).toMatchObject({ outcome: "changed" });
    expect(served("ca", license)).toContain('"business":"A NEW TRADE NAME"');
    expect((await stateOf("ca")).feeds![0]).toMatchObject({ outcome: "changed" });
  });

  const socrataRefusals: [string, (replay: AgencyReplay) => void, RegExp][] = [
    [
      "a list shrunk by half",
      (replay) =>
        replay.publishSocrata(
          ny.source as SocrataSource,
          nyCurrentCsv(fixtures.nySmall.filter((_, i) => i % 2 === 0)),
          NY_UPDATED + 86_400,
        ),
      /would stop serving 1,500 of the 3,000 licenses NY serves now \(50%, more than the 10%/,
    ],
    [
      "an empty result",
      (replay) =>
        replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv.split("\n")[0]!, NY_UPDATED + 86_400),
      /9s3h-dpkz\.csv: has no data rows\. The state's existing data was left as it was/,
    ],
    [
      "a page cut mid-row",
      (replay) => {
        replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED + 86_400);
        const page = String(replay.serving(nyPages.page(2500))!.body);
        const cut = page.indexOf(",", page.indexOf("\n", 1000) + 1);
        replay.publishFile(nyPages.page(2500), { body: page.slice(0, cut), contentType: "text/csv" });
      },
      /resource\/9s3h-dpkz\.csv\?\$order=licensepermitid&\$limit=2500&\$offset=2500 holds a broken row \(row \d+ of the page\): it was cut mid-row/,
    ],
    [
      "fewer rows than the count the API reports",
      (replay) => {
        replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED + 86_400);
        replay.publishFile(nyPages.count, { body: '[{"count":"3500"}]', contentType: "application/json" });
      },
      /gave 3,000 rows where it reports 3,500: the download is incomplete/,
    ],
  ];

  it.each(socrataRefusals)("refuses %s from a Socrata API", async (_, fault, reason) => {
    const { replay, sync, lines, stateOf, served } = await setup();
    replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED);
    await sync(["ny"]);
    fault(replay);
    const [report] = await sync(["ny"]);
    expect(report).toMatchObject({ outcome: "refused", detail: expect.stringMatching(reason) as string });
    expect(lines.at(-1)).toMatch(/^NY ny-sla\/active-licenses: refused \(the old records stay served\): /);
    expect(served("ny", fixtures.nySmall[0]!.license)).not.toBeNull();
    const state = await stateOf("ny");
    expect(state.records).toBe(3000);
    expect(state.feeds![0]).toMatchObject({ outcome: "refused" });
    expect(state.last_refusal!.reason).toMatch(reason);
    expect(`${state.last_refusal!.reason} ${state.feeds![0]!.detail}`).not.toContain(tmpdir());

    replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED + 2 * 86_400);
    const [next] = await sync(["ny"]);
    // The same rows as the list served: fetched, and found to be the file loaded before.
    expect(next).toMatchObject({ outcome: "unchanged", detail: expect.stringMatching(/the one loaded/) as string });
    expect((await stateOf("ny")).feeds![0]).toMatchObject({ outcome: "unchanged" });
  });

  const failures: [string, Fault[], RegExp][] = [
    [
      "a 500 on every try",
      [
        { kind: "status", status: 500 },
        { kind: "status", status: 500 },
      ],
      /answered 500/,
    ],
    ["a slow answer", [{ kind: "stall" }, { kind: "stall" }], /sent nothing for 300 ms/],
    ["a 403 (a retired data set)", [{ kind: "status", status: 403 }], /answered 403.* may be retired or moved/],
    ["no answer", [{ kind: "silent" }, { kind: "silent" }], /sent nothing for 300 ms/],
  ];

  it.each(failures)("says a feed was not checked on %s, and checks it at the next sync", async (_, faults, reason) => {
    const { replay, sync, lines, stateOf, served } = await setup();
    replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED);
    await sync(["ny"]);
    replay.fault(nyPages.metadata, faults);
    const [report] = await sync(["ny"]);
    expect(report).toMatchObject({ outcome: "failed", detail: expect.stringMatching(reason) as string });
    expect(lines.at(-1)).toMatch(/^NY ny-sla\/active-licenses: not checked \(the old records stay served\): /);
    expect(served("ny", fixtures.nySmall[0]!.license)).not.toBeNull();
    expect((await stateOf("ny")).feeds![0]).toMatchObject({ outcome: "failed" });
    const [next] = await sync(["ny"]);
    expect(next).toMatchObject({ outcome: "unchanged" });
  });

  it("waits as a 429's Retry-After asks, then goes on", async () => {
    const { replay, sync } = await setup();
    replay.publishSocrata(ny.source as SocrataSource, fixtures.nySmallCsv, NY_UPDATED);
    replay.fault(nyPages.metadata, [{ kind: "status", status: 429, retryAfter: "1" }]);
    const [report] = await sync(["ny"], { client: { ...FAST, maxWaitMs: 5000 } });
    expect(report).toMatchObject({ outcome: "changed" });
    const [refused, answered] = replay.requests.filter((r) => r.url === pathOf(nyPages.metadata));
    expect(refused!.answer).toBe(429);
    expect(answered!.at - refused!.at).toBeGreaterThanOrEqual(1000);
  });
});

describe("a sync against an origin that never gives data", { timeout: 60_000 }, () => {
  async function origin(answer: (res: ServerResponse) => void) {
    const server: Server = createServer((_, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it.each([
    [
      "an error page to every request",
      (res: ServerResponse) => {
        res.writeHead(503, { "content-type": "text/html" });
        res.end("<!DOCTYPE html><html><body>Service Unavailable</body></html>");
      },
    ],
    ["no answer at all", () => undefined],
  ] as const)("ends within its time limits on %s, changes nothing, and says so", async (_, answer) => {
    const { sync, states } = await setup();
    // The quicker states' data first: what must stay as it is.
    await sync(["ca", "dc", "co"]);
    const before = JSON.stringify((await states()).map((s) => [s.state, s.records, s.sources]));
    const started = Date.now();
    const reports = await sync(undefined, {
      origin: await origin(answer),
      client: { idleTimeoutMs: 150, totalTimeoutMs: 1000, attempts: 2, backoffMs: 10 },
    });
    // Six feeds, each at most two tries of 150 ms and a wait between them.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(reports).toHaveLength(6);
    expect(new Set(reports.map((r) => r.outcome))).toEqual(new Set(["failed"]));
    expect(JSON.stringify((await states()).map((s) => [s.state, s.records, s.sources]))).toBe(before);
    for (const s of await states())
      expect(s.feeds![0]).toMatchObject({ outcome: "failed", changed_at: expect.any(String) as string });
  });
});
