// The bench's 200 simulated student installations in one Worker (tests/bench/operator.mjs):
// installation N lives under /sN and answers /sN/api/masterdashboard/reports with seeded,
// deterministic numbers. Every 20th installation is slow (3 s, past the operator's timeout) and
// every 25th (N % 25 === 1) fails with a 500.

const MICROS = 1_000_000;

function addDays(day, n) {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function dayNumbers(n, i, date) {
  const visits = 100 + ((n * 7 + i * 3) % 50);
  const spend = (n + 1) * MICROS;
  const revenue = (n % 3 === 0 ? n : n + 5) * 1.2 * MICROS;
  const conversions = 1 + ((n + i) % 4);
  return {
    date,
    visits,
    lp_clicks: Math.floor(visits / 3),
    conversions,
    impressions: visits * 10,
    ad_clicks: visits,
    ad_spend_micros: spend,
    revenue_micros: Math.round(revenue),
    ad_spend: spend / MICROS,
    revenue: Math.round(revenue) / MICROS,
  };
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const match = /^\/s(\d+)\/api\/masterdashboard\/reports$/.exec(url.pathname);
    if (!match) return Response.json({ message: 'Not found.' }, { status: 404 });
    const n = Number(match[1]);
    if (n % 20 === 0) await new Promise((r) => setTimeout(r, 3000));
    if (n % 25 === 1) return Response.json({ message: 'Something went wrong on our side.' }, { status: 500 });
    const from = url.searchParams.get('start_date');
    const to = url.searchParams.get('end_date');
    const days = [];
    for (let d = from, i = 0; d <= to && i < 400; d = addDays(d, 1), i++) days.push(dayNumbers(n, i, d));
    const sum = (k) => days.reduce((a, d) => a + d[k], 0);
    const spend = sum('ad_spend_micros');
    const revenue = sum('revenue_micros');
    const total = {
      ad_spend: spend / MICROS,
      revenue: revenue / MICROS,
      conversions: sum('conversions'),
      cpa: 0,
      ad_clicks: sum('ad_clicks'),
      net_profit: (revenue - spend) / MICROS,
      landing_page_ctr: 0,
      ad_ctr: 0,
      roi: spend ? Math.round(((revenue - spend) / spend) * 10000) / 100 : 0,
      visits: sum('visits'),
      lp_clicks: sum('lp_clicks'),
      impressions: sum('impressions'),
    };
    return Response.json({ data: { start_date: from, end_date: to, campaigns: [], days, total } });
  },
};
