import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The repository's configuration, its import-direction rule alone: without the type-aware rules' TypeScript
// program, which took this file 25 s of a CI run to build and nothing here reads.
const eslint = new ESLint({
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === "import-x/no-restricted-paths",
});

// The first lint loads the plugins: seconds, once.
beforeAll(() => eslint.lintText("export {};\n", { filePath: "src/main.tsx" }), 60_000);

/** The import-direction messages ESLint gives `code` as if it were the file at `path`. */
async function directionErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

// Each planted file takes the name of a real one, so the rule knows where it stands.
describe("npm run lint holds the import direction of STYLE.md", () => {
  it("refuses the network layer importing a page", async () => {
    const errors = await directionErrors(
      "src/api/fetch-json.ts",
      'import { searchUrl } from "../search/search-url.ts";\nexport const planted = searchUrl;\n',
    );
    expect(errors).toEqual([expect.stringContaining("src/api is the network boundary")]);
  });

  it("refuses a page importing another page, or the app", async () => {
    const errors = await directionErrors(
      "src/license/license-detail.tsx",
      'import { searchUrl } from "../search/search-url.ts";\nimport { Layout } from "../app/layout.tsx";\nexport const planted = [searchUrl, Layout];\n',
    );
    expect(errors).toHaveLength(2);
  });

  it("refuses the server importing the app beyond the contract, and the contract importing anything of ours", async () => {
    expect(
      await directionErrors(
        "server/service/app.ts",
        'import { searchUrl } from "../../src/search/search-url.ts";\nexport const planted = searchUrl;\n',
      ),
    ).toEqual([expect.stringContaining("The server may import src/contract")]);
    expect(
      await directionErrors(
        "src/contract/license.ts",
        'import { fetchJson } from "../api/fetch-json.ts";\nexport const planted = fetchJson;\n',
      ),
    ).toEqual([expect.stringContaining("src/contract imports nothing of ours")]);
  });

  it("refuses one server program importing another, and a shared part importing a program", async () => {
    expect(
      await directionErrors(
        "server/service/app.ts",
        'import { buildWebApp } from "../web/web-app.ts";\nexport const planted = buildWebApp;\n',
      ),
    ).toEqual([expect.stringContaining("A program of server/ imports only the shared parts")]);
    expect(
      await directionErrors(
        "server/store/license-repo.ts",
        'import { findSourceAdapter } from "../data/sources/adapters.ts";\nexport const planted = findSourceAdapter;\n',
      ),
    ).toEqual([expect.stringContaining("server/'s shared parts (store, db, jobs, http) import no program")]);
  });

  it("lets a server program import the shared parts and the contract", async () => {
    const errors = await directionErrors(
      "server/web/web-app.ts",
      'import { openStateDb } from "../db/state-db.ts";\nimport { sendProblem } from "../http/problem.ts";\nimport { STATES } from "../../src/contract/states.ts";\nexport const fine = [openStateDb, sendProblem, STATES];\n',
    );
    expect(errors).toEqual([]);
  });

  it("lets a page import the contract, the network layer and shared UI", async () => {
    const errors = await directionErrors(
      "src/search/search-page.tsx",
      'import { STATES } from "../contract/states.ts";\nimport { fetchJson } from "../api/fetch-json.ts";\nimport { formatIsoDate } from "../shared/dates.ts";\nexport const fine = [STATES, fetchJson, formatIsoDate];\n',
    );
    expect(errors).toEqual([]);
  });
});
