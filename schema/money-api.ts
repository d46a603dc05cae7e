import { z } from 'zod';
import { isDay } from './dates';
import { MICROS_PER_UNIT } from './money';
import { positiveId } from './validators';
import { WALLETS, type Wallet } from './wallets';

// The funding calls (spec 4 §7, spec 2 §7): balances, adjustments, rotator funding and the
// public rotator report. The web forms parse with the same schemas; messages the spec gives
// are used word for word, the others are ours (docs/api.md, "Funding and balances").

export { WALLETS, type Wallet };

export const MONEY_MESSAGES = {
  updated: 'Balance is successfully updated.',
  fetchFailed: 'Unable to retrieve Student Balance.',
  confirm: 'Proceed with transaction?',
  funded: 'Rotator funded successfully.',
  amountInvalid: 'The amount must be a number, for example 150 or -12.50.',
  amountDecimals: 'The amount can have at most 2 decimals.',
  amountTooLarge: 'The amount must be between -1,000,000,000 and 1,000,000,000.',
  balanceTooLarge: 'The balance of this wallet must stay between -1,000,000,000 and 1,000,000,000.',
  noteTooLong: 'The note may not be longer than 500 characters.',
  nothingToUpdate: 'Enter an amount for at least one wallet.',
  walletDisabled: 'This wallet is disabled.',
  userInvalid: 'Select a valid user.',
  keyReused: 'This request was already applied with different amounts.',
  offerRequired: 'Select an offer page of this rotator.',
  walletRequired: 'Select a wallet.',
  fundAmountPositive: 'The amount must be greater than 0.',
  insufficient: 'The selected wallet does not have enough balance.',
  rotatorDisabled: 'Rotator funding is not enabled for your account.',
  rotatorNotFound: 'Rotator not found.',
  fundingFailed: 'The funding could not be booked; nothing was moved. Please try again.',
  minimumInvalid: 'The minimum balance must be a number of at least 0 with at most 2 decimals.',
  // Who may adjust whom (docs/decisions/124).
  unauthorized: 'This action is unauthorized.',
  notOwnWallets: 'You cannot adjust your own wallets. Ask an admin.',
  notYourStudent: 'A coach can adjust only the wallets of their own students.',
  creditLimit: 'Credits to one user above $10,000.00 within 24 hours are refused.',
  ownWalletsNote:
    'Nobody adjusts their own wallets: pick a student to adjust theirs, or ask another admin to adjust yours.',
} as const;

/**
 * The most that adjustments may credit to one user within 24 hours, whoever books them
 * (docs/decisions/124): $10,000 in micros. A larger credit would need a second admin's approval,
 * which the product does not offer, so it is refused.
 */
export const CREDIT_LIMIT_MICROS = 10_000 * 1_000_000;
export const CREDIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Largest adjustment or funding accepted (one billion), far inside the safe integer range in micros. */
const MAX_AMOUNT_UNITS = 1_000_000_000;
const AMOUNT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A typed amount as integer micro-units. Blank is 0; '-12.5' is -12,500,000; more than two
 * decimals ('12.345') is refused rather than rounded: money typed by a person is cents, and a
 * silent rounding would book something other than what the coach saw (docs/decisions/051).
 * Exponents ('1e3'), words and anything else are refused.
 */
export function parseAmount(value: unknown): { micros: number } | { error: string } {
  if (value === undefined || value === null) return { micros: 0 };
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { error: MONEY_MESSAGES.amountInvalid };
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return { error: MONEY_MESSAGES.amountInvalid };
  }
  if (text === '') return { micros: 0 };
  if (!AMOUNT.test(text)) return { error: MONEY_MESSAGES.amountInvalid };
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace(/^[+-]/, '').split('.');
  if (fraction.length > 2) return { error: MONEY_MESSAGES.amountDecimals };
  const wholeUnits = Number(whole || '0');
  if (wholeUnits > MAX_AMOUNT_UNITS || (wholeUnits === MAX_AMOUNT_UNITS && Number(fraction || '0') > 0))
    return { error: MONEY_MESSAGES.amountTooLarge };
  const micros = wholeUnits * MICROS_PER_UNIT + Number(fraction.padEnd(2, '0')) * 10_000;
  return { micros: negative && micros !== 0 ? -micros : micros };
}

const amountField = z
  .unknown()
  .optional()
  .transform((value, ctx) => {
    const parsed = parseAmount(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.micros;
  });

const noteField = z.preprocess(
  (v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v),
  z.string({ error: MONEY_MESSAGES.noteTooLong }).trim().max(500, MONEY_MESSAGES.noteTooLong),
);

const optionalUserId = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
  z
    .number({ error: MONEY_MESSAGES.userInvalid })
    .int(MONEY_MESSAGES.userInvalid)
    .positive(MONEY_MESSAGES.userInvalid)
    .optional(),
);

const idempotencyKey = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : v),
  z
    .string({ error: 'The idempotency key must be text of 8 to 100 characters.' })
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'The idempotency key must be text of 8 to 100 characters.')
    .optional(),
);

const intIn = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? fallback : typeof v === 'string' ? Number(v) : v),
    z.number().int().min(min).max(max),
  );

/** POST /api/get-balance: empty for one's own wallets; admin or coach name a user. */
export const getBalanceSchema = z.object({
  userId: optionalUserId,
  page: intIn(1, 1, 100_000),
  perPage: intIn(10, 1, 100),
});

const walletShape = Object.fromEntries(
  WALLETS.flatMap((w) => [
    [w, amountField],
    [`${w}Note`, noteField],
  ]),
) as Record<Wallet, typeof amountField> & Record<`${Wallet}Note`, typeof noteField>;

/** POST /api/update-balance (spec 4 §3 "Balance update payload"). */
export const updateBalanceSchema = z.object({
  userId: optionalUserId,
  ...walletShape,
  role: z.unknown().optional(),
  addedByName: z.preprocess(
    (v) => (typeof v === 'string' ? v : ''),
    z.string().trim().max(100, 'The name may not be longer than 100 characters.'),
  ),
  idempotencyKey,
});
export type UpdateBalanceInput = z.output<typeof updateBalanceSchema>;

/** The spec's check order: each wallet's amount, then its note. */
export const UPDATE_BALANCE_FIELD_ORDER = ['userId', ...WALLETS.flatMap((w) => [w, `${w}Note`])] as const;

/** POST /api/rotators/{id}/fund. */
export const fundRotatorSchema = z.object({
  offerId: positiveId(MONEY_MESSAGES.offerRequired),
  amount: amountField.refine((m) => m > 0, MONEY_MESSAGES.fundAmountPositive),
  wallet: z.enum(WALLETS, { error: MONEY_MESSAGES.walletRequired }),
  note: noteField,
  idempotencyKey,
});
export const FUND_FIELD_ORDER = ['offerId', 'amount', 'wallet', 'note'] as const;

/** PUT /api/balance-settings (admin): the installation's header dashboard and minimum, a user's disabled wallets. */
export const balanceSettingsSchema = z.object({
  headerBalance: z
    .preprocess(
      (v) => (v === undefined ? undefined : v === true || v === 1 || v === '1' || v === 'true'),
      z.boolean(),
    )
    .optional(),
  minimumBalance: z
    .unknown()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const parsed = parseAmount(value);
      if ('error' in parsed || parsed.micros < 0) {
        ctx.addIssue({ code: 'custom', message: MONEY_MESSAGES.minimumInvalid });
        return z.NEVER;
      }
      return parsed.micros;
    })
    .optional(),
  userId: optionalUserId,
  disabled: z.partialRecord(z.enum(WALLETS), z.boolean()).optional(),
  /** The user's rotator_is_enabled flag (spec 4 §6): rotator funding needs it. */
  rotatorEnabled: z.boolean().optional(),
});

// ---- answers -------------------------------------------------------------------------------

export type WalletFlags = Record<Wallet, boolean>;

/** data.balance: each wallet in units and formatted ('$1,234.50'). */
export type BalanceValues = Record<Wallet, number> & Record<`${Wallet}Formatted`, string>;

export type BalanceLog = {
  id: number;
  platform: Wallet | 'rotator';
  amount: number;
  amountFormatted: string;
  note: string;
  cause: 'adjustment' | 'rotator_funding' | 'platform_spend';
  addedByName: string;
  role: string;
  campaignId: number | null;
  offerId: number | null;
  day: string | null;
  created_at: number;
};

export type BalanceAnswer = {
  user: { id: number; username: string; name: string };
  balance: BalanceValues;
  balanceLogs: BalanceLog[];
  pagination: { currentPage: number; perPage: number; total: number; lastPage: number };
  disabled: WalletFlags;
  /** The installation shows the header balance dashboard (spec 2 §2). */
  headerBalance: boolean;
  /** The minimum balance below which statistics show the insufficient-balance notice (spec 2 §9). */
  minimumBalance: number;
};

export type UpdateBalanceAnswer = {
  status: true;
  message: string;
  /** false when the idempotency key had already been applied: `entries` are the earlier ones. */
  applied: boolean;
  entries: BalanceLog[];
  balance: BalanceValues;
};

export type BalanceUser = {
  id: number;
  username: string;
  name: string;
  role: string;
  rotator_is_enabled: boolean;
};
export type BalanceUsersAnswer = { result: BalanceUser[] };

/** GET /api/balance-settings; PUT answers the same with its message. */
export type BalanceSettingsAnswer = { headerBalance: boolean; minimumBalance: number };
export type SaveBalanceSettingsAnswer = BalanceSettingsAnswer & { message: string };

export type RotatorCampaign = { campaignId: number; name: string; active: number; campaignType: 'rotator' };
export type RotatorsAnswer = { result: RotatorCampaign[] };

export type RotatorOffer = {
  offerPageId: number;
  name: string;
  url: string;
  active: number;
  rotator_participant_email: string;
  rotator_funding: { id: number; amount: number; amountFormatted: string };
};
export type RotatorOffersAnswer = { result: RotatorOffer[] };

export type FundRotatorAnswer = {
  message: string;
  applied: boolean;
  funding: { id: number; amount: number; amountFormatted: string };
  balance: BalanceValues;
};

// ---- public rotator report -----------------------------------------------------------------

export type ReportPeriod = { start_date: string; end_date: string };
/** `offer_name` is ours (the spec's answer has dates and start_date): the report's title. */
export type ReportPeriodsAnswer = { dates: ReportPeriod[]; start_date: string; offer_name: string };

/** One row of the report: a month ('2024-01') or a day ('2024-01-31'). Money in units. */
export type ReportRow = {
  date: string;
  ad_spend: number;
  clicks: number;
  sales: number;
  revenue: number;
  net_profit: number;
  cpc: number;
};
export type ReportDataAnswer = { report: ReportRow[] };

const reportDay = z
  .string()
  .trim()
  .refine((v) => isDay(v), 'Dates must be written yyyy-MM-dd.');

export const reportQuerySchema = z.discriminatedUnion('group_by', [
  z.object({ group_by: z.literal('month'), start_date: reportDay }),
  z.object({ group_by: z.literal('day'), start_date: reportDay, end_date: reportDay }),
]);
export type ReportQuery = z.output<typeof reportQuerySchema>;
