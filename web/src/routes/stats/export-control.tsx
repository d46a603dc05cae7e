import { Download } from 'lucide-react';
import { useState } from 'react';
import { EXPORT_TABLES, type ExportTable } from '../../../../schema/stats-reports-api';
import { Button } from '../../components/button';

// The export a marketer shares (issue 27): every table of the screen, or the one chosen.

export function ExportControl({
  busy,
  onExport,
}: {
  busy: boolean;
  onExport: (table: ExportTable | '') => void;
}) {
  const [table, setTable] = useState<ExportTable | ''>('');
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
      <Button
        icon={<Download size={16} aria-hidden />}
        busy={busy}
        onClick={() => onExport(table)}
        data-testid="export-csv"
      >
        Export CSV
      </Button>
    </div>
  );
}
