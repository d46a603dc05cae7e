// The conversion tracker page (spec 3 §2, §4, §9): reads the three stored values (the audience
// provider's account id, the conversion name, the event type), fires the provider's conversion
// event once, and closes itself after a 10-second countdown. Event rule (spec 3 §4): AddToCart
// fires addToCart with no name; ProductPurchase fires a conversion named product_purchase;
// any other type fires a conversion with the stored name, and nothing fires without one.
import { Crosshair, Send } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Card } from '../../components/card';
import { SelectField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { PageHeader } from '../../components/page-header';
import { KEYS, readKey, writeKey } from '../../lib/storage';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../styles/integrations.css';

const COUNTDOWN_SECONDS = 10;

/** LiveIntent's tag: it reads the events queued on window.liQ (docs/decisions/076). */
const PROVIDER_TAG = (accountId: string) =>
  `https://b-code.liadm.com/${encodeURIComponent(accountId)}.min.js`;

type ConversionEvent = { event: 'addToCart' } | { event: 'conversion'; name: string };

function conversionEvent(eventType: string, name: string): ConversionEvent | null {
  if (eventType === 'AddToCart') return { event: 'addToCart' };
  if (eventType === 'ProductPurchase') return { event: 'conversion', name: 'product_purchase' };
  return name.trim() ? { event: 'conversion', name: name.trim() } : null;
}

declare global {
  interface Window {
    liQ?: unknown[];
  }
}

function fire(accountId: string, event: ConversionEvent) {
  window.liQ = window.liQ ?? [];
  window.liQ.push(event);
  const script = document.createElement('script');
  script.async = true;
  script.src = PROVIDER_TAG(accountId);
  document.head.appendChild(script);
}

const EVENT_TYPES = [
  { value: 'Conversion', label: 'Conversion (stored name)' },
  { value: 'ProductPurchase', label: 'Product purchase' },
  { value: 'AddToCart', label: 'Add to cart' },
];

function Setup({ onSaved }: { onSaved: () => void }) {
  const [account, setAccount] = useState(readKey(KEYS.conversionAccountId) ?? '');
  const [name, setName] = useState(readKey(KEYS.conversionName) ?? '');
  const [type, setType] = useState(readKey(KEYS.conversionEventType) ?? 'Conversion');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!account.trim()) return setError('Account ID is required.');
    if (!conversionEvent(type, name)) return setError('A conversion name is required for this event type.');
    writeKey(KEYS.conversionAccountId, account.trim());
    writeKey(KEYS.conversionName, name.trim());
    writeKey(KEYS.conversionEventType, type);
    onSaved();
  };
  return (
    <Card title="Nothing to fire yet" description="Choose the account, the conversion and its event type.">
      <form className="form" onSubmit={submit} noValidate id="conversion-setup">
        <div className="form-grid">
          <TextField
            id="conversion-account"
            label="Audience provider account ID"
            value={account}
            onValueChange={setAccount}
            error={error && !account.trim() ? error : null}
            autoComplete="off"
          />
          <SelectField
            id="conversion-type"
            label="Event type"
            value={type}
            onValueChange={setType}
            options={EVENT_TYPES}
          />
          <TextField
            id="conversion-name"
            label="Conversion name"
            value={name}
            onValueChange={setName}
            error={error && account.trim() ? error : null}
            optional={type !== 'Conversion'}
            autoComplete="off"
          />
        </div>
        <FormSubmitRow icon={Send}>Fire conversion</FormSubmitRow>
      </form>
    </Card>
  );
}

export function ConversionTrackerScreen() {
  useDocumentTitle('Conversion tracker');
  const [round, setRound] = useState(0);
  const [fired, setFired] = useState<ConversionEvent | null>(null);
  const [left, setLeft] = useState(COUNTDOWN_SECONDS);
  const [closeBlocked, setCloseBlocked] = useState(false);
  const firedRef = useRef(-1);

  useEffect(() => {
    if (firedRef.current === round) return;
    firedRef.current = round;
    const account = readKey(KEYS.conversionAccountId) ?? '';
    const event = conversionEvent(
      readKey(KEYS.conversionEventType) ?? '',
      readKey(KEYS.conversionName) ?? '',
    );
    if (!account || !event) return;
    fire(account, event);
    setFired(event);
    setLeft(COUNTDOWN_SECONDS);
  }, [round]);

  useEffect(() => {
    if (!fired) return;
    if (left <= 0) {
      window.close();
      // A tab the user opened by hand cannot be closed by script: say so instead.
      setCloseBlocked(true);
      return;
    }
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [fired, left]);

  return (
    <div className="page conversion-page">
      <PageHeader
        title="Conversion tracker"
        description="Fires the selected conversion pixel of your audience provider, then closes itself."
      />
      {fired ? (
        <Card>
          <div className="conversion-fired" role="status" aria-live="polite">
            <Crosshair size={28} aria-hidden />
            <p className="conversion-fired-title" data-testid="conversion-fired">
              {fired.event === 'addToCart' ? 'addToCart event fired.' : `Conversion ${fired.name} fired.`}
            </p>
            <p data-testid="conversion-countdown">
              {closeBlocked
                ? 'Done. You can close this tab.'
                : `This page closes in ${left} second${left === 1 ? '' : 's'}.`}
            </p>
          </div>
        </Card>
      ) : (
        <Setup onSaved={() => setRound((r) => r + 1)} />
      )}
    </div>
  );
}
