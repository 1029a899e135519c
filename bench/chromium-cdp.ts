/** The benchmarks' Chromium driver lives with the tests that use it too (test/support/chromium-cdp.ts). */
export * from '../test/support/chromium-cdp.js';
