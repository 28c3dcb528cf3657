import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState, type DragEvent } from "react";
import { sessionQuery } from "../api/session-query.ts";
import { licenseQueries } from "../api/license-queries.ts";
import type { RecordRow } from "../contract/checks.ts";
import { localIsoDate } from "../shared/dates.ts";
import { ListFileInput } from "../shared/list-file-input.tsx";
import { mayChange } from "../shared/may-change.ts";
import type { ListLimit, ListRow } from "../shared/list-input.ts";
import { recordedRows, verifyList, type VerifyProgress } from "./verify-list.ts";
import { VerifyProgressBar } from "./verify-progress.tsx";
import { VerifyResults } from "./verify-results.tsx";
import { clearKept, keepCheck, keepDraft, loadKept, type SavedCheck } from "./verify-storage.ts";

// The list reader (papaparse, and an XLSX reader on a chosen .xlsx) arrives when a list is first read, not with the page.
const listInput = () => import("../shared/list-input.ts");

// Recording a run follows its results on screen: its code is not the page's to wait for.
const RecordRun = lazy(async () => ({ default: (await import("./record-run.tsx")).RecordRun }));

const LIMIT: ListLimit = { rows: 5000, use: "verified at once" };

/** A check this page ran: under way, or ended, when its progress stays where it was (nothing below it moves). */
interface Run {
  checkedAt: string;
  progress: VerifyProgress;
  ended: boolean;
}

/** The `/verify` route: a list of licenses, pasted or from a file, a verdict for each row. */
export function VerifyPage() {
  const [saved] = useState(loadKept);
  const [text, setText] = useState(saved.draft);
  const [check, setCheck] = useState<SavedCheck | null>(saved.check);
  const [run, setRun] = useState<Run | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notKept, setNotKept] = useState(false);
  const coverage = useQuery(licenseQueries.coverage());
  const session = useQuery(sessionQuery());
  const [recording, setRecording] = useState<{ key: string; rows: RecordRow[] } | null>(null);
  const changes = mayChange(session.data);
  const abort = useRef<AbortController | null>(null);
  const resultsRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => () => abort.current?.abort(), []);

  async function verify(rows: ListRow[]) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const checkedAt = new Date().toISOString();
    setCheck(null);
    setRecording(null);
    const under = (progress: VerifyProgress) => {
      if (abort.current === controller) setRun({ checkedAt, progress, ended: false });
    };
    under({ results: rows.map(() => undefined), done: 0, oneByOne: false, waiting: 0 });
    try {
      const results = await verifyList(rows, {
        today: localIsoDate(new Date()),
        coverage: coverage.data ?? (await coverageOrNull()),
        signal: controller.signal,
        onProgress: under,
      });
      const done = { results, checkedAt };
      setRun((r) => r && { ...r, progress: { ...r.progress, results, done: results.length, waiting: 0 }, ended: true });
      setCheck(done);
      setNotKept(!keepCheck(done));
      // One record of the whole run, once it has ended, whoever is signed in.
      const shownRows = recordedRows(results);
      if (session.data && shownRows.length > 0) setRecording({ key: checkedAt, rows: shownRows });
      resultsRef.current?.focus();
    } catch (error) {
      if (controller.signal.aborted) return;
      setProblem(`The check stopped: ${String(error)}`);
      setRun(null);
    }
  }

  async function coverageOrNull() {
    return (await coverage.refetch()).data ?? null;
  }

  async function start() {
    const input = (await listInput()).parseListText(text, LIMIT);
    if ("error" in input) {
      setProblem(input.error);
      return;
    }
    setProblem(null);
    void verify(input.rows);
  }

  async function readFile(file: File) {
    const { listText, readListFile } = await listInput();
    const input = await readListFile(file, LIMIT);
    if ("error" in input) {
      setProblem(input.error);
      return;
    }
    setProblem(null);
    // The file's rows land in the box, where the clerk sees and may correct them before verifying.
    const asText = listText(input.rows);
    setText(asText);
    if (!keepDraft(asText)) setNotKept(true);
  }

  function clear() {
    abort.current?.abort();
    setText("");
    setCheck(null);
    setRun(null);
    setProblem(null);
    setNotKept(false);
    setRecording(null);
    clearKept();
  }

  function onDrop(event: DragEvent) {
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    void readFile(file);
  }

  // A check kept from an earlier visit shows as one that has just ended.
  const shown: Run | null =
    run ??
    (check && {
      checkedAt: check.checkedAt,
      progress: { results: check.results, done: check.results.length, oneByOne: false, waiting: 0 },
      ended: true,
    });

  return (
    <div className="verify">
      <title>Verify a list – License Lookup</title>
      <p className="print-only print-title">License Lookup · list verification</p>
      <div className="page-intro">
        <h1>Verify a list</h1>
        <p className="lede no-print">
          Paste the licenses you ship to, or choose a file, and get what each one’s record means today, with its source
          and date.
        </p>
      </div>

      <form
        className="verify__form no-print"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <label htmlFor="verify-list" className="field__label">
          Licenses to verify
        </label>
        <p id="verify-list-hint" className="field__hint">
          One license a line: state, license number, and if you have them the business name and address. Columns pasted
          from a spreadsheet work, and so do commas; a header row is optional. Up to{" "}
          {LIMIT.rows.toLocaleString("en-US")} rows.
        </p>
        <textarea
          id="verify-list"
          className="verify__list mono"
          aria-describedby="verify-list-hint"
          rows={10}
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (!keepDraft(event.target.value)) setNotKept(true);
          }}
          onDragOver={(event) => event.preventDefault()}
          onDrop={onDrop}
          placeholder={"NY, 1268007\nMA, 00780-RS-0116, Union Oyster House\nNew Jersey, 0101-33-005-003"}
        />
        <ListFileInput id="verify-file" className="verify__file" onFile={(file) => void readFile(file)} />
        {problem ? (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        ) : null}
        <p className="verify__actions">
          <button type="submit" className="button button--primary" disabled={text.trim() === ""}>
            Verify
          </button>
          {text || check ? (
            <button type="button" className="button button--quiet" onClick={clear}>
              Clear the list
            </button>
          ) : null}
        </p>
        {notKept ? (
          <p className="notice notice--info">
            This browser would not keep the list: it will be gone on closing the tab.
          </p>
        ) : null}
      </form>

      {shown ? (
        <>
          <VerifyProgressBar progress={shown.progress} />
          <VerifyResults
            headingRef={resultsRef}
            results={shown.progress.results}
            checkedAt={shown.checkedAt}
            complete={shown.ended}
            recorded={
              recording ? (
                <Suspense fallback={null}>
                  <RecordRun key={recording.key} rows={recording.rows} />
                </Suspense>
              ) : null
            }
            watch={changes}
          />
        </>
      ) : null}
    </div>
  );
}
