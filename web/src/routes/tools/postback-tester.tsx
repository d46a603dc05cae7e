// Postback tester: a test click, then a conversion sent to it through the real postback route,
// and what happened. Test conversions have a list of their own and never reach the statistics.
import { Inbox, MousePointerClick, Send, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { mutate } from 'swr';
import type { TestClickAnswer, TestConversionRow, TestPostbackAnswer } from '../../../../schema/tools-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { useBusyAction } from '../../components/confirmed-action';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import { SelectField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { draftFields } from '../../lib/draft-field';
import { formatDateTime, formatDollars } from '../../lib/format';
import { CopyField } from '../basic-info/editor-ui';
import {
  clearTestConversions,
  makeTestClick,
  sendTestPostback,
  TOOLS_PATHS,
  useTestConversions,
} from './api';
import { useCampaignChoices } from './link-tester';

const DEVICES = [
  { value: 'desktop', label: 'Desktop' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'tablet', label: 'Tablet' },
];

const OUTCOME = {
  accepted: { text: 'Accepted', tone: 'badge-success' },
  duplicate: { text: 'Duplicate', tone: 'badge-warning' },
  refused: { text: 'Refused', tone: 'badge-warning' },
} as const;

const POSTBACK_LABEL: Record<string, string> = {
  off: 'Off',
  not_goal: 'Not the goal',
  blocked: 'Refused URL',
  ready: 'Not sent',
  sent: 'Sent',
  failed: 'Failed',
  duplicate: 'None (duplicate)',
  '': '—',
};

const CONVERSION_COLUMNS: Column<TestConversionRow>[] = [
  {
    key: 'createdAt',
    label: 'When',
    className: 'tools-nowrap',
    render: (r) => formatDateTime(r.createdAt),
  },
  { key: 'campaignName', label: 'Campaign', render: (r) => r.campaignName },
  { key: 'event', label: 'Event', render: (r) => r.event },
  { key: 'transactionId', label: 'Transaction', render: (r) => r.transactionId || '—' },
  { key: 'payout', label: 'Payout', kind: 'money' },
  { key: 'duplicates', label: 'Duplicates', kind: 'int' },
  {
    key: 'postbackStatus',
    label: 'Postback',
    render: (r) => POSTBACK_LABEL[r.postbackStatus] ?? r.postbackStatus,
  },
];

function errorsOf(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.isValidation ? err.fieldErrors : {};
}

function PostbackResult({ result }: { result: TestPostbackAnswer }) {
  const outcome = OUTCOME[result.outcome];
  const tsp = result.trafficSourcePostback;
  return (
    <div className="tools-result" data-testid="postback-result" aria-live="polite">
      <p className="tools-title-row">
        <span className={`badge ${outcome.tone}`}>{outcome.text}</span>
        <span className="cell-strong">{result.message}</span>
        <span className="tools-muted">HTTP {result.response.status}</span>
      </p>
      <dl className="tools-facts">
        <dt>Request</dt>
        <dd className="mono tools-break">{result.request.url}</dd>
        {result.duplicateRule && (
          <>
            <dt>Duplicate rule</dt>
            <dd>{result.duplicateRule.description}</dd>
          </>
        )}
        {result.conversion && (
          <>
            <dt>Recorded</dt>
            <dd>
              {result.conversion.event} · {formatDollars(result.conversion.payout)}
              {result.conversion.transactionId ? ` · transaction ${result.conversion.transactionId}` : ''}
              {result.conversion.duplicates > 0
                ? ` · ${result.conversion.duplicates} duplicate(s) ignored`
                : ''}
            </dd>
          </>
        )}
        {tsp && (
          <>
            <dt>Traffic-source postback</dt>
            <dd>
              <span className="badge badge-neutral tools-badge-inline">{POSTBACK_LABEL[tsp.status]}</span>{' '}
              {tsp.message}
              {tsp.url && <span className="mono tools-break tools-url-block">{tsp.url}</span>}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

const ptId = (key: string) => `pt-${key}`;

export function PostbackTester() {
  const choices = useCampaignChoices();
  const confirm = useConfirm();
  const list = useTestConversions();
  const [click, setClick] = useState({ campaignId: '', device: 'desktop', country: '', target: '' });
  const [conv, setConv] = useState({ payout: '', txid: '', event: '', send: false });
  const [clickErrors, setClickErrors] = useState<Record<string, string>>({});
  const [convErrors, setConvErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusyAction<'click' | 'send' | 'clear'>();
  const clickField = draftFields(
    click,
    (key, value) => setClick((c) => ({ ...c, [key]: value })),
    clickErrors,
    ptId,
  );
  const convField = draftFields(
    conv,
    (key, value) => setConv((c) => ({ ...c, [key]: value })),
    convErrors,
    ptId,
  );
  const [testClick, setTestClick] = useState<TestClickAnswer | null>(null);
  const [result, setResult] = useState<TestPostbackAnswer | null>(null);

  const onClick = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setClickErrors({});
    await run(
      'click',
      async () => {
        const made = await makeTestClick({
          campaignId: click.campaignId ? Number(click.campaignId) : null,
          device: click.device,
          country: click.country,
          target: click.target,
        });
        setTestClick(made);
        setResult(null);
        notify.success(made.message);
      },
      (err) => {
        setClickErrors(errorsOf(err));
        notify.error(err instanceof ApiError ? err.firstMessage : 'The test click failed. Try again.');
      },
    );
  };

  const onSend = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !testClick) return;
    setConvErrors({});
    await run(
      'send',
      async () => {
        const answer = await sendTestPostback({
          clickId: testClick.clickId,
          payout: conv.payout,
          txid: conv.txid,
          event: conv.event,
          send: conv.send ? 1 : 0,
        });
        setResult(answer);
        await mutate(TOOLS_PATHS.testConversions);
        if (answer.outcome === 'refused') notify.error(`Refused: ${answer.message}`);
        else if (answer.outcome === 'duplicate') notify.warning('Accepted as a duplicate: counted once.');
        else notify.success('Test conversion accepted.');
      },
      (err) => {
        setConvErrors(errorsOf(err));
        notify.error(err instanceof ApiError ? err.firstMessage : 'The postback failed. Try again.');
      },
    );
  };

  const onClear = async () => {
    const ok = await confirm({
      title: 'Clear test conversions',
      message:
        'Delete every test conversion and test click of your campaigns? Real statistics are not touched.',
      confirmLabel: 'Clear them',
      cancelLabel: 'Keep them',
      danger: true,
    });
    if (!ok) return;
    await run(
      'clear',
      async () => {
        const answer = await clearTestConversions();
        await mutate(TOOLS_PATHS.testConversions);
        setTestClick(null);
        setResult(null);
        notify.success(`${answer.message} (${answer.deleted})`);
      },
      (err) => notify.error(err instanceof ApiError ? err.firstMessage : 'Clearing failed. Try again.'),
    );
  };

  const rows = list.data?.result ?? [];
  return (
    <div className="ce-tab-stack">
      <div className="tools-two">
        <Card
          title="1. Make a test click"
          description="A routed visit marked test: it is kept out of every statistic and export."
        >
          <form className="form" onSubmit={(e) => void onClick(e)} noValidate aria-label="Make a test click">
            <SelectField {...clickField('campaignId')} label="Campaign" options={choices.options} />
            <div className="form-grid">
              <SelectField {...clickField('device')} label="Device" options={DEVICES} />
              <TextField
                {...clickField('country')}
                label="Country"
                optional
                placeholder="US"
                maxLength={2}
                onValueChange={(country) => setClick((c) => ({ ...c, country: country.toUpperCase() }))}
              />
            </div>
            <TextField {...clickField('target')} label="Target (ad id)" optional />
            <FormSubmitRow busy={busy === 'click'} icon={MousePointerClick}>
              Make test click
            </FormSubmitRow>
          </form>
          {testClick && (
            <div className="stack tools-after-form" data-testid="test-click">
              <p className="tools-muted">
                {[testClick.path?.name, testClick.landing?.name, testClick.offer?.name]
                  .filter(Boolean)
                  .join(' → ') || 'No page'}
                . {testClick.note}
              </p>
              <CopyField id="pt-click-id" label="Test click id" value={testClick.clickId} />
              <CopyField
                id="pt-postback-url"
                label="Postback URL for this click"
                value={testClick.postbackUrl}
              />
            </div>
          )}
        </Card>

        <Card
          title="2. Send a conversion"
          description="Sent through the real postback route, as your network would send it."
        >
          {testClick ? (
            <form
              className="form"
              onSubmit={(e) => void onSend(e)}
              noValidate
              aria-label="Send a test conversion"
            >
              <div className="form-grid">
                <TextField
                  {...convField('payout')}
                  label="Payout"
                  optional
                  placeholder="The offer's payout"
                />
                <TextField {...convField('txid')} label="Transaction id" optional />
              </div>
              <TextField
                {...convField('event')}
                label="Event"
                optional
                placeholder="The campaign's goal (purchase)"
              />
              <label className="tools-check" htmlFor="pt-send">
                <input
                  id="pt-send"
                  type="checkbox"
                  checked={conv.send}
                  onChange={(e) => setConv((c) => ({ ...c, send: e.target.checked }))}
                />
                Send it to the traffic source (calls the campaign's postback URL for real)
              </label>
              <FormSubmitRow busy={busy === 'send'} icon={Send}>
                Send conversion
              </FormSubmitRow>
            </form>
          ) : (
            <EmptyState icon={MousePointerClick} title="Make a test click first">
              A conversion needs a click id: make a test click on the left.
            </EmptyState>
          )}
          {result && <PostbackResult result={result} />}
        </Card>
      </div>

      <Card
        title="Test conversions"
        description="Only here: never in statistics, rollups or exports."
        actions={
          <Button
            variant="danger"
            size="sm"
            busy={busy === 'clear'}
            disabled={rows.length === 0}
            icon={<Trash2 size={14} aria-hidden />}
            onClick={() => void onClear()}
          >
            Clear test conversions
          </Button>
        }
        flush
      >
        {rows.length === 0 ? (
          <EmptyState icon={Inbox} title={list.isLoading ? 'Loading…' : 'No test conversions'}>
            Make a test click and send a conversion to it: it shows up here.
          </EmptyState>
        ) : (
          <DataTable<TestConversionRow>
            id="test-conversions"
            label="Test conversions"
            columns={CONVERSION_COLUMNS}
            rows={rows}
            rowKey={(r) => r.id}
            tableClassName="tools-table"
          />
        )}
      </Card>
    </div>
  );
}
