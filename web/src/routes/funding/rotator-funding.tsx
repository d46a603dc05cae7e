import { ExternalLink, Repeat } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { type BalanceValues, MONEY_MESSAGES as M, parseAmount } from '../../../../schema/money-api';
import { ApiError } from '../../api/client';
import { fundRotator, reloadBalances, useRotatorOffers, useRotators } from '../../api/money';
import { WALLET_LABELS, WALLETS, type Wallet } from '../../components/balance/wallets';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { toastFailure } from '../../components/confirmed-action';
import { EmptyState } from '../../components/empty-state';
import { SelectField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';

type Props = { balance?: BalanceValues };

/**
 * Rotator funding (spec 4 "Funding screen"): a rotator campaign, then one of its offer pages,
 * then an amount and the wallet it comes from. Shown only to users with rotator_is_enabled.
 */
export function RotatorFunding({ balance }: Props) {
  const rotators = useRotators(true);
  const [campaignId, setCampaignId] = useState('');
  const offers = useRotatorOffers(campaignId ? Number(campaignId) : null);
  const [offerId, setOfferId] = useState('');
  const [amount, setAmount] = useState('');
  const [wallet, setWallet] = useState<Wallet>('liveintent');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const confirm = useConfirm();

  const list = rotators.data?.result ?? [];
  const offerList = offers.data?.result ?? [];
  const offer = offerList.find((o) => String(o.offerPageId) === offerId);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current) return;
    const found: Record<string, string> = {};
    if (!offerId) found.offerId = M.offerRequired;
    const parsed = parseAmount(amount);
    if ('error' in parsed) found.amount = parsed.error;
    else if (parsed.micros <= 0) found.amount = M.fundAmountPositive;
    // The drop-down shows what each wallet holds: too much is refused before the confirmation,
    // in the server's words (it still checks, inside the booking itself).
    else if (balance && Math.round(balance[wallet] * 1e6) < parsed.micros) found.amount = M.insufficient;
    setErrors(found);
    if (found.amount === M.insufficient) notify.error(M.insufficient);
    if (Object.keys(found).length || !offer || 'error' in parsed) return;
    const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      parsed.micros / 1e6,
    );
    const ok = await confirm({
      title: 'Fund rotator offer',
      message: `${M.confirm} ${money} moves from your ${WALLET_LABELS[wallet]} wallet to “${offer.name}”.`,
      confirmLabel: 'Fund offer',
      cancelLabel: 'Cancel',
    });
    if (!ok) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const answer = await fundRotator(Number(campaignId), {
        offerId: Number(offerId),
        amount,
        wallet,
        idempotencyKey: crypto.randomUUID(),
      });
      notify.success(answer.message);
      setAmount('');
      await Promise.all([offers.mutate(), reloadBalances()]);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setErrors(err.fieldErrors);
      toastFailure(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <Card title="Rotator funding" description="Move money from one of your wallets to an offer of a rotator.">
      {rotators.data && list.length === 0 ? (
        <EmptyState icon={Repeat} title="No rotator campaigns yet">
          Create a campaign of type Rotator with an offer page per participant, then fund its offers here.
        </EmptyState>
      ) : (
        <form className="rotator-form" onSubmit={submit} noValidate data-testid="rotator-funding">
          <SelectField
            id="rotator-campaign"
            label="Rotator campaign"
            value={campaignId}
            onValueChange={(v) => {
              setCampaignId(v);
              setOfferId('');
            }}
            options={[
              { value: '', label: rotators.data ? 'Select a rotator' : 'Loading…' },
              ...list.map((r) => ({ value: String(r.campaignId), label: r.name })),
            ]}
          />
          <SelectField
            id="rotator-offer"
            label="Offer page"
            value={offerId}
            disabled={!campaignId}
            error={errors.offerId}
            onValueChange={setOfferId}
            options={[
              { value: '', label: campaignId && !offers.data ? 'Loading…' : 'Select an offer page' },
              ...offerList.map((o) => ({ value: String(o.offerPageId), label: o.name })),
            ]}
          />
          <TextField
            id="rotator-amount"
            label="Amount (USD)"
            inputMode="decimal"
            placeholder="0.00"
            value={amount}
            error={errors.amount}
            onValueChange={setAmount}
          />
          <SelectField
            id="rotator-wallet"
            label="From wallet"
            value={wallet}
            error={errors.wallet}
            onValueChange={(v) => setWallet(v as Wallet)}
            options={WALLETS.map((w) => ({
              value: w,
              label: balance ? `${WALLET_LABELS[w]} (${balance[`${w}Formatted`]})` : WALLET_LABELS[w],
            }))}
          />
          {offer && (
            <dl className="rotator-offer-facts" data-testid="rotator-offer-facts">
              <div>
                <dt>Participant</dt>
                <dd>{offer.rotator_participant_email || '—'}</dd>
              </div>
              <div>
                <dt>Funded so far</dt>
                <dd data-testid="rotator-funding-amount">{offer.rotator_funding.amountFormatted}</dd>
              </div>
              {offer.rotator_participant_email && (
                <div>
                  <dt>Report</dt>
                  <dd>
                    <a
                      href={`/rotators/reports/${offer.offerPageId}#email=${encodeURIComponent(offer.rotator_participant_email)}`}
                      target="_blank"
                      rel="noreferrer"
                    >
                      Open public report <ExternalLink size={12} aria-hidden />
                    </a>
                  </dd>
                </div>
              )}
            </dl>
          )}
          <FormSubmitRow busy={busy} icon={Repeat}>
            Fund offer
          </FormSubmitRow>
        </form>
      )}
    </Card>
  );
}
