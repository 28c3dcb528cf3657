// exceljs's streaming reader by its own path (see xlsx-rows.ts); the class is the one its typed
// entry exports as stream.xlsx.WorkbookReader.
declare module "exceljs/lib/stream/xlsx/workbook-reader.js" {
  import type { stream } from "exceljs";
  const WorkbookReader: typeof stream.xlsx.WorkbookReader;
  export default WorkbookReader;
}
