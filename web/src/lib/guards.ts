// Entry rules of the route table (spec 1 §2, spec 4 §2), as react-router loaders. The check
// itself (isAuthenticated) never redirects; these rules decide what to do with its answer.
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { getSetupCreated, verifyPasswordReset } from '../api/endpoints';
import { hasToken, isAuthenticated, rememberIntendedUrl, takeIntendedUrl } from './auth';
import { DEFAULT_SIDE_ACTIVE_LINK, KEYS, writeKey } from './storage';

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

async function setupDone(): Promise<boolean> {
  try {
    return await getSetupCreated();
  } catch {
    // Cannot tell (server unreachable): assume an installed product and offer the login.
    return true;
  }
}

/** One-time login link parameters from the URL hash: /login#loginToken=...&hash=... */
function loginLinkFromHash(hash: string): { loginToken: string; hash: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const loginToken = params.get('loginToken');
  const secret = params.get('hash');
  return loginToken && secret ? { loginToken, hash: secret } : null;
}

/** "/": signed in -> intended URL or /campaigns; else /login or /application-startup. */
export async function landingLoader() {
  if (await isAuthenticated()) throw redirect(takeIntendedUrl() ?? '/campaigns');
  throw redirect((await setupDone()) ? '/login' : '/application-startup');
}

export type LoginLoaderData = { loginLink: { loginToken: string; hash: string } | null };

/** "/login": signed in -> intended URL or /dashboard (side link 1); no setup -> wizard. */
export async function loginLoader(): Promise<LoginLoaderData> {
  // The router strips the hash from the loader's request; the address bar still has it.
  const loginLink = loginLinkFromHash(window.location.hash);
  // A one-time login link is an explicit request to sign in as its user: it wins.
  if (loginLink) return { loginLink };
  if (await isAuthenticated()) {
    writeKey(KEYS.sideActiveLink, DEFAULT_SIDE_ACTIVE_LINK);
    throw redirect(takeIntendedUrl() ?? '/dashboard');
  }
  if (!(await setupDone())) throw redirect('/application-startup');
  return { loginLink: null };
}

/** "/forgot-password": a signed-in user has nothing to do here. */
export async function redirectIfSignedIn() {
  if (await isAuthenticated()) throw redirect('/dashboard');
  return null;
}

/** "/application-startup": signed in -> /dashboard; setup already done -> /login. */
export async function startupLoader() {
  if (await isAuthenticated()) throw redirect('/dashboard');
  if (await setupDone()) throw redirect('/login');
  return null;
}

/** "/reset-password/:email/:token": verified on entry; a failed check goes silently to /login. */
export async function resetPasswordLoader({ params }: LoaderFunctionArgs) {
  if (await isAuthenticated()) throw redirect('/dashboard');
  const email = params.email ?? '';
  const token = params.token ?? '';
  try {
    await verifyPasswordReset(email, token);
  } catch {
    throw redirect('/login');
  }
  return { email, token };
}

/** The authentication check on entry: token or convertible session, else /login. */
export async function requireAuth({ request }: LoaderFunctionArgs) {
  if (await isAuthenticated()) return null;
  rememberIntendedUrl(pathOf(request));
  throw redirect('/login');
}

/** "Redirect to /login when there is no token" (no session exchange). */
export async function requireToken({ request }: LoaderFunctionArgs) {
  if (hasToken()) return null;
  rememberIntendedUrl(pathOf(request));
  throw redirect('/login');
}

/**
 * Manage LiveIntent (spec 4 §2): the route's own check first (no session: /login), then a
 * campaign id: without one, or with one that is no id, the screen goes to /campaigns.
 */
export function withCampaignId(check: typeof requireAuth) {
  return async (args: LoaderFunctionArgs) => {
    await check(args);
    if (!/^[1-9]\d*$/.test(args.params.id ?? '')) throw redirect('/campaigns');
    return null;
  };
}

/** /stats/:id remembers its own path as the intended URL, then the same check. */
export async function statsLoader(args: LoaderFunctionArgs) {
  rememberIntendedUrl(pathOf(args.request));
  return requireAuth(args);
}

/** Any unknown path goes to "/". */
export function unknownPathLoader() {
  throw redirect('/');
}
