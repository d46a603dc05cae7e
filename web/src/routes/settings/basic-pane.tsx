import { Save } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { mutate } from 'swr';
import {
  basicSettingsSchema,
  FAVICON_EXTENSIONS,
  FAVICON_MAX_BYTES,
  LOGO_EXTENSIONS,
  LOGO_MAX_BYTES,
  SETTINGS_MESSAGES as M,
  ROUTE_KEYS,
  ROUTE_LABELS,
  type RouteKey,
  trimRoute,
  UPDATE_SETTING_FIELD_ORDER,
} from '../../../../schema/settings-api';
import { TARGET_PLACEHOLDER } from '../../../../schema/tools-api';
import { ApiError } from '../../api/client';
import { paths } from '../../api/endpoints';
import { useTimezones } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { CodeField, EmailField, Field, SelectField, TextField } from '../../components/field';
import { LogoMark, Wordmark } from '../../components/logo';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import { type InstallationSettings, SETTINGS_PATH, updateSetting } from './api';
import { ImagePicker, type ImageSpec, useImageChoice } from './image-picker';

const FORM = 'settings';
const id = (name: string) => `${FORM}-${name}`;

const LOGO: ImageSpec = {
  label: 'Logo',
  variant: 'logo',
  extensions: LOGO_EXTENSIONS,
  maxBytes: LOGO_MAX_BYTES,
  typeMessage: M.logoType,
  sizeMessage: M.logoSize,
  hint: 'PNG, JPG or JPEG up to 2 MB; about 180 × 28 pixels shows best.',
};

const FAVICON: ImageSpec = {
  label: 'Favicon',
  variant: 'favicon',
  extensions: FAVICON_EXTENSIONS,
  maxBytes: FAVICON_MAX_BYTES,
  typeMessage: M.faviconType,
  sizeMessage: M.faviconSize,
  hint: 'PNG or ICO up to 512 KB. Without one, the built-in icon is used.',
};

const ROUTE_HINTS: Record<RouteKey, string> = {
  route_main: 'The ad link: /{route}/{campaign id}',
  route_click: 'The landing page’s link to the offer',
  route_image: 'Conversion pixel (image)',
  route_iframe: 'Conversion pixel (iframe)',
  route_script: 'Conversion and direct-tracking script',
  route_postback: 'Server-to-server postback from the network',
};

function initialValues(s: InstallationSettings) {
  return {
    baseUrl: s.baseUrl,
    email: s.email,
    title: s.title,
    timeZone: s.timeZone,
    customDomain: s.customDomain,
    // The tracking routes, as ROUTE_KEYS lists them.
    ...(Object.fromEntries(ROUTE_KEYS.map((key) => [key, s[key]])) as Record<RouteKey, string>),
  };
}

/** The basic pane: installation, branding and the tracking routes, saved together. */
export function BasicPane({ settings }: { settings: InstallationSettings }) {
  const form = useForm(FORM, initialValues(settings));
  const { values, setValue, errors, setErrors, formError, setFormError, busy } = form;
  const { data: zones } = useTimezones();
  const logo = useImageChoice();
  const favicon = useImageChoice();
  const [progress, setProgress] = useState<number | null>(null);

  const zoneOptions = useMemo(() => {
    const list = zones?.length ? zones : [values.timeZone];
    const all = list.includes(values.timeZone) ? list : [values.timeZone, ...list];
    return all.map((z) => ({ value: z, label: z.replace(/_/g, ' ') }));
  }, [zones, values.timeZone]);

  const origin = (() => {
    const domain = values.customDomain
      .trim()
      .replace(/^https?:\/\//i, '')
      .replace(/\/.*$/, '');
    if (domain) return `https://${domain}`;
    return values.baseUrl.trim().replace(/\/+$/, '') || 'https://your-domain';
  })();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (logo.error || favicon.error) return;
    const checked = form.check(basicSettingsSchema, UPDATE_SETTING_FIELD_ORDER);
    if (!checked.ok) return;
    void form.submit(async () => {
      setProgress(logo.file || favicon.file ? 0 : null);
      try {
        const answer = await updateSetting(
          {
            ...values,
            logo: logo.file,
            favicon: favicon.file,
            resetLogo: logo.reset && !logo.file ? '1' : undefined,
            resetFavicon: favicon.reset && !favicon.file ? '1' : undefined,
          },
          ({ loaded, total }) => setProgress(total ? loaded / total : 0),
        );
        notify.success(answer.message);
        logo.clear();
        favicon.clear();
        // The header, the sidebar and the tab icon read GET /api/logo.
        await Promise.all([mutate(paths.logo), mutate(SETTINGS_PATH)]);
      } catch (err) {
        // Field messages go under their fields (the images' under the pickers); the first is
        // toasted too, since the field may be scrolled out of view (spec 2 §8).
        const message = form.applyServerError(err, UPDATE_SETTING_FIELD_ORDER);
        const fields = err instanceof ApiError ? err.fieldErrors : {};
        logo.setError(fields.logo ?? null);
        favicon.setError(fields.favicon ?? null);
        if (message) setFormError(message);
        notify.error(
          err instanceof ApiError ? err.firstMessage : (message ?? 'The settings could not be saved.'),
        );
      } finally {
        setProgress(null);
      }
    });
  };

  return (
    <form id={FORM} className="settings-form" onSubmit={onSubmit} noValidate>
      <Card
        id="general"
        title="Installation"
        description="Where this tracker lives and how it introduces itself."
      >
        <div className="form">
          {formError && <Alert>{formError}</Alert>}
          <div className="form-grid">
            <CodeField
              {...form.field('baseUrl')}
              label="Base URL"
              hint="The address this installation answers on, e.g. https://track.example.com"
              inputMode="url"
            />
            <EmailField
              {...form.field('email')}
              hint="Where the installation’s notices go."
              autoComplete="off"
            />
            <TextField
              {...form.field('title')}
              label="Title"
              hint="Shown in the header and on the sign-in page."
              autoComplete="off"
            />
            <SelectField
              {...form.field('timeZone')}
              label="Time zone"
              options={zoneOptions}
              hint="Statistics days begin at midnight in this zone."
            />
            <CodeField
              {...form.field('customDomain')}
              label="Custom tracking domain"
              optional
              hint="A domain of yours pointed at this tracker; links use it instead of the base URL."
              placeholder="track.yourbrand.com"
            />
            <Field id={id('currentDomain')} label="Current domain" hint="The domain this page was opened on.">
              <input
                id={id('currentDomain')}
                className="input"
                value={settings.currentDomain}
                readOnly
                aria-readonly
              />
            </Field>
          </div>
        </div>
      </Card>

      <Card
        id="branding"
        title="Branding"
        description="Your logo in the header and sidebar, your icon in the browser tab."
      >
        <div className="branding-grid">
          <ImagePicker
            id={id('logo')}
            {...LOGO}
            current={settings.logo}
            choice={logo}
            fallback={<Wordmark title={values.title || 'Edge Tracker'} size={24} />}
          />
          <ImagePicker
            id={id('favicon')}
            {...FAVICON}
            current={settings.favicon}
            choice={favicon}
            fallback={<LogoMark size={32} />}
          />
        </div>
      </Card>

      <Card
        id="routes"
        title="Tracking routes"
        description="The paths of your tracking links. Changing one changes every link you have handed out, so change them before a campaign goes live."
      >
        <div className="routes-grid">
          {ROUTE_KEYS.map((key) => (
            <Field
              key={key}
              id={id(key)}
              label={ROUTE_LABELS[key]}
              error={errors[key]}
              hint={ROUTE_HINTS[key]}
            >
              <div className="route-input">
                <span className="route-prefix" aria-hidden title={`${origin}/`}>
                  /
                </span>
                <input
                  id={id(key)}
                  name={key}
                  className="input"
                  value={values[key]}
                  onChange={(e) => {
                    setValue(key, e.target.value);
                    if (errors[key]) setErrors((x) => ({ ...x, [key]: undefined }));
                  }}
                  aria-invalid={errors[key] ? true : undefined}
                  aria-describedby={errors[key] ? `${id(key)}-error` : `${id(key)}-hint`}
                  spellCheck={false}
                  autoComplete="off"
                />
              </div>
            </Field>
          ))}
        </div>
        <p className="route-example" data-testid="route-example">
          <span className="route-example-label">Campaign link</span>
          <code>
            {origin}/{trimRoute(values.route_main) || '…'}/<span className="route-example-var">123</span>
            ?tid=<span className="route-example-var">{TARGET_PLACEHOLDER}</span>
          </code>
          <span className="route-example-note">
            A campaign's own link carries its URL token (tid by default) with the traffic source's ad-id
            macro, such as {'{{ad.id}}'} for Facebook, or {TARGET_PLACEHOLDER} to replace by hand.
          </span>
        </p>
      </Card>

      <div className="settings-savebar">
        <p className="settings-savebar-note">
          Installation, branding and tracking routes are saved together.
        </p>
        {progress !== null && (
          <div className="upload-progress" aria-live="polite">
            <div
              className="upload-progress-track"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              aria-label="Upload progress"
            >
              <div className="upload-progress-bar" style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
            <span className="upload-progress-label">{Math.round(progress * 100)}%</span>
          </div>
        )}
        <Button type="submit" variant="primary" busy={busy} icon={<Save size={16} aria-hidden />}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
