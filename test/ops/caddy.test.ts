import { caddy, startCaddy } from './caddy.js';
import { missingTools, proxySuite } from './proxy-suite.js';

/**
 * The service behind Debian's Caddy (2.6) with TLS, as docs/deployment.md says to run it: the test
 * takes the ```caddyfile site block from that page, puts this test's address and certificate in
 * place of the public name and runs the reverse-proxy checks of proxy-suite.ts through it. Skips
 * without caddy or openssl, fails instead when TEST_REQUIRE_CADDY=1 (CI).
 */
const SKIP = missingTools('caddy', caddy, 'TEST_REQUIRE_CADDY');

proxySuite('caddy', SKIP, (setup) => startCaddy(setup));
