// Pieces the manage-liveintent screens share: the 3-second toasts of the platform screens, the
// 2-second success dialog that returns to the manage screen, and the error message of a call.
import { CircleCheck } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { Modal } from '../../components/modal';
import { notify } from '../../components/toaster';

/** Spec 4 §9: toasts last 3 seconds in the platform screens. */
export const toast = {
  success: (message: string) => notify.success(message, { duration: 3000 }),
  error: (message: string) => notify.error(message, { duration: 3000 }),
  info: (message: string) => notify.info(message, { duration: 3000 }),
};

/** Spec 4 §8: the first message of the errors map, else the status text. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.firstMessage;
  return err instanceof Error ? err.message : String(err);
}

export const managePath = (id: number, tab?: string) =>
  `/manage-liveintent/campaign/${id}${tab ? `?tab=${tab}` : ''}`;

/** The success dialog: shown for 2 seconds, then back to the manage screen (spec 4 §4). */
export function SuccessDialog({ message, back }: { message: string | null; back: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => navigate(back), 2000);
    return () => clearTimeout(t);
  }, [message, back, navigate]);
  return (
    <Modal open={message !== null} title="Success" onClose={() => navigate(back)} size="sm">
      <p className="li-success" role="status" data-testid="li-success">
        <CircleCheck size={20} aria-hidden />
        {message}
      </p>
    </Modal>
  );
}

/** 'YYYY-MM-DD' and 'HH:mm' as the platform's 'YYYY-MM-DD HH:mm:ss'. */
export const platformDate = (day: string, time: string) => `${day} ${time || '00:00'}:00`;
export const dayOf = (value: string) => value.slice(0, 10);
export const timeOf = (value: string) => value.slice(11, 16);

/** 'MMM DD, YYYY hh:mm a' (spec 4 §3, an ad's created_at). */
export function formatCreated(ms: number) {
  const d = new Date(ms);
  const month = d.toLocaleString('en-US', { month: 'short' });
  const h = d.getHours() % 12 || 12;
  const ampm = d.getHours() < 12 ? 'am' : 'pm';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${month} ${pad(d.getDate())}, ${d.getFullYear()} ${pad(h)}:${pad(d.getMinutes())} ${ampm}`;
}
