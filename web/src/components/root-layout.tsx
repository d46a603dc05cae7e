import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
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

/** The abstract parent of every route: a thin progress bar while an entry check runs. */
export function RootLayout() {
  const navigation = useNavigation();
  useFavicon();
  return (
    <>
      <div className={navigation.state === 'idle' ? 'nav-progress' : 'nav-progress is-active'} aria-hidden />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
