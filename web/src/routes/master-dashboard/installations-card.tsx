import { Pencil, Plus, Server, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { Student } from '../../../../schema/operator-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { TextField } from '../../components/field';
import { Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { mdApi } from './api';

type Form = { name: string; domain: string; server: string; student_id_hash: string; credential: string };
const EMPTY: Form = { name: '', domain: '', server: '', student_id_hash: '', credential: '' };

/** The operator's registry of student installations (admins): add, edit, remove. */
export function InstallationsCard({
  students,
  onChanged,
}: {
  students: readonly Student[];
  onChanged: () => void;
}) {
  const confirm = useConfirm();
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);

  const open = (s: Student | 'new') => {
    setEditing(s);
    setErrors({});
    setForm(
      s === 'new'
        ? EMPTY
        : { name: s.name, domain: s.domain, server: s.server, student_id_hash: s.id_hash, credential: '' },
    );
  };
  const set = (k: keyof Form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const answer = await mdApi.saveInstallation(editing === 'new' || !editing ? null : editing.id, form);
      notify.success(answer.message);
      setEditing(null);
      onChanged();
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(err.fieldErrors);
        notify.error(err.firstMessage);
      }
    } finally {
      setBusy(false);
    }
  }

  async function remove(s: Student) {
    const ok = await confirm({
      title: 'Remove student installation',
      message: `Remove ${s.name} (${s.domain})? Its cached numbers go too; the installation itself is not touched.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    setRemoving(s.id);
    try {
      notify.success((await mdApi.removeInstallation(s.id)).message);
      onChanged();
    } catch (err) {
      if (err instanceof ApiError) notify.error(err.firstMessage);
    } finally {
      setRemoving(null);
    }
  }

  return (
    <Card
      title="Student installations"
      description="Each student's tracker and the credential its admin created for the master dashboard."
      flush
      actions={
        <Button variant="secondary" icon={<Plus size={15} aria-hidden />} onClick={() => open('new')}>
          Add installation
        </Button>
      }
    >
      {students.length === 0 ? (
        <EmptyState icon={Server} title="No student installations yet">
          Add a student's installation with its address and master-dashboard credential.
        </EmptyState>
      ) : (
        <section
          className="table-wrap"
          aria-label="Installations, scrollable"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
          tabIndex={0}
        >
          <table
            className="table md-table"
            aria-label="Student installations"
            data-testid="installations-table"
          >
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Domain</th>
                <th scope="col">Server</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {students.map((s) => (
                <tr key={s.id} data-installation={s.name}>
                  <td>{s.name}</td>
                  <td className="md-domain">{s.domain}</td>
                  <td>{s.server || '—'}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Edit ${s.name}`}
                      onClick={() => open(s)}
                    >
                      <Pencil size={15} aria-hidden />
                    </button>
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Remove ${s.name}`}
                      aria-busy={removing === s.id || undefined}
                      disabled={removing === s.id}
                      onClick={() => remove(s)}
                    >
                      <Trash2 size={15} aria-hidden />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add student installation' : 'Edit student installation'}
        footer={
          <>
            <Button variant="ghost" onClick={() => setEditing(null)}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" form="md-installation" busy={busy}>
              Save
            </Button>
          </>
        }
      >
        <form id="md-installation" className="md-add-form" onSubmit={save} noValidate>
          <TextField
            id="inst-name"
            label="Name"
            value={form.name}
            onValueChange={set('name')}
            error={errors.name}
            data-autofocus
          />
          <TextField
            id="inst-domain"
            label="Domain"
            placeholder="https://student.example.com"
            value={form.domain}
            onValueChange={set('domain')}
            error={errors.domain}
          />
          <TextField
            id="inst-server"
            label="Server"
            value={form.server}
            onValueChange={set('server')}
            optional
          />
          <TextField
            id="inst-hash"
            label="Student id hash"
            value={form.student_id_hash}
            onValueChange={set('student_id_hash')}
            optional
            hint="Left empty, one is made from the id, server and domain."
          />
          <TextField
            id="inst-credential"
            label="Credential"
            type="password"
            autoComplete="off"
            value={form.credential}
            onValueChange={set('credential')}
            error={errors.credential}
            hint={
              editing !== 'new'
                ? 'Leave empty to keep the stored credential.'
                : 'Created by the installation’s admin.'
            }
          />
        </form>
      </Modal>
    </Card>
  );
}
