import { describe, expect, it } from 'vitest';
import {
  aggregateElements,
  classifyElement,
  extractElements,
  type LandingStat,
} from '../../worker/services/statistics/aggregator';

const page = (
  id: number,
  name: string,
  visits: number,
  lpClicks: number,
  conversions: number,
  active = true,
  deleted = false,
): LandingStat => ({
  id,
  name,
  active,
  url: `https://lp.example/${name}`,
  deleted,
  visits,
  lpClicks,
  conversions,
  spend: visits * 10,
  revenue: conversions * 500,
});

describe('landing element aggregator', () => {
  it('groups pages by the element at each position of their names and sums their numbers', () => {
    const rows = aggregateElements([
      page(1, 'h1_imgA', 100, 40, 4),
      page(2, 'h1_imgB', 50, 10, 1, false),
      page(3, 'h2_imgA', 200, 20, 2, false),
      page(4, 'single', 999, 999, 99),
    ]);
    expect(rows).toHaveLength(2);
    const [headlines, images] = rows;
    expect(headlines.map((r) => [r.page, r.visits, r.lpClicks, r.conversions, r.status])).toEqual([
      ['h2', 200, 20, 2, 0],
      ['h1', 150, 50, 5, 1],
    ]);
    const h1 = headlines[1];
    expect(h1.landingIds).toEqual([1, 2]);
    expect(h1.urls).toEqual(['https://lp.example/h1_imgA', 'https://lp.example/h1_imgB']);
    expect(h1.lpCTR).toBe(33.33);
    expect(h1.cr).toBe(3.33);
    expect(h1.adSpent).toBe(1500);
    expect(h1.revenue).toBe(2500);
    expect(h1.netProfit).toBe(1000);
    expect(h1.cpa).toBe(300);
    expect(images.map((r) => [r.page, r.visits, r.status])).toEqual([
      ['imgA', 300, 1],
      ['imgB', 50, 0],
    ]);
  });

  it('ignores deleted pages for the status and honours another separator', () => {
    const rows = aggregateElements(
      [page(1, 'a-b', 10, 1, 0, true, true), page(2, 'a-c', 10, 1, 0, false)],
      '-',
    );
    expect(rows[0]).toHaveLength(1);
    expect(rows[0][0]).toMatchObject({ page: 'a', visits: 20, status: 0 });
  });
});

describe('element content and class (spec 3: cta when the content starts with an image tag)', () => {
  /** Each content is classified as `kind`. */
  const classifies = (kind: string, contents: string[]) => {
    for (const content of contents) expect(classifyElement(content), content).toBe(kind);
  };

  it('classifies an image as cta and anything else as header', () => {
    classifies('cta', ['<img src="/hero.png" alt="Hero">', '<img/>']);
    classifies('header', ['Save 50% today', '<h1>Save 50%</h1>', '']);
  });

  it('ignores leading whitespace and the case of the tag name, but needs the whole tag name', () => {
    classifies('cta', ['\n\t  <IMG SRC="a.png">', '  <Img\nsrc="a.png">']);
    // Not an image tag: another tag name, text before the image, an escaped tag.
    classifies('header', [
      '<imgx src="a.png">',
      '<image href="a.png">',
      'Look: <img src="a.png">',
      '&lt;img src="a.png"&gt;',
    ]);
  });

  it("reads each named element's content from the page's HTML", () => {
    const html = `<!doctype html><html><body>
      <h1 class="big" data-element="headline3">  Save <b>50%</b> today </h1>
      <div data-element='image1'>
        <img src="/hero.png" alt="Hero">
      </div>
      <img data-element="image2" src="/b.png">
      <section data-element="box"><section>inner</section> after</section>
      <p data-element="headline3">a second headline3 is ignored</p>
      <p data-element="">no name</p>
    </body></html>`;
    const elements = extractElements(html);
    expect(elements).toEqual([
      { name: 'headline3', content: 'Save <b>50%</b> today' },
      { name: 'image1', content: '<img src="/hero.png" alt="Hero">' },
      { name: 'image2', content: '<img data-element="image2" src="/b.png">' },
      { name: 'box', content: '<section>inner</section> after' },
    ]);
    expect(elements.map((e) => [e.name, classifyElement(e.content)])).toEqual([
      ['headline3', 'header'],
      ['image1', 'cta'],
      ['image2', 'cta'],
      ['box', 'header'],
    ]);
  });
});
