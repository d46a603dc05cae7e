import { Copy, Link2, LogIn, ShieldAlert, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { mutate } from 'swr';
import {
  CREATE_USER_FIELD_ORDER,
  createUserSchema,
  type LoginLink,
  type UserRecord,
} from '../../../../schema/auth-api';
import { ROLES, type Role } from '../../../../schema/roles';
import { ApiError } from '../../api/client';
import { changeUserRole, createLoginLink, createUser, paths } from '../../api/endpoints';
import { useUsers } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useBusyAction } from '../../components/confirmed-action';
import { ActionsHeader } from '../../components/data-table/actions-header';
import { EmptyState } from '../../components/empty-state';
import { CodeField, EmailField, PasswordField, SelectField } from '../../components/field';
import { FormModalFooter, Modal } from '../../components/modal';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { getStoredUser, rememberIntendedUrl, splitRole } from '../../lib/auth';
import { formatDate, formatDateTime } from '../../lib/format';
import { stripSpaces, useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';
import { UserActions, type UserRowProps } from './user-actions';
import { CoachCell, CoachDialog } from './user-coach';

const FORM = 'new-user';
const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', coach: 'Coach', student: 'Student' };
const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

function CreateUserDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const initial = { username: '', email: '', password: '', password_confirmation: '', role: 'student' };
  const form = useForm(FORM, initial);
  const { setValues, setErrors, formError, setFormError, busy } = form;

  const close = () => {
    setValues(initial);
    setErrors({});
    setFormError(null);
    onClose();
  };

  const onSubmit = form.onSubmitWith({
    schema: createUserSchema,
    order: CREATE_USER_FIELD_ORDER,
    send: async (data) => {
      const answer = await createUser(data);
      notify.success(answer.message);
      onCreated();
      close();
    },
  });

  return (
    <Modal
      open={open}
      onClose={close}
      title="New user"
      footer={
        <FormModalFooter form={FORM} busy={busy} onCancel={close} icon={<UserPlus size={16} aria-hidden />}>
          Create user
        </FormModalFooter>
      }
    >
      <form id={FORM} className="form" onSubmit={onSubmit} noValidate>
        <p className="modal-lead">The new user signs in with this username and password.</p>
        {formError && <Alert>{formError}</Alert>}
        <div className="form-grid">
          <CodeField {...form.field('username')} label="Username" autoCapitalize="none" data-autofocus />
          <EmailField {...form.field('email')} autoComplete="off" />
          <PasswordField {...form.field('password', stripSpaces)} />
          <PasswordField {...form.field('password_confirmation', stripSpaces)} label="Confirm password" />
        </div>
        <SelectField
          {...form.field('role')}
          label="Role"
          options={ROLE_OPTIONS}
          hint="Admins manage users and settings; coaches may adjust student balances; students run their campaigns."
        />
      </form>
    </Modal>
  );
}

function RoleSelect({ user, isSelf, onChanged }: UserRowProps) {
  const { busy, run } = useBusyAction();
  const current = splitRole(user.role).roleType as Role;
  const change = async (role: Role) => {
    if (role === current) return;
    await run('run', async () => {
      notify.success((await changeUserRole(user.id, role)).message);
      onChanged();
    });
  };
  return (
    <select
      className="input select input-sm"
      value={current}
      onChange={(e) => void change(e.target.value as Role)}
      disabled={busy !== null || isSelf}
      aria-label={`Role of ${user.username}`}
      title={isSelf ? 'You cannot change your own role' : undefined}
      data-testid={`role-${user.username}`}
    >
      {ROLE_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function LoginLinkModal({
  link,
  onClose,
}: {
  link: { user: UserRecord; link: LoginLink } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={link !== null}
      title="One-time login link"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button
            variant="primary"
            icon={<Copy size={16} aria-hidden />}
            onClick={async () => {
              if (link && (await copyText(link.link.url))) notify.success('Copied to Clipboard.');
              else notify.error('Error Occurred.');
            }}
          >
            Copy link
          </Button>
        </>
      }
    >
      {link && (
        <div className="stack">
          <p>
            Anyone who opens this link is signed in as <strong>{link.user.username}</strong>. It works once
            and expires at {formatDateTime(link.link.expiresAt)}.
          </p>
          <label className="field-label" htmlFor="login-link-url">
            Link
          </label>
          <input
            id="login-link-url"
            className="input mono"
            readOnly
            value={link.link.url}
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
      )}
    </Modal>
  );
}

/** An address that may wrap before its "@" when the table is short of room. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

function UsersTable() {
  const me = getStoredUser();
  const { data, error, isLoading, mutate: reload } = useUsers(true);
  const { busy: linkBusy, run: runLink } = useBusyAction<number>();
  const [link, setLink] = useState<{ user: UserRecord; link: LoginLink } | null>(null);
  const [coachOf, setCoachOf] = useState<UserRecord | null>(null);
  const users = data?.result ?? [];

  const copyLoginLink = (user: UserRecord) =>
    runLink(user.id, async () => {
      const answer = await createLoginLink(user.id);
      setLink({ user, link: answer });
      if (await copyText(answer.url)) notify.success('Copied to Clipboard.');
    });

  return (
    <Card
      title="All users"
      description={
        data ? `${users.length} ${users.length === 1 ? 'user' : 'users'}` : 'Everyone who can sign in.'
      }
      flush
      id="users"
    >
      {error && !data ? (
        <div className="card-body">
          <Alert>{error instanceof ApiError ? error.firstMessage : 'The users could not be loaded.'}</Alert>
        </div>
      ) : !isLoading && users.length === 0 ? (
        <EmptyState icon={Users} title="No users yet">
          Create the first user with the form.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table users-table" aria-label="Users">
            <thead>
              <tr>
                <th scope="col" className="num">
                  ID
                </th>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Coach</th>
                <th scope="col">Created</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {isLoading && !data
                ? [0, 1, 2].map((i) => (
                    <tr key={i} className="skeleton-row" aria-hidden>
                      {[0, 1, 2, 3, 4, 5].map((c) => (
                        <td key={c}>
                          <span className="skeleton" />
                        </td>
                      ))}
                    </tr>
                  ))
                : users.map((user) => {
                    const isSelf = me?.userId === user.id;
                    return (
                      <tr key={user.id} data-testid={`user-row-${user.username}`}>
                        <td className="num">{user.id}</td>
                        <td>
                          <div>
                            <span className="cell-strong user-name">{user.username}</span>
                            {isSelf && <span className="badge badge-neutral">You</span>}
                            {user.disabled && <span className="badge cl-badge-paused">Disabled</span>}
                          </div>
                          <div className="cell-muted user-email">
                            <Email address={user.email} />
                          </div>
                        </td>
                        <td>
                          <RoleSelect user={user} isSelf={isSelf} onChanged={() => void reload()} />
                        </td>
                        <td className="user-coach-cell">
                          <CoachCell user={user} users={users} onEdit={setCoachOf} />
                        </td>
                        <td className="cell-muted nowrap">{formatDate(user.created_at)}</td>
                        <td className="actions">
                          <Button
                            size="sm"
                            variant="ghost"
                            icon={<Link2 size={14} aria-hidden />}
                            busy={linkBusy === user.id}
                            onClick={() => void copyLoginLink(user)}
                            aria-label={`Copy login link for ${user.username}`}
                          >
                            Copy login link
                          </Button>
                          <UserActions user={user} isSelf={isSelf} onChanged={() => void reload()} />
                        </td>
                      </tr>
                    );
                  })}
            </tbody>
          </table>
        </div>
      )}
      <LoginLinkModal link={link} onClose={() => setLink(null)} />
      <CoachDialog
        student={coachOf}
        users={users}
        onClose={() => setCoachOf(null)}
        onSaved={() => void reload()}
      />
    </Card>
  );
}

function NoAccess({ signedIn }: { signedIn: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Card>
      <EmptyState
        icon={ShieldAlert}
        title="You do not have access"
        action={
          signedIn ? null : (
            <Button
              variant="primary"
              icon={<LogIn size={16} aria-hidden />}
              onClick={() => {
                rememberIntendedUrl(location.pathname);
                navigate('/login');
              }}
            >
              Sign in
            </Button>
          )
        }
      >
        {signedIn
          ? 'Only administrators can create users and change roles. Ask an administrator of this installation for help.'
          : 'Sign in as an administrator to create users and change roles.'}
      </EmptyState>
    </Card>
  );
}

/** /registeruser: an administrator creates users with a role and manages the existing ones. */
export function RegisterUserScreen() {
  useDocumentTitle('Users');
  const me = getStoredUser();
  const isAdmin = me?.roleType === 'admin';
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Users"
        description="Create accounts for coaches and students, change their roles, give each student a coach and share one-time login links."
        actions={
          isAdmin && (
            <Button
              variant="primary"
              icon={<UserPlus size={16} aria-hidden />}
              onClick={() => setCreating(true)}
            >
              New user
            </Button>
          )
        }
      />
      {isAdmin ? (
        <>
          <UsersTable />
          <CreateUserDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={() => void mutate(paths.users)}
          />
        </>
      ) : (
        <NoAccess signedIn={Boolean(me)} />
      )}
    </>
  );
}
