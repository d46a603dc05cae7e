// Tools (spec 1 route table: /tools): a link tester, a postback tester and a link builder, each
// a tab; the tab is kept in the address (?tab=) so a reload or a shared link opens the same one.
import { FlaskConical, Link2, Send } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { TabBar, type TabItem, tabStep } from '../../components/tab-bar';
import { useDocumentTitle } from '../../lib/use-document-title';
import { LinkBuilder } from './link-builder';
import { LinkTester } from './link-tester';
import { PostbackTester } from './postback-tester';

type TabKey = 'link-tester' | 'postback-tester' | 'link-builder';
const TABS: TabItem<TabKey>[] = [
  { key: 'link-tester', label: 'Link tester', icon: FlaskConical },
  { key: 'postback-tester', label: 'Postback tester', icon: Send },
  { key: 'link-builder', label: 'Link builder', icon: Link2 },
];

export function ToolsScreen() {
  useDocumentTitle('Tools');
  const [params, setParams] = useSearchParams();
  const tab = (TABS.find((t) => t.key === params.get('tab'))?.key ?? 'link-tester') as TabKey;
  const select = (key: TabKey) => setParams({ tab: key }, { replace: true });

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = tabStep(
      e.key,
      TABS.findIndex((t) => t.key === tab),
      TABS.length,
    );
    if (to === null) return;
    e.preventDefault();
    select(TABS[to].key);
    document.getElementById(`tools-tab-${TABS[to].key}`)?.focus();
  };

  return (
    <div className="page tools-page">
      <PageHeader
        title="Tools"
        description="Test a campaign link and a postback before you send paid traffic, and build the link for your traffic source. Nothing here counts in your statistics."
      />
      <TabBar
        tabs={TABS}
        selected={tab}
        onSelect={select}
        label="Tools"
        idPrefix="tools-tab"
        panelId="tools-panel"
        className="ce-tabs"
        tabClassName="ce-tab"
        onKeyDown={onKey}
      />
      <div id="tools-panel" role="tabpanel" aria-labelledby={`tools-tab-${tab}`} className="ce-tabpanel">
        {tab === 'link-tester' && <LinkTester />}
        {tab === 'postback-tester' && <PostbackTester />}
        {tab === 'link-builder' && <LinkBuilder />}
      </div>
    </div>
  );
}
