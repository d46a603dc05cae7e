import type { ElementTagType, LandingElementsAnswer } from '../../../../schema/stats-api';

// The aggregator's element content (spec 3 §4): each element's content is read from one of its
// landing pages through get-landing-elements-data, one element at a time, and the server says
// its class (cta when it starts with an image tag, otherwise header).

export type ElementContent =
  | { status: 'loading' }
  | { status: 'found'; tagType: ElementTagType; tagContent: string }
  | { status: 'missing'; reason: string };

export const elementKey = (position: number, page: string) => `${position}:${page}`;

type Failure = { error: string };

/**
 * Reads the elements' content in order, one at a time, asking for each landing page once; an
 * element not on its first page is looked for on its next. Each result is told as it comes.
 */
export async function readElementContents(
  elements: readonly { position: number; page: string; urls: readonly string[] }[],
  fetchPage: (url: string) => Promise<LandingElementsAnswer>,
  onResult: (key: string, content: ElementContent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const pages = new Map<string, LandingElementsAnswer | Failure>();
  for (const e of elements) {
    if (signal?.aborted) return;
    let reason = e.urls.length
      ? `No element named "${e.page}" was found on its landing pages.`
      : 'Its landing pages have no URL.';
    let found: ElementContent | null = null;
    for (const url of e.urls) {
      let page = pages.get(url);
      if (!page) {
        try {
          page = await fetchPage(url);
        } catch (err) {
          if (signal?.aborted) return;
          const message = (err as { firstMessage?: string }).firstMessage ?? (err as Error).message;
          page = { error: message || 'The landing page could not be read.' };
        }
        pages.set(url, page);
      }
      const variation = 'variations' in page ? page.variations.find((v) => v.name === e.page) : undefined;
      if (variation) {
        found = { status: 'found', tagType: variation.tagType, tagContent: variation.content };
        break;
      }
      if (page.error) reason = page.error;
    }
    onResult(elementKey(e.position, e.page), found ?? { status: 'missing', reason });
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** What a table cell shows of an element: an image's alt text, or a header's text without tags. */
export function elementPreview(content: { tagType: ElementTagType; tagContent: string }): string {
  const decode = (text: string) =>
    text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]);
  if (content.tagType === 'cta') {
    const alt = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(content.tagContent);
    const text = decode(alt?.[1] ?? alt?.[2] ?? '').trim();
    return text ? `Image: ${text}` : 'Image';
  }
  return decode(content.tagContent.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
