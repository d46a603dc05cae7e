// The answers of the conversion routes (docs/tracking.md), shared by conversion.ts and
// test-conversion.ts without either importing the other.
export const CONVERSION_MESSAGES = {
  clickIdRequired: 'Click id is required.',
  clickIdInvalid: 'Click id is not valid.',
  payoutInvalid: 'Payout must be a number.',
  eventInvalid: 'Event names may contain only letters, digits, underscore, dash and dot.',
  accepted: 'Conversion accepted.',
} as const;
