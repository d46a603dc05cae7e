import { useEffect } from 'react';
import { type Location, Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { useLogo } from '../api/hooks';

/** The installation's own favicon, when it has one (GET /api/logo). */
function useFavicon() {
  const { data } = useLogo();
  useEffect(() => {
    if (!data?.favicon) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link) {
      link.href = data.favicon;
      link.removeAttribute('type');
    }
  }, [data?.favicon]);
}

/**
 * Where a page was scrolled is kept per history entry. A page loaded by typing or opening its URL
 * has no entry of its own yet: React Router keys every such load "default", so the next URL opened
 * in the tab came back at the last one's scroll position. Those loads are keyed by their path.
 */
function scrollKey(location: Location): string {
  return location.key === 'default' ? location.pathname : location.key;
}

/** The abstract parent of every route: a thin progress bar while an entry check runs. */
export function RootLayout() {
  const navigation = useNavigation();
  useFavicon();
  return (
    <>
      <div className={navigation.state === 'idle' ? 'nav-progress' : 'nav-progress is-active'} aria-hidden />
      <Outlet />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
