import { Link } from 'react-router';
import { Alert } from '../alert';

/**
 * spec 3's insufficient-balance notice: the statistics answer's studentBalanceError says the
 * wallet paying for the campaign's traffic source is below the minimum (spec 2 §9).
 */
export function InsufficientBalanceNotice({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div data-testid="insufficient-balance">
      <Alert>
        <strong>Insufficient balance.</strong> The wallet that pays for this campaign's traffic source is
        below the minimum required balance, so its ads may stop. <Link to="/funding">See the balances</Link>.
      </Alert>
    </div>
  );
}
