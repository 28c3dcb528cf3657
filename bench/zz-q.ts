import { openDatabase } from "../server/store/open-database.ts";
import { createLicenseRepo } from "../server/store/license-repo.ts";
const db = openDatabase("/tmp/t17.sqlite");
const repo = createLicenseRepo(db);
for (const round of [1, 2]) for (const [state, by, q] of [["ny", "name", "dead rabit"], ["ma", "name", "unoin oyster"], ["ny", "name", "dead rabbit"], ["ny", "name", "restaurnat"], ["ny", "address", "wter street"], ["ny","name","qxzqxz"]] as const) {
  const t = performance.now();
  const r = repo.search({ state, by, q });
  console.log(state, q, (performance.now() - t).toFixed(1), "ms", r.slice(0, 3).map((d) => JSON.parse(d).business));
}
