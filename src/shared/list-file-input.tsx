/** What the list reader (list-input.ts) takes; Windows may give a .csv Excel's type, so names count as much as types. */
const ACCEPT = ".csv,.xlsx,.tsv,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

interface Props {
  id: string;
  className: string;
  onFile: (file: File) => void;
}

/** "Or choose a CSV or XLSX file", beside a list's box; the same file may be chosen again after it is fixed. */
export function ListFileInput({ id, className, onFile }: Props) {
  return (
    <p className={className}>
      <label htmlFor={id}>Or choose a CSV or XLSX file</label>{" "}
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = "";
        }}
      />
    </p>
  );
}
