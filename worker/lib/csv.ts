import Papa from 'papaparse';

// CSV text, RFC 4180 quoting, with spreadsheet-formula cells defused.

/** A number already written as the file wants it ('12.50', '-3.00'): written as is, never defused. */
export class CsvNumber {
  constructor(readonly text: string) {}
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof CsvNumber) return value.text;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // A text cell starting with = + - @ would run as a formula in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

const PART_SIZE = 5 * 1024 * 1024;

/**
 * Writes CSV to R2 as it is produced: lines are buffered and sent as multipart-upload parts of
 * 5 MiB (R2's minimum part size), so a large export never sits whole in memory.
 */
export class R2CsvWriter {
  private chunks: string[] = [];
  private size = 0;
  private upload: R2MultipartUpload | null = null;
  private parts: R2UploadedPart[] = [];
  lines = 0;

  constructor(
    private bucket: R2Bucket,
    private key: string,
  ) {}

  async write(values: unknown[]): Promise<void> {
    const line = csvLine(values);
    this.chunks.push(line);
    this.size += line.length;
    this.lines += 1;
    if (this.size >= PART_SIZE) await this.flushPart();
  }

  private async flushPart(): Promise<void> {
    this.upload ??= await this.bucket.createMultipartUpload(this.key, {
      httpMetadata: { contentType: 'text/csv; charset=utf-8' },
    });
    const body = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, body));
  }

  async close(): Promise<void> {
    if (!this.upload) {
      await this.bucket.put(this.key, this.chunks.join(''), {
        httpMetadata: { contentType: 'text/csv; charset=utf-8' },
      });
      return;
    }
    if (this.chunks.length) await this.flushPart();
    await this.upload.complete(this.parts);
  }
}

/** Parses CSV text into rows of cells (papaparse), dropping blank lines. */
export function parseCsv(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  return parsed.data.filter((r) => Array.isArray(r) && r.some((c) => String(c).trim() !== ''));
}
