import writeXlsxFile, { type Cell, type Row, type Sheet } from 'write-excel-file/universal';
import { CsvNumber } from './csv';

// An Excel workbook beside the CSV export (issue 27, docs/decisions/144): one sheet a table, made
// with write-excel-file (its universal build: Blob and fflate, nothing of Node). A workbook is
// built whole in memory, unlike the CSV written to R2 in parts, so it is bounded by XLSX_MAX_ROWS.

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** More rows than this in one workbook are refused: the CSV (streamed) is the way for them. */
export const XLSX_MAX_ROWS = 100_000;

/** A cell as the CSV writes it, for the workbook: numbers stay numbers, with their decimals. */
function xlsxCell(value: unknown): Cell {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof CsvNumber) {
    const decimals = value.text.split('.')[1]?.length ?? 0;
    return { value: Number(value.text), type: Number, format: decimals ? `0.${'0'.repeat(decimals)}` : '0' };
  }
  if (typeof value === 'number') return Number.isFinite(value) ? { value, type: Number } : null;
  return { value: typeof value === 'object' ? JSON.stringify(value) : String(value), type: String };
}

/** Collects tables as sheets, then writes the workbook to R2 in one put. */
export class R2XlsxWriter {
  private sheets: Sheet<never>[] = [];
  rows = 0;

  constructor(
    private bucket: R2Bucket,
    private key: string,
  ) {}

  /** One table: its title names the sheet, the header row is bold and stays on screen. */
  addSheet(title: string, header: string[], rows: unknown[][]): void {
    this.rows += rows.length + 1;
    const data: Row[] = [
      header.map((h) => ({ value: h, type: String, fontWeight: 'bold' as const })),
      ...rows.map((r) => r.map(xlsxCell)),
    ];
    // Excel allows 31 characters in a sheet's name and none of : \ / ? * [ ].
    this.sheets.push({ data, sheet: title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31), stickyRowsCount: 1 });
  }

  async close(): Promise<void> {
    const blob = await writeXlsxFile(this.sheets).toBlob();
    await this.bucket.put(this.key, await blob.arrayBuffer(), { httpMetadata: { contentType: XLSX_TYPE } });
  }
}
