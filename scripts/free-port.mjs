// One free loopback port, for the servers `npm start`, the tests and the benchmarks start.
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1, for a server a script starts. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
