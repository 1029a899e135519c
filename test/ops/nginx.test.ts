import { nginx, startNginx } from './nginx.js';
import { missingTools, proxySuite } from './proxy-suite.js';

/**
 * The service behind Debian's nginx with TLS, as docs/deployment.md says to run it: the test takes
 * the nginx server block from that page (so the documented configuration is the tested one) and runs
 * the reverse-proxy checks of proxy-suite.ts through it. Skips without nginx or openssl, fails
 * instead when TEST_REQUIRE_NGINX=1 (CI).
 */
const SKIP = missingTools('nginx', nginx, 'TEST_REQUIRE_NGINX');

proxySuite('nginx', SKIP, (setup) => startNginx(setup));
