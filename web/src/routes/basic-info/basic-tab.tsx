// Tab 1, basic settings (spec 2 §3-§5): every campaign field, the advanced section (its open
// state remembered), the source-change effects, extra tokens and token templates.
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { CONNECTION_MESSAGES } from '../../../../schema/connections-api';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { SelectField, TextField } from '../../components/field';
import { draftFields, type TextKeys } from '../../lib/draft-field';
import {
  basicId,
  CAMPAIGN_TYPE_OPTIONS,
  type CampaignForm,
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

/** The parameters that carry the click id to the landing pages and to the offers. */
const CLICK_ID_FIELDS = [
  { key: 'lpTargetParam', label: 'Landing page click id parameter', placeholder: 'clickid' },
  { key: 'opTargetParam', label: 'Offer click id parameter', placeholder: 'Set by the affiliate network' },
] as const;

const MENTORSHIP_NOTE =
  'Affiliate mentorship is promoted through one specific partner only, so this campaign has no traffic source.';

function readAdvancedOpen(): boolean {
  try {
    return window.localStorage.getItem(ADVANCED_KEY) === '1';
  } catch {
    return false;
  }
}

type TextKey = TextKeys<CampaignForm>;
type FlagKey = { [K in keyof CampaignForm]: CampaignForm[K] extends number ? K : never }[keyof CampaignForm];

/**
 * The props that bind a field of the tab to the form: `field(key)` a text or select field (its
 * value trimmed with 'trim', or changed through the tab's own handler where a change has
 * effects), `flag(key)` a 0/1 switch. Ids are `basic-<key>`, which error messages focus.
 */
function formBindings({ form, errors, onField }: BasicTabProps) {
  const draft = draftFields(form, onField, errors);
  return {
    field: (key: TextKey, change?: 'trim' | ((value: string) => void)) => {
      const bound = draft(key, basicId(key));
      if (change === 'trim') return { ...bound, onValueChange: (v: string) => bound.onValueChange(v.trim()) };
      return change ? { ...bound, onValueChange: change } : bound;
    },
    flag: (key: FlagKey) => ({
      id: basicId(key),
      checked: form[key] === 1,
      onChange: (on: boolean) => onField(key, on ? 1 : 0),
    }),
  };
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
  const { field, flag } = formBindings(props);
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
            <TextField {...field('name', props.onName)} label="Campaign name" maxLength={NAME_MAX} />
            <SelectField
              {...field('campaignType', props.onCampaignType)}
              label="Campaign type"
              options={CAMPAIGN_TYPE_OPTIONS}
              hint={typeHint}
            />
          </div>
          <Switch
            {...flag('active')}
            label="Active"
            description="An inactive campaign sends its visitors to the fallback URL and counts nothing."
          />
        </div>
      </Card>

      <Card title="Traffic and offer" description="Where the visitors come from and where they convert.">
        <div className="form">
          <div className="form-grid ce-grid-3">
            <SelectField
              {...field('trafficSource', props.onTrafficSource)}
              label="Traffic source"
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
              {...field('offerPromotion', props.onPromotion)}
              label="Offer promotion"
              options={PROMOTION_OPTIONS}
            />
            <SelectField
              {...field('affiliate_network', props.onNetwork)}
              label="Affiliate network"
              options={NETWORK_OPTIONS}
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
              {...field('urlAppendToken', props.onUrlToken)}
              label="URL token"
              hint="The campaign URL's parameter for the ad or creative id."
              spellCheck={false}
            />
            <TextField
              {...field('cpc')}
              label="Cost per click ($)"
              optional
              inputMode="decimal"
              placeholder="0.00"
              hint="Counts as spend when no cost is imported."
            />
            <TextField
              {...field('custom_url', 'trim')}
              label="Fallback URL"
              optional
              placeholder="https://example.com/"
              hint="Where visitors go when nothing can serve them."
              spellCheck={false}
            />
          </div>

          {form.campaignType === 'rotator' && (
            <Section title="Rotator">
              <div className="form-grid">
                <TextField
                  {...field('rotator_base_url', 'trim')}
                  label="Rotator base URL"
                  optional
                  spellCheck={false}
                />
                <div className="ce-switch-cell">
                  <Switch
                    {...flag('rotator_requires_signed_contract')}
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
          <Switch {...flag('postback_enabled')} label="Send conversions to the traffic source" />
          {form.postback_enabled === 1 && (
            <TextField
              {...field('postback', 'trim')}
              label="Traffic source postback URL"
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
                {...field('keywordParameter', 'trim')}
                label="Keyword parameter"
                hint="The campaign URL's parameter for the keyword."
                spellCheck={false}
              />
              {CLICK_ID_FIELDS.map(({ key, label, placeholder }) => (
                <TextField
                  key={key}
                  {...field(key, 'trim')}
                  label={label}
                  optional
                  placeholder={placeholder}
                  spellCheck={false}
                />
              ))}
              <SelectField {...field('redirectType')} label="Redirect" options={REDIRECT_OPTIONS} />
              <TextField
                {...field('customConversionGoal', 'trim')}
                label="Conversion event"
                hint="The postback event that counts as the conversion."
                spellCheck={false}
              />
              <TextField {...field('custom_url_result')} label="Custom URL result" optional />
            </div>
            <Section title="Conversion names">
              <Switch
                {...flag('li_custom_name_enabled')}
                label="Use custom conversion names"
                description="Name the conversions the image pixel reports, and the landing page and add-to-cart events."
              />
              {form.li_custom_name_enabled === 1 && (
                <div className="form-grid">
                  <TextField
                    {...field('li_conversion_image_pixel')}
                    label="Conversion image pixel names"
                    hint="Comma-separated, e.g. purchase,upsell."
                  />
                  <TextField {...field('li_conversion_lp')} label="Landing page conversion name" optional />
                  <TextField {...field('li_conversion_atc1')} label="Add-to-cart 1 name" optional />
                  <TextField {...field('li_conversion_atc2')} label="Add-to-cart 2 name" optional />
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
