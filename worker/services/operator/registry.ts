import { type InstallationInput, OPERATOR_MESSAGES, type Student } from '../../../schema/operator-api';
import type { Env } from '../../env';
import { sha256Hex } from '../../lib/crypto';
import { ApiError, fieldError } from '../../lib/errors';
import { decryptSecret, encryptSecret } from '../../lib/secrets';
import { checkAddress, outboundPolicy } from '../outbound/outbound';

// The operator's registry of student installations (docs/decisions/082). The credential of each
// is stored AES-GCM encrypted, bound to the installation's row id, and only decrypted to call it.

export type Installation = Student & { credential: string };

type Row = {
  id: number;
  name: string;
  server: string;
  domain: string;
  student_id_hash: string;
  credential: string;
};

const student = (r: Row): Student => ({
  id: r.id,
  name: r.name,
  server: r.server,
  domain: r.domain,
  id_hash: r.student_id_hash,
});
const secretName = (id: number) => `student_installation:${id}`;

export async function listStudents(env: Pick<Env, 'DB'>): Promise<Student[]> {
  const { results } = await env.DB.prepare(
    'SELECT * FROM student_installations ORDER BY name, id',
  ).all<Row>();
  return results.map(student);
}

async function rows(env: Pick<Env, 'DB'>, where: string, ...binds: unknown[]) {
  const { results } = await env.DB.prepare(`SELECT * FROM student_installations ${where} ORDER BY name, id`)
    .bind(...binds)
    .all<Row>();
  return results;
}

async function withCredential(env: Pick<Env, 'ENCRYPTION_KEY'>, r: Row): Promise<Installation> {
  return { ...student(r), credential: (await decryptSecret(env, secretName(r.id), r.credential)) ?? '' };
}

/** Installations by id hash (all of them without a list), credentials decrypted. */
export async function installations(env: Pick<Env, 'DB' | 'ENCRYPTION_KEY'>, idHashes?: string[]) {
  const found = idHashes
    ? await rows(env, 'WHERE student_id_hash IN (SELECT value FROM json_each(?1))', JSON.stringify(idHashes))
    : await rows(env, '');
  return Promise.all(found.map((r) => withCredential(env, r)));
}

export async function installationBy(
  env: Pick<Env, 'DB' | 'ENCRYPTION_KEY'>,
  field: 'student_id_hash' | 'domain' | 'id',
  value: string | number,
) {
  const [r] = await rows(
    env,
    `WHERE ${field} = ?1`,
    field === 'domain' ? String(value).replace(/\/+$/, '') : value,
  );
  if (!r) throw new ApiError(404, OPERATOR_MESSAGES.notFound);
  return withCredential(env, r);
}

/** id_hash composed of id, server and domain (spec 3 §3) when the operator gives none. */
async function defaultHash(id: number, input: InstallationInput) {
  return (await sha256Hex(`${id}|${input.server}|${input.domain}`)).slice(0, 16);
}

async function duplicate(env: Pick<Env, 'DB'>, input: InstallationInput, id: number) {
  const row = await env.DB.prepare(
    "SELECT id FROM student_installations WHERE id != ?1 AND (domain = ?2 OR (?3 != '' AND student_id_hash = ?3))",
  )
    .bind(id, input.domain, input.student_id_hash)
    .first();
  if (row) throw fieldError('domain', OPERATOR_MESSAGES.duplicate);
}

type RegistryEnv = Pick<
  Env,
  'DB' | 'ENCRYPTION_KEY' | 'DNS_RESOLVER_URL' | 'ENVIRONMENT' | 'OUTBOUND_ALLOW_HOSTS'
>;

/**
 * The credential is sent to the domain: it must be a public address, by name and by what it
 * resolves to (docs/decisions/122). A lookup that fails does not refuse the save (a new
 * installation's name may not resolve yet); every call checks again.
 */
async function publicDomain(env: RegistryEnv, domain: string) {
  const check = await checkAddress(domain, outboundPolicy(env));
  if (!check.ok && check.blocked)
    throw fieldError('domain', `${OPERATOR_MESSAGES.domainNotPublic}: ${check.reason}.`);
}

export async function addInstallation(env: RegistryEnv, input: InstallationInput) {
  await publicDomain(env, input.domain);
  if (!input.credential) throw fieldError('credential', OPERATOR_MESSAGES.credentialRequired);
  await duplicate(env, input, 0);
  // The row id is bound into the encryption, so the row is made first and sealed in a second step.
  const made = await env.DB.prepare(
    "INSERT INTO student_installations (name, domain, server, student_id_hash, credential) VALUES (?1, ?2, ?3, ?4, '') RETURNING id",
  )
    .bind(input.name, input.domain, input.server, input.student_id_hash || `pending-${crypto.randomUUID()}`)
    .first<{ id: number }>();
  const id = made!.id;
  const hash = input.student_id_hash || (await defaultHash(id, input));
  await env.DB.prepare('UPDATE student_installations SET student_id_hash = ?2, credential = ?3 WHERE id = ?1')
    .bind(id, hash, await encryptSecret(env, secretName(id), input.credential))
    .run();
  return installationBy(env, 'id', id);
}

/** Edits an installation; an empty credential keeps the stored one. */
export async function editInstallation(env: RegistryEnv, id: number, input: InstallationInput) {
  const current = await installationBy(env, 'id', id);
  await publicDomain(env, input.domain);
  await duplicate(env, input, id);
  const credential = input.credential ? await encryptSecret(env, secretName(id), input.credential) : null;
  await env.DB.prepare(
    `UPDATE student_installations SET name = ?2, domain = ?3, server = ?4, student_id_hash = ?5,
       credential = coalesce(?6, credential), updated_at = ?7 WHERE id = ?1`,
  )
    .bind(
      id,
      input.name,
      input.domain,
      input.server,
      input.student_id_hash || current.id_hash,
      credential,
      Date.now(),
    )
    .run();
  return installationBy(env, 'id', id);
}

/** Removes an installation and its cached numbers. */
export async function removeInstallation(env: Pick<Env, 'DB'>, id: number) {
  const [deleted] = await env.DB.batch([
    env.DB.prepare('DELETE FROM student_installations WHERE id = ?1').bind(id),
    env.DB.prepare('DELETE FROM student_daily WHERE installation_id = ?1').bind(id),
    env.DB.prepare('DELETE FROM student_refresh WHERE installation_id = ?1').bind(id),
  ]);
  if (!deleted.meta.changes) throw new ApiError(404, OPERATOR_MESSAGES.notFound);
}

export { student as toStudent };
