import { Download } from 'lucide-react';
import { useState } from 'react';
import { EXPORT_TABLES, type ExportTable } from '../../../../schema/stats-reports-api';
import { Button } from '../../components/button';

// The export a marketer shares (issue 27): every table of the screen, or the one chosen, as a
// CSV file or an Excel workbook with a sheet a table (docs/decisions/144).

export type ExportFormat = 'csv' | 'xlsx';

export function ExportControl({
  busy,
  onExport,
}: {
  busy: boolean;
  onExport: (table: ExportTable | '', format: ExportFormat) => void;
}) {
  const [table, setTable] = useState<ExportTable | ''>('');
  const [format, setFormat] = useState<ExportFormat>('csv');
  return (
    <div className="stats-export">
      <label className="sr-only" htmlFor="export-tables">
        Tables to export
      </label>
      <select
        id="export-tables"
        className="input select"
        value={table}
        onChange={(e) => setTable(e.target.value as ExportTable | '')}
      >
        <option value="">All tables</option>
        {Object.entries(EXPORT_TABLES).map(([key, title]) => (
          <option key={key} value={key}>
            {title}
          </option>
        ))}
      </select>
      <label className="sr-only" htmlFor="export-format">
        File format
      </label>
      <select
        id="export-format"
        className="input select"
        value={format}
        onChange={(e) => setFormat(e.target.value as ExportFormat)}
      >
        <option value="csv">CSV</option>
        <option value="xlsx">Excel (XLSX)</option>
      </select>
      <Button
        icon={<Download size={16} aria-hidden />}
        busy={busy}
        onClick={() => onExport(table, format)}
        data-testid="export-csv"
      >
        {format === 'xlsx' ? 'Export XLSX' : 'Export CSV'}
      </Button>
    </div>
  );
}
