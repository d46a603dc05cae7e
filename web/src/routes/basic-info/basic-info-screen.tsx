// The campaign editor, /basic-info (new) and /basic-info/:id (spec 2 §2-§9). Tab 1 edits the
// campaign itself; moving to any other tab validates it and saves it when it changed (a new
// campaign is created and the URL replaced with its id). The other tabs save on their own.
import { Save } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate, useParams, useSearchParams } from 'react-router';
import { mutate as globalMutate } from 'swr';
import {
  addCampaignSchema,
  CAMPAIGN_FIELD_ORDER,
  CAMPAIGN_MESSAGES,
  editCampaignSchema,
} from '../../../../schema/campaign-api';
import type { CampaignType } from '../../../../schema/campaigns';
import { OPERATION_MESSAGES } from '../../../../schema/pages-operations-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm-dialog';
import { failureText } from '../../components/confirmed-action';
import { PageSpinner } from '../../components/spinner';
import { TabBar } from '../../components/tab-bar';
import { notify } from '../../components/toaster';
import { zodErrors } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';
import { rememberNewCampaign } from '../campaigns/new-campaign';
import '../../styles/campaign-editor.css';
import '../../styles/campaign-editor-traffic.css';
import {
  addCampaign,
  applyTokenTemplate,
  editCampaign,
  listTokens,
  removeTokenTemplate,
  useCampaign,
} from './api';
import { BannersTab } from './banners-tab';
import { BasicTab } from './basic-tab';
import { DraftNotice, useCampaignDraft } from './campaign-draft';
import {
  affiliateNetworkFields,
  BASIC_FORM,
  basicId,
  type CampaignForm,
  cleanToken,
  formFromDetail,
  newCampaignForm,
  payloadOf,
  SOURCE_URL_TOKENS,
  snapshotOf,
  urlTokenFromName,
} from './campaign-form';
import { EditorHeader, EditorLoadError } from './editor-header';
import { moveTabFocus, TABS, type TabKey, visibleTabs } from './editor-tabs';
import { LinksTab } from './links-tab';
import type { OptimizationFields } from './optimization-card';
import { LandingTab, OfferTab } from './pages-tabs';
import { OptionsTab, PathsTab } from './paths-options-tabs';
import { TrafficTab } from './traffic-tab';

export function BasicInfoScreen() {
  const params = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const confirm = useConfirm();
  const campaignId = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const badId = params.id !== undefined && campaignId === null;
  const dirParam = Number(search.get('dir'));
  const detail = useCampaign(campaignId);

  const [form, setFormState] = useState<CampaignForm | null>(() =>
    campaignId ? null : newCampaignForm(Number.isInteger(dirParam) && dirParam > 0 ? dirParam : null),
  );
  const formRef = useRef(form);
  const setForm = useCallback((next: CampaignForm) => {
    formRef.current = next;
    setFormState(next);
  }, []);
  // What the server has (or, for a new campaign, the untouched defaults): the form is dirty when it differs.
  const [snapshot, setSnapshot] = useState(() => (form ? snapshotOf(form) : ''));
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [urlTokenTouched, setUrlTokenTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [templateBusy, setTemplateBusy] = useState<'apply' | 'remove' | null>(null);
  const savingRef = useRef(false);
  const leavingRef = useRef(false);

  // The loaded campaign becomes the form, once per campaign (a refetch never clobbers edits).
  useEffect(() => {
    if (campaignId && detail.data && detail.data.campaignId === campaignId && loadedFor !== campaignId) {
      const next = formFromDetail(detail.data);
      setForm(next);
      setSnapshot(snapshotOf(next));
      setLoadedFor(campaignId);
      setErrors({});
    }
  }, [campaignId, detail.data, loadedFor, setForm]);

  // /basic-info again after an existing campaign (the sidebar's new campaign): a fresh form. Not
  // while the campaign just created is on its way to /basic-info/{id}: the URL still has no id
  // then, and a fresh form would hide its Options or Banners tab until the detail reloaded.
  const createdRef = useRef<number | null>(null);
  useEffect(() => {
    if (campaignId && campaignId === createdRef.current) createdRef.current = null;
    if (!campaignId && loadedFor !== null && loadedFor !== createdRef.current) {
      const fresh = newCampaignForm(null);
      setForm(fresh);
      setSnapshot(snapshotOf(fresh));
      setLoadedFor(null);
      setUrlTokenTouched(false);
      setErrors({});
    }
  }, [campaignId, loadedFor, setForm]);

  const isNew = campaignId === null;
  const dirty = form !== null && snapshotOf(form) !== snapshot;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const { draft, clear: clearDraft } = useCampaignDraft(isNew, form, dirty, setForm);

  const tabs = form ? visibleTabs(form.campaignType, form.trafficSource) : (['basic'] as TabKey[]);
  const requested = (search.get('tab') as TabKey | null) ?? 'basic';
  const tab: TabKey = tabs.includes(requested) ? requested : 'basic';

  useDocumentTitle(form ? `${form.name || 'Campaign'} · editor` : 'Campaign editor');

  // Unsaved edits of the basic tab are not lost by leaving the screen unawares.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && !leavingRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm({
      title: 'Leave without saving?',
      message: 'The campaign has changes that are not saved yet. Leave and lose them?',
      confirmLabel: 'Leave',
      cancelLabel: 'Stay',
      danger: true,
    }).then((ok) => {
      if (!ok) return blocker.reset();
      clearDraft();
      blocker.proceed();
    });
  }, [blocker, confirm, clearDraft]);
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (dirtyRef.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  // ---- field changes and the source effects of spec 2 §4 -----------------------------------

  const patch = useCallback(
    (values: Partial<CampaignForm>) => {
      const current = formRef.current;
      if (!current) return;
      setForm({ ...current, ...values });
      setErrors((e) => {
        const next = { ...e };
        for (const key of Object.keys(values)) delete next[key];
        // A list's row messages (liCampaigns.0.liCampaignId ...) go with any change to the list.
        for (const key of Object.keys(next)) if (key.split('.')[0] in values) delete next[key];
        return next;
      });
    },
    [setForm],
  );

  const onField = useCallback(
    <K extends keyof CampaignForm>(name: K, value: CampaignForm[K]) => {
      const values = { [name]: value } as Partial<CampaignForm>;
      // The new campaign's URL token follows its name and the keyword parameter (spec 2 §4).
      if (name === 'keywordParameter' && isNew && !urlTokenTouched && formRef.current) {
        values.urlAppendToken = urlTokenFromName(formRef.current.name, String(value));
      }
      patch(values);
    },
    [patch, isNew, urlTokenTouched],
  );

  const onName = (name: string) => {
    const current = formRef.current;
    if (!current) return;
    const values: Partial<CampaignForm> = { name };
    if (isNew && !urlTokenTouched) values.urlAppendToken = urlTokenFromName(name, current.keywordParameter);
    patch(values);
  };

  const onUrlToken = (value: string) => {
    setUrlTokenTouched(true);
    patch({ urlAppendToken: value.trim() });
  };

  const onTrafficSource = async (source: string) => {
    const current = formRef.current;
    if (!current) return;
    const values: Partial<CampaignForm> = { trafficSource: source };
    if (source === 'liveintent' && current.offerPromotion === 'affiliate-mentorship')
      values.offerPromotion = 'other';
    if (source === 'mediago' && isNew) values.urlAppendToken = SOURCE_URL_TOKENS.mediago.token;
    patch(values);
    if (source === 'mediago' && isNew) setUrlTokenTouched(true);
    if (source === 'facebook' || source === 'taboola') {
      const defaults = SOURCE_URL_TOKENS[source];
      const name = source === 'facebook' ? 'Facebook' : 'Taboola';
      const ok = await confirm({
        title: `Apply the ${name} defaults?`,
        message: `The URL token becomes ${defaults.token}, to be filled with ${name}'s ${defaults.macro} macro.`,
        confirmLabel: 'Apply defaults',
        cancelLabel: 'Keep mine',
      });
      if (ok) {
        patch({ urlAppendToken: defaults.token });
        setUrlTokenTouched(true);
      }
    }
  };

  const onPromotion = (value: string) => {
    // Affiliate mentorship runs through one partner: the traffic source is cleared (spec 2 §4).
    patch(
      value === 'affiliate-mentorship'
        ? { offerPromotion: value, trafficSource: '' }
        : { offerPromotion: value },
    );
  };

  const onNetwork = (network: string) => {
    const values = affiliateNetworkFields(network);
    patch(values);
    // The network chose the URL token: a later rename no longer rebuilds it from the name.
    if (values.urlAppendToken) setUrlTokenTouched(true);
  };

  const onCampaignType = (value: string) => {
    const type = value as CampaignType;
    patch(type === 'rotator' ? { campaignType: type, trafficSource: '' } : { campaignType: type });
  };

  // ---- saving ---------------------------------------------------------------------------

  const showBasicErrors = (found: Record<string, string | undefined>) => {
    setErrors(found);
    const [field, message] = Object.entries(found).find(([, m]) => m) ?? [];
    if (message) notify.error(message);
    if (field && field !== 'campaignId') {
      if (tab !== 'basic') setSearch({ tab: 'basic' }, { replace: true });
      // After the tab (and the advanced section, for its fields) has rendered.
      setTimeout(() => {
        const el =
          document.getElementById(basicId(field)) ??
          document.querySelector(`[data-field="${basicId(field)}"]`);
        (el as HTMLElement | null)?.focus?.();
        el?.scrollIntoView({ block: 'center' });
      }, 30);
    }
  };

  /**
   * Validates and saves the basic tab when it changed; answers the campaign id, or null when it
   * could not be saved (the messages are shown). A new campaign moves to /basic-info/{id}.
   */
  const save = async ({ nextTab, quiet = false }: { nextTab?: TabKey; quiet?: boolean } = {}) => {
    const current = formRef.current;
    if (!current || savingRef.current) return null;
    const payload = payloadOf(current, campaignId);
    const checked = (campaignId ? editCampaignSchema : addCampaignSchema).safeParse(payload);
    if (!checked.success) {
      showBasicErrors(zodErrors(checked.error, CAMPAIGN_FIELD_ORDER));
      return null;
    }
    if (campaignId && snapshotOf(current) === snapshot) return campaignId;
    savingRef.current = true;
    setSaving(true);
    try {
      const answer = campaignId ? await editCampaign(payload) : await addCampaign(payload);
      const id = answer.campaign.campaignData.campaignId;
      // The tokens come back with their ids, so the next save updates rather than re-adds them.
      const tokens = (await listTokens(id)).result.map(cleanToken);
      const next = { ...(formRef.current ?? current), extratokens: tokens };
      setForm(next);
      setSnapshot(snapshotOf(next));
      setErrors({});
      if (!quiet) notify.success(campaignId ? CAMPAIGN_MESSAGES.campaignUpdated : answer.message);
      if (!campaignId) {
        clearDraft();
        rememberNewCampaign(id);
        createdRef.current = id;
        setLoadedFor(id);
        leavingRef.current = true;
        navigate(`/basic-info/${id}${nextTab && nextTab !== 'basic' ? `?tab=${nextTab}` : ''}`, {
          replace: true,
        });
        leavingRef.current = false;
      }
      void globalMutate([`campaign?campaignId=${id}`, 'editor']);
      return id;
    } catch (err) {
      if (err instanceof ApiError && err.isValidation) {
        // A refused switch (the $1500 rule) shows the state that is saved, not an unsaved change
        // the server will never take (issue 27).
        if (err.fieldErrors.active && formRef.current) {
          const saved = (JSON.parse(snapshot) as { active?: number }).active;
          if (saved !== undefined) setForm({ ...formRef.current, active: saved });
        }
        showBasicErrors(err.fieldErrors);
      } else notify.error(failureText(err));
      return null;
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  };

  const goTab = async (next: TabKey) => {
    if (next === tab) return;
    if (next !== 'basic') {
      const id = await save({ nextTab: next });
      if (!id) return;
      if (!campaignId) return; // the new campaign's URL already carries the tab
    }
    setSearch(next === 'basic' ? {} : { tab: next });
    if (next === 'links' && campaignId) void detail.mutate();
  };

  // ---- token templates: apply or remove, reload the tokens, then save (spec 2 §4) ---------

  const runTemplate = async (kind: 'apply' | 'remove', key: string) => {
    const id = await save({ quiet: true });
    if (!id) return;
    setTemplateBusy(kind);
    try {
      const body = { campaignid: id, template: key, campaigntype: formRef.current?.campaignType ?? '' };
      await (kind === 'apply' ? applyTokenTemplate(body) : removeTokenTemplate(body));
      const tokens = (await listTokens(id)).result.map(cleanToken);
      const current = formRef.current;
      if (current) {
        const next = { ...current, extratokens: tokens };
        await editCampaign(payloadOf(next, id));
        setForm(next);
        setSnapshot(snapshotOf(next));
      }
      notify.success(
        kind === 'apply' ? OPERATION_MESSAGES.templatesApplied : OPERATION_MESSAGES.tokensRemoved,
      );
    } catch (err) {
      if (err instanceof ApiError && err.body.message === OPERATION_MESSAGES.tokensLimit) {
        notify.error(OPERATION_MESSAGES.tokensLimit);
      } else {
        notify.error(
          kind === 'apply'
            ? 'Failed to apply token templates! Try again.'
            : 'Failed to remove tokens! Try again.',
        );
      }
    } finally {
      setTemplateBusy(null);
    }
  };

  const onOptimizationSaved = (fields: OptimizationFields) => {
    const current = formRef.current;
    if (!current) return;
    const next = { ...current, ...fields };
    setForm(next);
    // Saved already by their own calls: they do not make the basic tab dirty.
    try {
      const saved = JSON.parse(snapshot) as Record<string, unknown>;
      setSnapshot(JSON.stringify({ ...saved, ...fields }));
    } catch {
      setSnapshot(snapshotOf(next));
    }
  };

  // ---- render -----------------------------------------------------------------------------

  if (badId || (campaignId && detail.error && !detail.data)) {
    return <EditorLoadError campaignId={badId ? null : campaignId} error={detail.error} />;
  }
  if (!form) return <PageSpinner label="Loading the campaign…" />;

  const tabProps = campaignId
    ? {
        campaignId,
        campaignType: form.campaignType,
        trafficSource: form.trafficSource,
        agents: detail.data?.agents ?? [],
        onGoTo: (t: 'paths' | 'options') => void goTab(t),
      }
    : null;

  return (
    <div className="page ce-page">
      <EditorHeader
        campaignId={campaignId}
        form={form}
        dirty={dirty}
        saveButton={
          tab === 'basic' && (
            <Button
              variant="primary"
              icon={<Save size={16} aria-hidden />}
              busy={saving}
              onClick={() => void save()}
              data-testid="campaign-save"
            >
              {isNew ? 'Create campaign' : 'Save'}
            </Button>
          )
        }
      />

      <TabBar
        tabs={TABS.filter((t) => tabs.includes(t.key))}
        selected={tab}
        onSelect={(key) => void goTab(key)}
        label="Campaign editor"
        idPrefix="tab"
        panelId="ce-tabpanel"
        className="ce-tabs"
        tabClassName="ce-tab"
        onKeyDown={moveTabFocus}
      />

      <div id="ce-tabpanel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="ce-tabpanel">
        {tab === 'basic' && isNew && <DraftNotice draft={draft} />}
        {tab === 'basic' && (
          <form
            id={BASIC_FORM}
            noValidate
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              void save();
            }}
          >
            <BasicTab
              campaignId={campaignId}
              form={form}
              errors={errors}
              isNew={isNew}
              onField={onField}
              onName={onName}
              onUrlToken={onUrlToken}
              onTrafficSource={(v) => void onTrafficSource(v)}
              onPromotion={onPromotion}
              onNetwork={onNetwork}
              onCampaignType={onCampaignType}
              templateBusy={templateBusy}
              onApplyTemplate={(key) => void runTemplate('apply', key)}
              onRemoveTemplate={(key) => void runTemplate('remove', key)}
            />
            <div className="ce-savebar">
              <span className="field-hint">
                {isNew
                  ? 'The campaign is created when you save it or open another tab.'
                  : dirty
                    ? 'You have unsaved changes. They are also saved when you open another tab.'
                    : 'All changes saved.'}
              </span>
              <Button type="submit" variant="primary" icon={<Save size={16} aria-hidden />} busy={saving}>
                {isNew ? 'Create campaign' : 'Save changes'}
              </Button>
            </div>
          </form>
        )}
        {tab === 'landing' && tabProps && (
          <LandingTab {...tabProps} optimization={form} onOptimizationSaved={onOptimizationSaved} />
        )}
        {tab === 'offer' && tabProps && <OfferTab {...tabProps} />}
        {tab === 'links' &&
          (detail.data ? <LinksTab detail={detail.data} /> : <PageSpinner label="Loading the links…" />)}
        {tab === 'paths' && tabProps && (
          <PathsTab campaignId={tabProps.campaignId} agents={tabProps.agents} />
        )}
        {tab === 'options' && tabProps && <OptionsTab campaignId={tabProps.campaignId} />}
        {tab === 'banners' && campaignId && <BannersTab campaignId={campaignId} />}
        {tab === 'traffic' && campaignId && (
          <TrafficTab campaignId={campaignId} trafficSource={form.trafficSource} />
        )}
      </div>
      <span className="sr-only" aria-live="polite">
        {saving ? 'Saving the campaign' : ''}
      </span>
    </div>
  );
}
