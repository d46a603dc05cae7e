// The campaign editor's LiveIntent campaign and line item lists (spec 2 §3, §5; decision 092).
// They are saved with the campaign; the rules (schema/liveintent-lists.ts) run on the screen and
// on the server, with messages at the row and field they belong to.
import { ExternalLink, Plus, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { LiCampaignEntry, LiLineItemEntry } from '../../../../schema/liveintent-lists';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { basicId } from './campaign-form';
import { Switch } from './editor-ui';

type Props = {
  campaignId: number | null;
  campaigns: LiCampaignEntry[];
  lineItems: LiLineItemEntry[];
  errors: Record<string, string | undefined>;
  onCampaigns: (next: LiCampaignEntry[]) => void;
  onLineItems: (next: LiLineItemEntry[]) => void;
};

export function LiveIntentLists({
  campaignId,
  campaigns,
  lineItems,
  errors,
  onCampaigns,
  onLineItems,
}: Props) {
  const setCampaign = (i: number, patch: Partial<LiCampaignEntry>) =>
    onCampaigns(campaigns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const setItem = (i: number, patch: Partial<LiLineItemEntry>) =>
    onLineItems(lineItems.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const parents = campaigns.filter((c) => c.liCampaignId);
  return (
    <div className="li-lists" data-testid="li-lists">
      {campaignId && (
        <p className="field-hint">
          <Link to={`/manage-liveintent/campaign/${campaignId}`} className="li-manage-link">
            <ExternalLink size={14} aria-hidden /> Manage this campaign on LiveIntent
          </Link>
        </p>
      )}
      <h3 className="li-lists-title">LiveIntent campaigns</h3>
      {campaigns.length === 0 && <p className="field-hint">No LiveIntent campaign yet.</p>}
      {campaigns.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; the index is their place
        <div key={i} className="li-list-row" data-testid="li-campaign-entry">
          <TextField
            id={basicId(`liCampaigns.${i}.liCampaignId`)}
            label="Campaign ID"
            value={c.liCampaignId}
            inputMode="numeric"
            error={errors[`liCampaigns.${i}.liCampaignId`]}
            onValueChange={(v) => setCampaign(i, { liCampaignId: v.trim() })}
          />
          <TextField
            id={basicId(`liCampaigns.${i}.liCampaignName`)}
            label="Name"
            optional
            value={c.liCampaignName}
            onValueChange={(v) => setCampaign(i, { liCampaignName: v })}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove LiveIntent campaign ${c.liCampaignId || i + 1}`}
            icon={<Trash2 size={14} aria-hidden />}
            onClick={() => onCampaigns(campaigns.filter((_, j) => j !== i))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        icon={<Plus size={14} aria-hidden />}
        onClick={() => onCampaigns([...campaigns, { liCampaignId: '', liCampaignName: '', deleted: 0 }])}
        data-testid="li-add-campaign"
      >
        Add campaign
      </Button>

      <h3 className="li-lists-title">LiveIntent line items</h3>
      {lineItems.length === 0 && <p className="field-hint">No line item yet.</p>}
      {lineItems.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; the index is their place
        <div key={i} className="li-list-row li-list-row-wide" data-testid="li-lineitem-entry">
          <TextField
            id={basicId(`liLineItems.${i}.liLineItemId`)}
            label="Line item ID"
            value={l.liLineItemId}
            inputMode="numeric"
            error={errors[`liLineItems.${i}.liLineItemId`]}
            onValueChange={(v) => setItem(i, { liLineItemId: v.trim() })}
          />
          <TextField
            id={basicId(`liLineItems.${i}.liLineItemName`)}
            label="Name"
            optional
            value={l.liLineItemName}
            onValueChange={(v) => setItem(i, { liLineItemName: v })}
          />
          <TextField
            id={basicId(`liLineItems.${i}.liDailyBudget`)}
            label="Daily budget ($)"
            value={l.liDailyBudget}
            inputMode="decimal"
            error={errors[`liLineItems.${i}.liDailyBudget`]}
            onValueChange={(v) => setItem(i, { liDailyBudget: v.trim() })}
          />
          <SelectField
            id={basicId(`liLineItems.${i}.liCampaignId`)}
            label="Campaign ID"
            value={l.liCampaignId}
            error={errors[`liLineItems.${i}.liCampaignId`]}
            onValueChange={(v) => setItem(i, { liCampaignId: v })}
            options={[
              { value: '', label: 'Select a campaign' },
              ...parents.map((c) => ({
                value: c.liCampaignId,
                label: c.liCampaignName ? `${c.liCampaignId} · ${c.liCampaignName}` : c.liCampaignId,
              })),
              ...(l.liCampaignId && !parents.some((c) => c.liCampaignId === l.liCampaignId)
                ? [{ value: l.liCampaignId, label: `${l.liCampaignId} (not in the list)` }]
                : []),
            ]}
          />
          <Switch
            id={basicId(`liLineItems.${i}.status`)}
            checked={l.status === 1}
            onChange={(on) => setItem(i, { status: on ? 1 : 0 })}
            label="Active"
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove line item ${l.liLineItemId || i + 1}`}
            icon={<Trash2 size={14} aria-hidden />}
            onClick={() => onLineItems(lineItems.filter((_, j) => j !== i))}
          >
            Remove
          </Button>
        </div>
      ))}
      <Button
        size="sm"
        icon={<Plus size={14} aria-hidden />}
        onClick={() =>
          onLineItems([
            ...lineItems,
            {
              liLineItemId: '',
              liLineItemName: '',
              liDailyBudget: '',
              liCampaignId: parents[0]?.liCampaignId ?? '',
              status: 0,
              deleted: 0,
            },
          ])
        }
        data-testid="li-add-lineitem"
      >
        Add line item
      </Button>
    </div>
  );
}
