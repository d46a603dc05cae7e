// Disable, enable and delete a user (issue 17; docs/decisions/116). The server enforces the
// admin role and refuses the admin's own account; the buttons are not offered for it either.
import { Trash2, UserCheck, UserX } from 'lucide-react';
import type { UserDeleteAnswer, UserStatusAnswer } from '../../../../schema/accounts-api';
import type { UserRecord } from '../../../../schema/auth-api';
import { api } from '../../api/client';
import { Button } from '../../components/button';
import { useConfirm } from '../../components/confirm-dialog';
import { useBusyAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';

/** What a control of a user's row is given: the user, whether it is the signed-in one, and what to do after a change. */
export type UserRowProps = {
  user: UserRecord;
  isSelf: boolean;
  onChanged: () => void;
};

export function UserActions({ user, isSelf, onChanged }: UserRowProps) {
  const confirm = useConfirm();
  const { busy, run: runBusy } = useBusyAction<'status' | 'delete'>();
  if (isSelf) return null;

  const run = (kind: 'status' | 'delete', call: () => Promise<{ message: string }>) =>
    runBusy(kind, async () => {
      notify.success((await call()).message);
      onChanged();
    });

  const toggle = () =>
    run('status', () => api.put<UserStatusAnswer>(`users/${user.id}/status`, { disabled: !user.disabled }));

  const remove = async () => {
    const ok = await confirm({
      title: `Delete ${user.username}?`,
      message:
        'They can no longer sign in. Their campaigns, folders and statistics are kept and become yours. This cannot be undone.',
      confirmLabel: 'Delete user',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (ok) await run('delete', () => api.delete<UserDeleteAnswer>(`users/${user.id}`));
  };

  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        icon={user.disabled ? <UserCheck size={14} aria-hidden /> : <UserX size={14} aria-hidden />}
        busy={busy === 'status'}
        onClick={() => void toggle()}
        aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
        data-testid={`status-${user.username}`}
      >
        {user.disabled ? 'Enable' : 'Disable'}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="btn-danger-ghost"
        icon={<Trash2 size={14} aria-hidden />}
        busy={busy === 'delete'}
        onClick={() => void remove()}
        aria-label={`Delete ${user.username}`}
        data-testid={`delete-${user.username}`}
      >
        Delete
      </Button>
    </>
  );
}
