// The extra tokens of the basic tab (spec 2 §3, §5): up to 20 parameters captured from the
// campaign URL, each passed on to landing pages and offers or not, and the traffic sources'
// token templates applied or removed.
import { Info, Plus, Tags, Trash2, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { MAX_EXTRA_TOKENS } from '../../../../schema/campaigns';
import { OPERATION_MESSAGES } from '../../../../schema/pages-operations-api';
import { Button, IconButton } from '../../components/button';
import { Card } from '../../components/card';
import { ActionsHeader } from '../../components/data-table/actions-header';
import { SelectField } from '../../components/field';
import { notify } from '../../components/toaster';
import { patchedAt, withoutAt } from '../../lib/rows';
import { useTokenTemplates } from './api';
import type { BasicTabProps } from './basic-tab-props';
import { basicId } from './campaign-form';
import type { ExtraToken } from './types';

type Props = Pick<
  BasicTabProps,
  'form' | 'errors' | 'onField' | 'templateBusy' | 'onApplyTemplate' | 'onRemoveTemplate'
>;

const emptyToken = (): ExtraToken => ({
  extraTokenId: null,
  token_name: '',
  parameter: '',
  url_append: '',
  landing_page_enabled: 0,
  offer_page_enabled: 0,
  deleted: 0,
});

/** Where a token is passed on: its switch's column head and what its label says it goes to. */
const PASSED_TO = [
  { flag: 'landing_page_enabled', head: 'To landing page', to: 'the landing page' },
  { flag: 'offer_page_enabled', head: 'To offer', to: 'the offer' },
] as const;

export function TokensCard({
  form,
  errors,
  onField,
  templateBusy,
  onApplyTemplate,
  onRemoveTemplate,
}: Props) {
  const templates = useTokenTemplates();
  const [template, setTemplate] = useState('');
  const [templateError, setTemplateError] = useState<string | null>(null);
  const [limitHit, setLimitHit] = useState(false);
  const tokens = form.extratokens.filter((t) => t.deleted === 0);
  const full = tokens.length >= MAX_EXTRA_TOKENS;

  const setTokens = (next: ExtraToken[]) => onField('extratokens', next);
  const update = (index: number, patch: Partial<ExtraToken>) => setTokens(patchedAt(tokens, index, patch));

  const add = () => {
    if (full) {
      setLimitHit(true);
      notify.error(OPERATION_MESSAGES.tokensLimit);
      return;
    }
    setLimitHit(false);
    setTokens([...tokens, emptyToken()]);
    requestAnimationFrame(() => document.getElementById(`token-${tokens.length}-name`)?.focus());
  };

  const withTemplate = (run: (key: string) => void) => {
    if (!template) {
      setTemplateError(OPERATION_MESSAGES.templateRequired);
      notify.error(OPERATION_MESSAGES.templateRequired);
      return;
    }
    setTemplateError(null);
    run(template);
  };

  const tokenError = errors.extratokens ?? (limitHit && full ? OPERATION_MESSAGES.tokensLimit : undefined);
  const options = templates.data?.result ?? [];

  return (
    <Card
      title={
        <span className="ce-inline-icon">
          <Tags size={16} aria-hidden /> Extra tokens
        </span>
      }
      description={`Extra parameters captured from the campaign URL, up to ${MAX_EXTRA_TOKENS}; reports can be broken down by each.`}
      actions={
        <span className="badge badge-neutral ce-token-count">{`${tokens.length} / ${MAX_EXTRA_TOKENS}`}</span>
      }
      flush
    >
      <div className="ce-template-bar">
        <div className="ce-template-select">
          <SelectField
            id="token-template"
            label="Token template"
            value={template}
            onValueChange={(v) => {
              setTemplate(v);
              setTemplateError(null);
            }}
            options={[
              { value: '', label: 'Select a template' },
              ...options.map((t) => ({ value: t.key, label: t.label })),
            ]}
            error={templateError}
            hint={
              template
                ? `${options
                    .find((t) => t.key === template)
                    ?.tokens.map((t) => t.parameter)
                    .join(', ')}`
                : 'The tokens and macros of a traffic source, ready to use.'
            }
          />
        </div>
        <div className="ce-template-actions">
          <Button
            icon={<Wand2 size={16} aria-hidden />}
            busy={templateBusy === 'apply'}
            disabled={templateBusy === 'remove'}
            onClick={() => withTemplate(onApplyTemplate)}
          >
            Apply template
          </Button>
          <Button
            variant="ghost"
            icon={<Trash2 size={16} aria-hidden />}
            busy={templateBusy === 'remove'}
            disabled={templateBusy === 'apply'}
            onClick={() => withTemplate(onRemoveTemplate)}
          >
            Remove template tokens
          </Button>
        </div>
      </div>
      {tokens.length > 0 ? (
        <div className="table-wrap">
          <table className="table ce-token-table" data-testid="tokens-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Parameter</th>
                <th>Value in the campaign URL</th>
                {PASSED_TO.map(({ flag, head }) => (
                  <th key={flag} className="ce-center">
                    {head}
                  </th>
                ))}
                <ActionsHeader label="Remove" />
              </tr>
            </thead>
            <tbody>
              {tokens.map((t, i) => (
                <tr key={t.extraTokenId ?? `new-${i}`} data-testid="token-row">
                  <td>
                    <input
                      id={`token-${i}-name`}
                      className="input input-sm ce-token-input"
                      value={t.token_name}
                      aria-label={`Token ${i + 1} name`}
                      placeholder="Placement"
                      onChange={(e) => update(i, { token_name: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      className="input input-sm mono ce-token-input"
                      value={t.parameter}
                      aria-label={`Token ${i + 1} parameter`}
                      placeholder="placement"
                      spellCheck={false}
                      onChange={(e) => update(i, { parameter: e.target.value.trim() })}
                    />
                  </td>
                  <td>
                    <input
                      className="input input-sm mono ce-token-input"
                      value={t.url_append}
                      aria-label={`Token ${i + 1} value in the campaign URL`}
                      placeholder="{{placement}}"
                      spellCheck={false}
                      onChange={(e) => update(i, { url_append: e.target.value.trim() })}
                    />
                  </td>
                  {PASSED_TO.map(({ flag, to }) => (
                    <td key={flag} className="ce-center">
                      <input
                        type="checkbox"
                        aria-label={`Pass token ${i + 1} to ${to}`}
                        checked={t[flag] === 1}
                        onChange={(e) => update(i, { [flag]: e.target.checked ? 1 : 0 })}
                      />
                    </td>
                  ))}
                  <td className="actions">
                    <IconButton
                      icon={Trash2}
                      iconSize={15}
                      className="ce-danger-icon"
                      label={`Remove token ${t.token_name || i + 1}`}
                      title="Remove"
                      onClick={() => setTokens(withoutAt(tokens, i))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="ce-tokens-empty">
          <Info size={14} aria-hidden /> No extra tokens. Apply a template for your traffic source or add your
          own.
        </p>
      )}
      <div className="ce-tokens-footer">
        {tokenError ? (
          <p className="field-error" id={basicId('extratokens-error')} data-field={basicId('extratokens')}>
            {tokenError}
          </p>
        ) : (
          <span className="field-hint">Tokens are saved with the campaign.</span>
        )}
        <Button
          size="sm"
          icon={<Plus size={14} aria-hidden />}
          onClick={add}
          data-testid="token-add"
          aria-disabled={full || undefined}
        >
          Add token
        </Button>
      </div>
    </Card>
  );
}
