import { Pencil, Plus, Server, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { Student } from '../../../../schema/operator-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useBusyAction, useConfirmedAction } from '../../components/confirmed-action';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import { PasswordField, TextField } from '../../components/field';
import { FormModalFooter, Modal } from '../../components/modal';
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
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusyAction<'save'>();
  const { busy: removing, run: runRemove } = useConfirmedAction<number>();

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
    await run(
      'save',
      async () => {
        const answer = await mdApi.saveInstallation(editing === 'new' || !editing ? null : editing.id, form);
        notify.success(answer.message);
        setEditing(null);
        onChanged();
      },
      (err) => {
        if (err instanceof ApiError) {
          setErrors(err.fieldErrors);
          notify.error(err.firstMessage);
        }
      },
    );
  }

  async function remove(s: Student) {
    await runRemove(
      s.id,
      {
        title: 'Remove student installation',
        message: `Remove ${s.name} (${s.domain})? Its cached numbers go too; the installation itself is not touched.`,
        confirmLabel: 'Remove',
        danger: true,
      },
      async () => {
        notify.success((await mdApi.removeInstallation(s.id)).message);
        onChanged();
      },
      (err) => {
        if (err instanceof ApiError) notify.error(err.firstMessage);
      },
    );
  }

  const columns: Column<Student>[] = [
    { key: 'name', label: 'Name' },
    { key: 'domain', label: 'Domain', className: 'md-domain', render: (s) => s.domain },
    { key: 'server', label: 'Server', render: (s) => s.server || '—' },
    {
      key: 'actions',
      label: 'Actions',
      hideLabel: true,
      className: 'actions',
      render: (s) => (
        <>
          <button type="button" className="icon-btn" aria-label={`Edit ${s.name}`} onClick={() => open(s)}>
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
        </>
      ),
    },
  ];

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
        <DataTable<Student>
          id="installations"
          label="Student installations"
          columns={columns}
          rows={students}
          rowKey={(s) => s.id}
          rowAttributes={(s) => ({ 'data-installation': s.name })}
          tableClassName="md-table"
        />
      )}
      <Modal
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add student installation' : 'Edit student installation'}
        footer={
          <FormModalFooter form="md-installation" busy={busy !== null} onCancel={() => setEditing(null)} />
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
          <PasswordField
            id="inst-credential"
            label="Credential"
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
