import {
  Building2,
  Database,
  Image,
  KeyRound,
  Lock,
  type LucideIcon,
  Network,
  Plug,
  Route,
  ShieldCheck,
  TextSearch,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PageHeader } from '../../components/page-header';
import { useDocumentTitle } from '../../lib/use-document-title';
import { type InstallationSettings, useSettings } from './api';
import { BasicPane } from './basic-pane';
import { DataPane } from './data-pane';
import { FindReplacePane } from './find-replace-pane';
import { LicensePane } from './license-pane';
import { LiveIntentPane } from './liveintent-pane';
import { OperatorCredentialPane } from './operator-credential-pane';
import { PasswordPane } from './password-pane';
import { PostbackSecretPane } from './postback-secret-pane';

type Section = { id: string; label: string; icon: LucideIcon };

const ADMIN_SECTIONS: Section[] = [
  { id: 'general', label: 'Installation', icon: Building2 },
  { id: 'branding', label: 'Branding', icon: Image },
  { id: 'routes', label: 'Tracking routes', icon: Route },
  { id: 'password', label: 'Password', icon: KeyRound },
  { id: 'postback-secret', label: 'Postback secret', icon: Lock },
  { id: 'operator-credential', label: 'Master dashboard', icon: Network },
  { id: 'liveintent', label: 'LiveIntent', icon: Plug },
  { id: 'find-replace', label: 'Find and replace', icon: TextSearch },
  { id: 'data', label: 'Data', icon: Database },
  { id: 'license', label: 'License', icon: ShieldCheck },
];
const USER_SECTIONS: Section[] = [
  { id: 'password', label: 'Password', icon: KeyRound },
  { id: 'find-replace', label: 'Find and replace', icon: TextSearch },
];

/** The section in view, for the side index (the last one whose top passed the header). */
function useActiveSection(ids: string[]) {
  const [active, setActive] = useState(ids[0]);
  useEffect(() => {
    const onScroll = () => {
      let current = ids[0];
      for (const sectionId of ids) {
        const el = document.getElementById(sectionId);
        if (el && el.getBoundingClientRect().top < 140) current = sectionId;
      }
      // At the bottom of the page the last section counts, however short it is.
      const scrollable = document.documentElement.scrollHeight > window.innerHeight + 4;
      if (scrollable && window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 4) {
        current = ids[ids.length - 1];
      }
      setActive(current);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [ids]);
  return active;
}

function SectionIndex({ sections }: { sections: Section[] }) {
  const active = useActiveSection(sections.map((s) => s.id));
  return (
    <nav className="settings-index" aria-label="Settings sections">
      <ul>
        {sections.map(({ id, label, icon: Icon }) => (
          <li key={id}>
            <a
              href={`#${id}`}
              className={active === id ? 'settings-index-link is-active' : 'settings-index-link'}
              aria-current={active === id ? 'location' : undefined}
              onClick={(e) => {
                e.preventDefault();
                document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                history.replaceState(null, '', `#${id}`);
              }}
            >
              <Icon size={16} aria-hidden />
              <span>{label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function LoadingCards() {
  return (
    <div className="settings-main" aria-busy="true">
      <span className="sr-only">Loading settings…</span>
      {[0, 1, 2].map((i) => (
        <div className="card settings-skeleton" key={i}>
          <div className="skeleton skeleton-title" />
          <div className="skeleton-grid">
            <div className="skeleton" />
            <div className="skeleton" />
            <div className="skeleton" />
            <div className="skeleton" />
          </div>
        </div>
      ))}
    </div>
  );
}

function AdminPanes({ settings }: { settings: InstallationSettings }) {
  return (
    <>
      <BasicPane settings={settings} />
      <PasswordPane username={settings.username} />
      <PostbackSecretPane />
      <OperatorCredentialPane />
      <LiveIntentPane settings={settings} />
      <FindReplacePane canManage />
      <DataPane />
      <LicensePane />
    </>
  );
}

/** Settings (spec 2 §2): admins manage the installation; everyone manages their password. */
export function SettingsScreen() {
  useDocumentTitle('Settings');
  const { data, error, isLoading, mutate } = useSettings();
  const sections = data?.canManage ? ADMIN_SECTIONS : USER_SECTIONS;

  return (
    <>
      <PageHeader
        title="Settings"
        description={
          data && !data.canManage
            ? 'Your password and bulk edits of your campaigns. The installation’s settings are managed by an administrator.'
            : 'Installation, branding, tracking routes, credentials and data of this tracker.'
        }
      />
      {error && !data ? (
        <Alert>
          {error instanceof ApiError ? error.firstMessage : 'The settings could not be loaded.'}{' '}
          <Button size="sm" variant="ghost" onClick={() => void mutate()}>
            Try again
          </Button>
        </Alert>
      ) : isLoading || !data ? (
        <LoadingCards />
      ) : (
        <div className="settings-layout">
          <SectionIndex sections={sections} />
          <div className="settings-main" data-testid="settings-main">
            {data.canManage ? (
              <AdminPanes settings={data} />
            ) : (
              <>
                <PasswordPane username={data.username} />
                <FindReplacePane canManage={false} />
              </>
            )}
          </div>
        </div>
      )}
    </>
  );
}
