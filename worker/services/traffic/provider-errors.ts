import { ProviderError } from '../../integrations/traffic-provider/client';
import { ApiError } from '../../lib/errors';

/**
 * A provider failure as a 502 whose message is the spec's toast for the action, with the
 * provider's own words after it; anything else is rethrown as it was.
 */
export function providerFailure(err: unknown, message: string): unknown {
  if (!(err instanceof ProviderError)) return err;
  return new ApiError(502, message, { message: [message, err.detail] });
}
