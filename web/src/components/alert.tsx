import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { ReactNode } from 'react';

type Props = { tone?: 'error' | 'info' | 'success'; children: ReactNode; id?: string };

/** A message about the whole form or page (field messages sit under their fields). */
export function Alert({ tone = 'error', children, id }: Props) {
  const Icon = tone === 'error' ? CircleAlert : tone === 'success' ? CircleCheck : Info;
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'} id={id}>
      <Icon size={16} aria-hidden className="alert-icon" />
      <div>{children}</div>
    </div>
  );
}
