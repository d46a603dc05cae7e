// A student's coach on the users screen (docs/decisions/124): the list shows it, and an admin
// sets or clears it in a small dialog. The server enforces the admin role and refuses anything
// but a coach for a student; its message shows in a toast and under the select.
import { Pencil } from 'lucide-react';
import { useEffect } from 'react';
import { type UserCoachAnswer, userCoachSchema } from '../../../../schema/accounts-api';
import type { UserRecord } from '../../../../schema/auth-api';
import { api } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { toastFailure } from '../../components/confirmed-action';
import { SelectField } from '../../components/field';
import { FormModalFooter, Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { splitRole } from '../../lib/auth';
import { useForm } from '../../lib/forms';

const FORM = 'user-coach';
const NO_COACH = '';

const roleOf = (user: UserRecord) => splitRole(user.role).roleType;
const isStudent = (user: UserRecord) => roleOf(user) === 'student';
const isCoach = (user: UserRecord) => roleOf(user) === 'coach';

/** The Coach column: a student's coach and the button that changes it; nothing for other roles. */
export function CoachCell({
  user,
  users,
  onEdit,
}: {
  user: UserRecord;
  users: readonly UserRecord[];
  onEdit: (user: UserRecord) => void;
}) {
  if (!isStudent(user)) {
    return (
      <span className="cell-muted" title="Only a student has a coach.">
        <span aria-hidden>—</span>
        <span className="sr-only">Only a student has a coach.</span>
      </span>
    );
  }
  const coach = user.coach_id === null ? undefined : users.find((u) => u.id === user.coach_id);
  return (
    <div className="user-coach">
      <span
        className={coach ? 'user-coach-name' : 'user-coach-name cell-muted'}
        data-testid={`coach-${user.username}`}
      >
        {coach ? coach.username : 'No coach'}
      </span>
      <Button
        size="sm"
        variant="ghost"
        className="user-coach-edit"
        icon={<Pencil size={14} aria-hidden />}
        onClick={() => onEdit(user)}
        aria-label={`Change the coach of ${user.username}`}
        title="Change the coach"
        data-testid={`set-coach-${user.username}`}
      />
    </div>
  );
}

/** The dialog of one student: a select of the coaches, "No coach" first; Save or Cancel. */
export function CoachDialog({
  student,
  users,
  onClose,
  onSaved,
}: {
  student: UserRecord | null;
  users: readonly UserRecord[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const coaches = users
    .filter(isCoach)
    .sort((a, b) => a.username.localeCompare(b.username, undefined, { sensitivity: 'base' }));
  const current =
    student && coaches.some((c) => c.id === student.coach_id) ? String(student.coach_id) : NO_COACH;
  const form = useForm(FORM, { coachId: current });
  const { setValues, setErrors, formError, setFormError, busy } = form;

  // Each opening starts from that student's coach, with no message left from the last one.
  const studentId = student?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when another student opens
  useEffect(() => {
    setValues({ coachId: current });
    setErrors({});
    setFormError(null);
  }, [studentId]);

  const options = [
    { value: NO_COACH, label: 'No coach' },
    ...coaches.map((c) => ({ value: String(c.id), label: c.username })),
  ];

  const onSubmit = form.onSubmitWith({
    schema: userCoachSchema,
    order: ['coachId'],
    input: () => ({ coachId: form.values.coachId === NO_COACH ? null : Number(form.values.coachId) }),
    send: async ({ coachId }) => {
      if (!student) return;
      const answer = await api.put<UserCoachAnswer>(`users/${student.id}/coach`, { coachId });
      notify.success(answer.message);
      onSaved();
      onClose();
    },
    failure: (err, message) => {
      toastFailure(err);
      return message;
    },
  });

  return (
    <Modal
      open={student !== null}
      onClose={onClose}
      title="Coach"
      size="sm"
      footer={<FormModalFooter form={FORM} busy={busy} onCancel={onClose} />}
    >
      {student && (
        <form id={FORM} className="form" onSubmit={onSubmit} noValidate>
          <p className="modal-lead user-coach-lead">
            The coach of <strong>{student.username}</strong> may see and adjust this student's wallets.
          </p>
          {formError && <Alert>{formError}</Alert>}
          <SelectField
            {...form.field('coachId')}
            label="Coach"
            options={options}
            hint={
              coaches.length === 0
                ? 'No user is a coach yet: give a user the Coach role first.'
                : 'With no coach, no coach may adjust this student.'
            }
            data-autofocus
          />
        </form>
      )}
    </Modal>
  );
}
