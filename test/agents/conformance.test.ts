import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * The official MCP conformance suite against /mcp, for protocol 2026-07-28 and 2025-06-18. The
 * suite needs Node >= 22; scripts/ci/40-mcp-conformance.sh installs it outside the repository and
 * sets MCP_CONFORMANCE_DIR, and MCP_CONFORMANCE_NODE to the Node 24 of scripts/node24.sh (a test run
 * on Node >= 22 may leave that out: the suite then runs on the same Node). Without them the test
 * skips, except when TEST_REQUIRE_MCP_CONFORMANCE=1 (set in CI), where it fails. Many scenarios need fixture tools, prompts
 * or resources this server deliberately lacks; those failing checks are listed in
 * conformance-baseline.json, and any failing check not listed there fails this test.
 */
const DIR = process.env.MCP_CONFORMANCE_DIR;
const ownNodeCan = Number(process.versions.node.split('.')[0]) >= 22;
const NODE = process.env.MCP_CONFORMANCE_NODE || (ownNodeCan ? process.execPath : '');
const CLI = DIR ? join(DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js') : '';
const missing = !DIR
  ? 'MCP_CONFORMANCE_DIR is not set: run scripts/ci/40-mcp-conformance.sh (CI does) to install the suite'
  : !existsSync(CLI)
    ? `MCP_CONFORMANCE_DIR=${DIR} has no suite in it: run scripts/ci/40-mcp-conformance.sh`
    : !NODE || !existsSync(NODE)
      ? `no Node >= 22 for the suite: set MCP_CONFORMANCE_NODE (scripts/ci/40-mcp-conformance.sh does)`
      : false;
if (missing && process.env.TEST_REQUIRE_MCP_CONFORMANCE === '1') {
  test('the MCP conformance suite is required (TEST_REQUIRE_MCP_CONFORMANCE=1)', () => {
    assert.fail(`${missing} (TEST_REQUIRE_MCP_CONFORMANCE=1)`);
  });
}
const skip = missing;

interface Baseline {
  package: string;
  runs: Record<string, { args: string[]; expectedFailures: Record<string, string> }>;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** `scenario/checkId` of every failing check in a results directory (one folder per scenario). */
async function failingChecks(outputDir: string): Promise<{ failing: Map<string, string>; scenarios: number }> {
  const failing = new Map<string, string>();
  const entries = await readdir(outputDir);
  for (const entry of entries) {
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
    const file = join(outputDir, entry, 'checks.json');
    if (!existsSync(file)) {
      failing.set(`${scenario}/(no results)`, 'the scenario wrote no checks.json');
      continue;
    }
    const checks = JSON.parse(await readFile(file, 'utf8')) as Check[];
    for (const c of checks)
      if (c.status === 'FAILURE' || c.status === 'ERROR')
        failing.set(`${scenario}/${c.id}`, c.errorMessage ?? c.status);
  }
  return { failing, scenarios: entries.length };
}

describe('MCP conformance suite', () => {
  let server: RunningServer;
  let baseline: Baseline;
  before(async () => {
    if (skip) return;
    // The suite sends hundreds of requests from one address: lift the limits for this run only.
    server = await startServer({ RATE_LIMIT_AGENTS: '1000000', RATE_LIMIT_CREATE: '1000000' });
    baseline = JSON.parse(await readFile(new URL('./conformance-baseline.json', import.meta.url), 'utf8')) as Baseline;
  });
  after(async () => server?.close());

  for (const version of ['2026-07-28', '2025-06-18']) {
    test(`protocol ${version}: no failures beyond the baseline`, { skip }, async (t) => {
      const spec = baseline.runs[version]!;
      const outputDir = await tempDir('webfolder-conformance-');
      try {
        const { output } = await run([
          'server',
          '--url',
          `${server.baseUrl}/mcp`,
          ...spec.args,
          '--output-dir',
          outputDir,
        ]);
        const { failing, scenarios } = await failingChecks(outputDir);
        assert.ok(scenarios > 10, `the suite ran (${scenarios} scenarios):\n${output.slice(-3000)}`);
        const unexpected = [...failing].filter(([key]) => !(key in spec.expectedFailures));
        const nowPassing = Object.keys(spec.expectedFailures).filter((key) => !failing.has(key));
        t.diagnostic(
          `${scenarios} scenarios, ${failing.size} failing checks, ${failing.size - unexpected.length} of them expected (${baseline.package})`,
        );
        if (nowPassing.length)
          t.diagnostic(
            `baseline entries that now pass (remove them from conformance-baseline.json): ${nowPassing.join(', ')}`,
          );
        assert.deepEqual(
          unexpected.map(([key, why]) => `${key}: ${why}`),
          [],
          'new conformance failures (fix them; add to the baseline only what needs a fixture this server cannot have)',
        );
      } finally {
        await rm(outputDir, { recursive: true, force: true });
      }
    });
  }
});
