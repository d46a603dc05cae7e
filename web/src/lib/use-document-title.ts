import { useEffect } from 'react';
import { APP_NAME } from './constants';

/** "<screen> · Edge Tracker" in the browser tab. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
