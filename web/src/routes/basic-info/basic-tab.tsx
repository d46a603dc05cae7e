// Tab 1, basic settings (spec 2 §3-§5): every campaign field, the advanced section (its open
// state remembered), the source-change effects, extra tokens and token templates.
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { CONNECTION_MESSAGES } from '../../../../schema/connections-api';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { SelectField, TextField } from '../../components/field';
import {
  basicId,
  CAMPAIGN_TYPE_OPTIONS,
  NETWORK_OPTIONS,
  PROMOTION_OPTIONS,
  REDIRECT_OPTIONS,
  TRAFFIC_SOURCE_OPTIONS,
} from './campaign-form';
import { Switch } from './editor-ui';
import { FacebookVerify } from './facebook-verify';
import { LiveIntentLists } from './liveintent-lists';
import { isPickerPlatform, PICKER_LABELS, PlatformLink } from './platform-link';
import { BlazeMeta, FacebookEvents, JeengMeta } from './source-meta';
import '../../styles/liveintent.css';
import { NAME_MAX } from '../../../../schema/validators';
import type { BasicTabProps } from './basic-tab-props';
import { TokensCard } from './tokens-card';
import { LinkedRates } from './usd-rate';

const ADVANCED_KEY = 'basicInfoAdvancedOpen';
const ADVANCED_FIELDS = [
  'keywordParameter',
  'lpTargetParam',
  'opTargetParam',
  'redirectType',
  'customConversionGoal',
  'custom_url_result',
  'li_custom_name_enabled',
  'li_conversion_image_pixel',
  'li_conversion_lp',
  'li_conversion_atc1',
  'li_conversion_atc2',
];

const MENTORSHIP_NOTE =
  'Affiliate mentorship is promoted through one specific partner only, so this campaign has no traffic source.';

function readAdvancedOpen(): boolean {
  try {
    return window.localStorage.getItem(ADVANCED_KEY) === '1';
  } catch {
    return false;
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="form-section">
      <h3 className="form-section-title">{title}</h3>
      {children}
    </div>
  );
}

export function BasicTab(props: BasicTabProps) {
  const { form, errors, onField } = props;
  const [advancedOpen, setAdvancedOpen] = useState(readAdvancedOpen);
  const advancedId = useId();
  const typeHint = CAMPAIGN_TYPE_OPTIONS.find((o) => o.value === form.campaignType)?.hint;
  const meta = {
    metainfo: form.metainfo,
    errors,
    onMetainfo: (m: Record<string, unknown>) => onField('metainfo', m),
  };

  const toggleAdvanced = () => {
    const next = !advancedOpen;
    setAdvancedOpen(next);
    try {
      window.localStorage.setItem(ADVANCED_KEY, next ? '1' : '0');
    } catch {
      // storage blocked: the section still opens for this page view
    }
  };

  // A message about an advanced field opens the section, so the message is seen at its field.
  const advancedError = ADVANCED_FIELDS.some((f) => errors[f]);
  useEffect(() => {
    if (advancedError) setAdvancedOpen(true);
  }, [advancedError]);

  return (
    <div className="ce-tab-stack">
      <Card title="Campaign" description="What the campaign is called and how it routes visitors.">
        <div className="form">
          <div className="form-grid">
            <TextField
              id={basicId('name')}
              label="Campaign name"
              value={form.name}
              onValueChange={props.onName}
              error={errors.name}
              maxLength={NAME_MAX}
            />
            <SelectField
              id={basicId('campaignType')}
              label="Campaign type"
              value={form.campaignType}
              onValueChange={props.onCampaignType}
              options={CAMPAIGN_TYPE_OPTIONS}
              error={errors.campaignType}
              hint={typeHint}
            />
          </div>
          <Switch
            id={basicId('active')}
            checked={form.active === 1}
            onChange={(on) => onField('active', on ? 1 : 0)}
            label="Active"
            description="An inactive campaign sends its visitors to the fallback URL and counts nothing."
          />
        </div>
      </Card>

      <Card title="Traffic and offer" description="Where the visitors come from and where they convert.">
        <div className="form">
          <div className="form-grid ce-grid-3">
            <SelectField
              id={basicId('trafficSource')}
              label="Traffic source"
              value={form.trafficSource}
              onValueChange={props.onTrafficSource}
              options={TRAFFIC_SOURCE_OPTIONS}
              error={
                // A verification made after the failed save answers the Facebook message.
                errors.trafficSource === CONNECTION_MESSAGES.facebookUnverified && form.metainfo.verification
                  ? undefined
                  : errors.trafficSource
              }
              disabled={form.campaignType === 'rotator'}
              hint={form.campaignType === 'rotator' ? 'Rotator campaigns have no traffic source.' : undefined}
            />
            <SelectField
              id={basicId('offerPromotion')}
              label="Offer promotion"
              value={form.offerPromotion}
              onValueChange={props.onPromotion}
              options={PROMOTION_OPTIONS}
              error={errors.offerPromotion}
            />
            <SelectField
              id={basicId('affiliate_network')}
              label="Affiliate network"
              value={form.affiliate_network}
              onValueChange={props.onNetwork}
              options={NETWORK_OPTIONS}
              error={errors.affiliate_network}
              hint={
                form.opTargetParam
                  ? `Offers receive the click id as ${form.opTargetParam}.`
                  : "Sets the URL token, keyword and click id parameters to the network's."
              }
            />
          </div>
          {form.offerPromotion === 'affiliate-mentorship' && (
            <Alert tone="info" id="mentorship-note">
              {MENTORSHIP_NOTE}
            </Alert>
          )}
          <div className="form-grid ce-grid-3">
            <TextField
              id={basicId('urlAppendToken')}
              label="URL token"
              value={form.urlAppendToken}
              onValueChange={props.onUrlToken}
              error={errors.urlAppendToken}
              hint="The campaign URL's parameter for the ad or creative id."
              spellCheck={false}
            />
            <TextField
              id={basicId('cpc')}
              label="Cost per click ($)"
              optional
              value={form.cpc}
              onValueChange={(v) => onField('cpc', v)}
              error={errors.cpc}
              inputMode="decimal"
              placeholder="0.00"
              hint="Counts as spend when no cost is imported."
            />
            <TextField
              id={basicId('custom_url')}
              label="Fallback URL"
              optional
              value={form.custom_url}
              onValueChange={(v) => onField('custom_url', v.trim())}
              error={errors.custom_url}
              placeholder="https://example.com/"
              hint="Where visitors go when nothing can serve them."
              spellCheck={false}
            />
          </div>

          {form.campaignType === 'rotator' && (
            <Section title="Rotator">
              <div className="form-grid">
                <TextField
                  id={basicId('rotator_base_url')}
                  label="Rotator base URL"
                  optional
                  value={form.rotator_base_url}
                  onValueChange={(v) => onField('rotator_base_url', v.trim())}
                  error={errors.rotator_base_url}
                  spellCheck={false}
                />
                <div className="ce-switch-cell">
                  <Switch
                    id={basicId('rotator_requires_signed_contract')}
                    checked={form.rotator_requires_signed_contract === 1}
                    onChange={(on) => onField('rotator_requires_signed_contract', on ? 1 : 0)}
                    label="Participants must sign a contract"
                  />
                </div>
              </div>
            </Section>
          )}

          {form.trafficSource === 'facebook' && (
            <Section title="Facebook">
              <FacebookVerify metainfo={form.metainfo} onMetainfo={(m) => onField('metainfo', m)} />
              <FacebookEvents {...meta} />
            </Section>
          )}

          {form.trafficSource === 'blaze' && (
            <Section title="Blaze">
              <BlazeMeta {...meta} />
            </Section>
          )}

          {form.trafficSource === 'jeeng' && (
            <Section title="Jeeng">
              <JeengMeta {...meta} />
            </Section>
          )}

          {isPickerPlatform(form.trafficSource) && (
            <Section title={`Link to ${PICKER_LABELS[form.trafficSource]}`}>
              <PlatformLink campaignId={props.campaignId ?? null} platform={form.trafficSource} />
            </Section>
          )}

          {props.campaignId != null && (
            <LinkedRates
              campaignId={props.campaignId}
              except={isPickerPlatform(form.trafficSource) ? form.trafficSource : null}
            />
          )}

          {form.trafficSource === 'liveintent' && (
            <Section title="LiveIntent">
              <LiveIntentLists
                campaignId={props.campaignId ?? null}
                campaigns={form.liCampaigns}
                lineItems={form.liLineItems}
                errors={errors}
                onCampaigns={(next) => onField('liCampaigns', next)}
                onLineItems={(next) => onField('liLineItems', next)}
              />
            </Section>
          )}
        </div>
      </Card>

      <Card
        title="Postback to the traffic source"
        description="Tell the traffic source about each conversion."
      >
        <div className="form">
          <Switch
            id={basicId('postback_enabled')}
            checked={form.postback_enabled === 1}
            onChange={(on) => onField('postback_enabled', on ? 1 : 0)}
            label="Send conversions to the traffic source"
          />
          {form.postback_enabled === 1 && (
            <TextField
              id={basicId('postback')}
              label="Traffic source postback URL"
              value={form.postback}
              onValueChange={(v) => onField('postback', v.trim())}
              error={errors.postback}
              placeholder="https://source.example/postback?click={ad_click_id}&payout={payout}"
              hint="Macros: {clickid}, {payout}, {txid}, {event} and your extra tokens by parameter name."
              spellCheck={false}
            />
          )}
        </div>
      </Card>

      <TokensCard {...props} />

      <Card
        className="ce-advanced"
        title={
          <button
            type="button"
            className="ce-advanced-toggle"
            aria-expanded={advancedOpen}
            aria-controls={advancedId}
            onClick={toggleAdvanced}
            data-testid="advanced-toggle"
          >
            <ChevronDown size={16} aria-hidden className="ce-advanced-chevron" />
            Advanced settings
          </button>
        }
        description="Parameter names, redirect mode and conversion names. The defaults suit most campaigns."
      >
        {advancedOpen ? (
          <div className="form" id={advancedId}>
            <div className="form-grid ce-grid-3">
              <TextField
                id={basicId('keywordParameter')}
                label="Keyword parameter"
                value={form.keywordParameter}
                onValueChange={(v) => onField('keywordParameter', v.trim())}
                error={errors.keywordParameter}
                hint="The campaign URL's parameter for the keyword."
                spellCheck={false}
              />
              <TextField
                id={basicId('lpTargetParam')}
                label="Landing page click id parameter"
                optional
                value={form.lpTargetParam}
                onValueChange={(v) => onField('lpTargetParam', v.trim())}
                error={errors.lpTargetParam}
                placeholder="clickid"
                spellCheck={false}
              />
              <TextField
                id={basicId('opTargetParam')}
                label="Offer click id parameter"
                optional
                value={form.opTargetParam}
                onValueChange={(v) => onField('opTargetParam', v.trim())}
                error={errors.opTargetParam}
                placeholder="Set by the affiliate network"
                spellCheck={false}
              />
              <SelectField
                id={basicId('redirectType')}
                label="Redirect"
                value={form.redirectType}
                onValueChange={(v) => onField('redirectType', v)}
                options={REDIRECT_OPTIONS}
                error={errors.redirectType}
              />
              <TextField
                id={basicId('customConversionGoal')}
                label="Conversion event"
                value={form.customConversionGoal}
                onValueChange={(v) => onField('customConversionGoal', v.trim())}
                error={errors.customConversionGoal}
                hint="The postback event that counts as the conversion."
                spellCheck={false}
              />
              <TextField
                id={basicId('custom_url_result')}
                label="Custom URL result"
                optional
                value={form.custom_url_result}
                onValueChange={(v) => onField('custom_url_result', v)}
                error={errors.custom_url_result}
              />
            </div>
            <Section title="Conversion names">
              <Switch
                id={basicId('li_custom_name_enabled')}
                checked={form.li_custom_name_enabled === 1}
                onChange={(on) => onField('li_custom_name_enabled', on ? 1 : 0)}
                label="Use custom conversion names"
                description="Name the conversions the image pixel reports, and the landing page and add-to-cart events."
              />
              {form.li_custom_name_enabled === 1 && (
                <div className="form-grid">
                  <TextField
                    id={basicId('li_conversion_image_pixel')}
                    label="Conversion image pixel names"
                    value={form.li_conversion_image_pixel}
                    onValueChange={(v) => onField('li_conversion_image_pixel', v)}
                    error={errors.li_conversion_image_pixel}
                    hint="Comma-separated, e.g. purchase,upsell."
                  />
                  <TextField
                    id={basicId('li_conversion_lp')}
                    label="Landing page conversion name"
                    optional
                    value={form.li_conversion_lp}
                    onValueChange={(v) => onField('li_conversion_lp', v)}
                    error={errors.li_conversion_lp}
                  />
                  <TextField
                    id={basicId('li_conversion_atc1')}
                    label="Add-to-cart 1 name"
                    optional
                    value={form.li_conversion_atc1}
                    onValueChange={(v) => onField('li_conversion_atc1', v)}
                    error={errors.li_conversion_atc1}
                  />
                  <TextField
                    id={basicId('li_conversion_atc2')}
                    label="Add-to-cart 2 name"
                    optional
                    value={form.li_conversion_atc2}
                    onValueChange={(v) => onField('li_conversion_atc2', v)}
                    error={errors.li_conversion_atc2}
                  />
                </div>
              )}
            </Section>
          </div>
        ) : (
          <button type="button" className="ce-advanced-summary" onClick={toggleAdvanced}>
            Keyword parameter <code>{form.keywordParameter || 'keyword'}</code> ·{' '}
            {REDIRECT_OPTIONS.find((o) => o.value === form.redirectType)?.label ?? '302 redirect'} ·
            conversion event <code>{form.customConversionGoal || 'purchase'}</code>
          </button>
        )}
      </Card>
    </div>
  );
}
