import { Replace, Search } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import {
  DB_FIND_FIELD_ORDER,
  DEFAULT_FIND_FIELD,
  dbFindSchema,
  FIND_FIELDS,
  type FindField,
} from '../../../../schema/settings-api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirmedAction } from '../../components/confirmed-action';
import { EmptyState } from '../../components/empty-state';
import { CodeField, SelectField } from '../../components/field';
import { notify } from '../../components/toaster';
import { formatInteger } from '../../lib/format';
import { useForm } from '../../lib/forms';
import { dbFind, dbReplace, type FindAnswer } from './api';

const FORM = 'dbfind';
const FIELD_OPTIONS = FIND_FIELDS.map((f) => ({ value: f.value, label: f.label }));

/** `text` with every occurrence of `part` marked. */
function marked(text: string, part: string, tone: 'before' | 'after'): ReactNode {
  if (!part) return text;
  const out: ReactNode[] = [];
  let from = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) {
    out.push(text.slice(from, at));
    // The offset in the text identifies the occurrence.
    out.push(
      <mark key={`at-${at}`} className={`diff-${tone}`}>
        {part}
      </mark>,
    );
    from = at + part.length;
  }
  out.push(text.slice(from));
  return out;
}

/** Database find-and-replace with a preview of every match before anything changes. */
export function FindReplacePane({ canManage }: { canManage: boolean }) {
  const form = useForm(FORM, { field: DEFAULT_FIND_FIELD as string, find: '', replace: '' });
  const { values, formError, setFormError, busy } = form;
  const [preview, setPreview] = useState<(FindAnswer & { find: string; replace: string }) | null>(null);
  const { busy: replacing, run } = useConfirmedAction();

  const input = () => ({ field: values.field as FindField, find: values.find, replace: values.replace });
  const stale =
    preview !== null &&
    (preview.field !== values.field || preview.find !== values.find || preview.replace !== values.replace);

  const search = (event?: FormEvent) => {
    event?.preventDefault();
    setFormError(null);
    if (!form.check(dbFindSchema, DB_FIND_FIELD_ORDER).ok) return;
    void form.submit(async () => {
      try {
        const answer = await dbFind(input());
        setPreview({ ...answer, find: values.find, replace: values.replace });
      } catch (err) {
        const message = form.applyServerError(err, DB_FIND_FIELD_ORDER);
        if (message) setFormError(message);
      }
    });
  };

  const replaceAll = async () => {
    if (!preview || stale || !preview.total) return;
    const label = FIELD_OPTIONS.find((f) => f.value === preview.field)?.label.toLowerCase() ?? 'field';
    await run(
      'run',
      {
        title: 'Replace in the database?',
        message: `“${preview.find}” becomes “${preview.replace}” in the ${label} of ${formatInteger(preview.total)} ${
          preview.total === 1 ? 'record' : 'records'
        }. This cannot be undone.`,
        confirmLabel: 'Replace',
        cancelLabel: 'Cancel',
        danger: true,
      },
      async () => {
        const answer = await dbReplace(input());
        notify.success(answer.message);
        const again = await dbFind(input());
        setPreview({ ...again, find: values.find, replace: values.replace });
      },
      (err) => {
        const message = err instanceof ApiError ? err.firstMessage : String(err);
        notify.error(message);
        if (err instanceof ApiError && err.isValidation) setFormError(message);
      },
    );
  };

  return (
    <Card
      id="find-replace"
      title="Find and replace"
      description={
        canManage
          ? 'Change text across every campaign at once, for example a landing-page domain. Matching is exact and case-sensitive.'
          : 'Change text across your campaigns at once, for example a landing-page domain. Matching is exact and case-sensitive.'
      }
    >
      <form id={FORM} className="form" onSubmit={search} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <div className="find-grid">
          <SelectField {...form.field('field')} label="Field" options={FIELD_OPTIONS} />
          <CodeField {...form.field('find')} label="Find" placeholder="old-domain.com" />
          <CodeField {...form.field('replace')} label="Replace with" placeholder="new-domain.com" />
          <div className="find-actions">
            <Button type="submit" busy={busy} icon={<Search size={16} aria-hidden />}>
              Preview matches
            </Button>
          </div>
        </div>
      </form>

      {preview && (
        <div className="find-results" data-testid="find-results">
          <div className="find-results-head">
            <p className="find-results-count" aria-live="polite">
              {preview.total === 0
                ? 'No matches.'
                : `${formatInteger(preview.total)} ${preview.total === 1 ? 'match' : 'matches'}${
                    preview.total > preview.results.length
                      ? `, the first ${formatInteger(preview.results.length)} shown`
                      : ''
                  }`}
              {stale && <span className="badge badge-warning">Changed since the preview: preview again</span>}
            </p>
            <Button
              variant="danger"
              icon={<Replace size={16} aria-hidden />}
              busy={replacing !== null}
              disabled={stale || preview.total === 0}
              onClick={() => void replaceAll()}
            >
              Replace in {formatInteger(preview.total)} {preview.total === 1 ? 'record' : 'records'}
            </Button>
          </div>
          {preview.total === 0 ? (
            <EmptyState icon={Search} title={`Nothing contains “${preview.find}”`}>
              Check the spelling and the field; matching is case-sensitive.
            </EmptyState>
          ) : (
            <div className="table-wrap find-table-wrap">
              <table className="table find-table">
                <thead>
                  <tr>
                    <th scope="col">Campaign</th>
                    <th scope="col">Item</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.results.map((r) => (
                    <tr key={`${r.campaignId}-${r.id}`}>
                      <td className="cell-strong">
                        {r.campaignName}
                        <span className="cell-muted"> #{r.campaignId}</span>
                      </td>
                      <td>
                        {r.name}
                        {r.deleted === 1 && <span className="badge badge-neutral">Deleted</span>}
                      </td>
                      <td className="find-value">{marked(r.before, preview.find, 'before')}</td>
                      <td className="find-value">{marked(r.after, preview.replace, 'after')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
