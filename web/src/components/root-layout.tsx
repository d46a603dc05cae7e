import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** The abstract parent of every route: a thin progress bar while an entry check runs. */
export function RootLayout() {
  const navigation = useNavigation();
  return (
    <>
      <div className={navigation.state === 'idle' ? 'nav-progress' : 'nav-progress is-active'} aria-hidden />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
