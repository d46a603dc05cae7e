import { z } from 'zod';

// Account administration of issue 17: whether sign-up is open, and disabling or deleting users
// (docs/decisions/116).

/** GET /api/registration: whether /register may create an account here. */
export type RegistrationAnswer = { open: boolean };

export const userStatusSchema = z.object({
  disabled: z.boolean({ error: 'Say whether the user is disabled.' }),
});

/** PUT /api/users/:id/coach: the student's coach, null for none (docs/decisions/124). */
export const userCoachSchema = z.object({
  coachId: z.union(
    [z.null(), z.number({ error: 'Select a coach.' }).int('Select a coach.').positive('Select a coach.')],
    {
      error: 'Select a coach.',
    },
  ),
});
export type UserCoachAnswer = { message: string; id: number; coach_id: number | null };

/** PUT /api/users/:id/status */
export type UserStatusAnswer = { message: string; id: number; disabled: boolean };
/** DELETE /api/users/:id: the user's campaigns (and folders) now belong to the admin who deleted them. */
export type UserDeleteAnswer = { message: string; id: number; reassignedCampaigns: number };

export const ACCOUNT_MESSAGES = {
  registrationClosed:
    'Registration is closed on this installation. Ask an administrator to create an account for you.',
  disabled: 'User disabled. They can no longer sign in.',
  enabled: 'User enabled. They can sign in again.',
  deleted: 'User deleted.',
  notSelfDisable: 'You cannot disable your own account.',
  notSelfDelete: 'You cannot delete your own account.',
  notFound: 'User not found.',
  coachSet: 'Coach saved.',
  coachInvalid: 'Select a coach.',
  coachOnlyForStudents: 'Only a student has a coach.',
} as const;
