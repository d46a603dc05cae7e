// The stand-in pages and traffic sources of the Tools tests (tools.test.ts,
// tools-postback.test.ts), answering by host name: a landing page with a way out, one without,
// one that redirects to a metadata address, a postback receiver that answers OK; any other host
// is unreachable.
export function toolsStandIn(host: string): Response {
  switch (host) {
    case 'good.example.com':
      return new Response('<html><a href="https://tracker.example.com/click?option=1">Buy now</a></html>');
    case 'bare.example.com':
      return new Response('<html><p>No way out</p></html>');
    case 'moved.example.com':
      return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/' } });
    case 'ok.example.com':
      return new Response('OK');
    default:
      throw new TypeError('Network connection lost.');
  }
}
