// The integrations screen (spec 4 §2, §7, §8): Facebook connect and disconnect (with the return
// from Facebook's login carrying `code` or `code_error`), the conversion test, the TikTok and
// MediaGo tokens and Taboola's client id and secret. Stored values come back masked.
import { Link2, Plug, Unlink } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { mutate } from 'swr';
import { CONNECTION_MESSAGES as M } from '../../../../schema/connections-api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Spinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { KEYS, readKey } from '../../lib/storage';
import { useDocumentTitle } from '../../lib/use-document-title';
import '../../styles/integrations.css';
import {
  FB_TOKEN_KEY,
  facebookAuthUrl,
  resetFbToken,
  setFbToken,
  useFacebookStatus,
  useFbToken,
} from './api';
import { ConversionTestForm, PlatformTokenForm, TaboolaForm } from './token-forms';

/**
 * Exchanges the code Facebook's login sent back once, with the state that came back beside it
 * (the server refuses a code without this user's own live state), then drops both from the address.
 */
function useFacebookReturn() {
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const handled = useRef(false);
  const code = params.get('code');
  const state = params.get('state') ?? '';
  const failed = params.has('code_error') || params.has('error');

  useEffect(() => {
    if (handled.current || (!code && !failed)) return;
    handled.current = true;
    setParams({}, { replace: true });
    if (!code) {
      notify.error(M.fbConnectFailed);
      return;
    }
    setBusy(true);
    setFbToken(code, state)
      .then(() => notify.success(M.fbConnected))
      .catch(() => notify.error(M.fbConnectFailed))
      .finally(() => {
        setBusy(false);
        void mutate(FB_TOKEN_KEY);
      });
  }, [code, state, failed, setParams]);
  return busy;
}

function FacebookCard() {
  const status = useFacebookStatus();
  const token = useFbToken();
  const confirm = useConfirm();
  const exchanging = useFacebookReturn();
  const [disconnecting, setDisconnecting] = useState(false);
  const connected = token.data?.status === 'active';
  const enabled = status.data?.enabled ?? false;

  const [starting, setStarting] = useState(false);
  // A fresh URL on each click: the state in it lives 10 minutes and is used once.
  const connect = async () => {
    setStarting(true);
    try {
      const url = await facebookAuthUrl();
      if (url) window.location.assign(url);
      else setStarting(false);
    } catch {
      notify.error(M.fbConnectFailed);
      setStarting(false);
    }
  };

  const disconnect = async () => {
    const ok = await confirm({
      title: 'Disconnect Facebook?',
      message: 'Cost imports and ad records of your Facebook campaigns stop until you connect again.',
      confirmLabel: 'Disconnect',
      danger: true,
    });
    if (!ok) return;
    setDisconnecting(true);
    try {
      await resetFbToken();
      notify.success(M.fbDisconnected);
    } catch {
      notify.error(M.fbDisconnectFailed);
    } finally {
      setDisconnecting(false);
      void mutate(FB_TOKEN_KEY);
    }
  };

  const loading = status.isLoading || token.isLoading;
  return (
    <Card
      title="Facebook"
      description="Connect your Facebook ad account to import spend and read ad performance."
      actions={
        <span
          className={connected ? 'badge badge-success' : 'badge badge-neutral'}
          data-testid="facebook-state"
        >
          {connected ? 'Connected' : 'Not connected'}
        </span>
      }
    >
      {loading || exchanging ? (
        <p className="integration-loading">
          <Spinner size={16} /> {exchanging ? 'Connecting Facebook…' : 'Loading…'}
        </p>
      ) : (
        <div className="integration-row">
          <div className="integration-detail">
            {connected ? (
              <p>
                Access token <code data-testid="facebook-token">{token.data?.token}</code>
              </p>
            ) : enabled ? (
              <p>You will sign in to Facebook and come back here.</p>
            ) : (
              <Alert tone="info">
                Facebook is not configured on this installation: set the Facebook app id and secret
                (docs/operations.md).
              </Alert>
            )}
          </div>
          {connected ? (
            <Button
              variant="danger"
              icon={<Unlink size={16} aria-hidden />}
              busy={disconnecting}
              onClick={() => void disconnect()}
            >
              Disconnect Facebook
            </Button>
          ) : (
            <Button
              variant="primary"
              icon={<Link2 size={16} aria-hidden />}
              busy={starting}
              onClick={() => void connect()}
              disabled={!enabled}
            >
              Connect Facebook
            </Button>
          )}
        </div>
      )}
      {connected && <ConversionTestForm />}
    </Card>
  );
}

export function IntegrationsScreen() {
  useDocumentTitle('Integrations');
  // The route has no entry check (spec 4 §2), but every call is the signed-in user's own.
  if (!readKey(KEYS.token)) {
    return (
      <div className="page integrations-page">
        <PageHeader title="Integrations" />
        <Card>
          <EmptyState
            icon={Plug}
            title="Sign in to connect your ad platforms"
            action={
              <Link className="btn btn-primary btn-md" to="/login">
                <span>Sign in</span>
              </Link>
            }
          >
            Connections and tokens belong to your account.
          </EmptyState>
        </Card>
      </div>
    );
  }
  return (
    <div className="page integrations-page">
      <PageHeader
        title="Integrations"
        description="Connect the ad platforms whose spend and ad performance this tracker imports. Stored tokens are encrypted and only their last 4 characters are shown."
      />
      <div className="integrations-grid">
        <FacebookCard />
        <PlatformTokenForm platform="tiktok" label="TikTok" />
        <PlatformTokenForm platform="mediago" label="MediaGo" />
        <TaboolaForm />
      </div>
    </div>
  );
}
