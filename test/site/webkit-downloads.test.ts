import { eachEngine, useGatedSite } from './driver.js';
import { webkit } from './driver-webkit.js';
import { pausedDownloadScenario } from './scenes-pause.js';
import { keptTicketScenario } from './scenes-reload.js';
import { resumeScenario } from './scenes-resume.js';
import { oneTicketScenario } from './scenes-ticket.js';

/**
 * The download scenarios in WebKit, through the gate (test/support/gate.ts) in front of the server,
 * each written once in a scenes module and run here with `eachEngine(…, [webkit], …)` (this file runs
 * on its own, before the rest: WebKit's MiniBrowser stalled beside the 4 GiB ZIP64 test).
 */

/**
 * An upload a reload cut off: the "did not finish" note, which goes as soon as the same file resumes,
 * and only the missing chunks sent: written once in scenes-resume.ts (firefox.test.ts runs it in
 * Firefox).
 */
eachEngine('site in WebKit: an upload resumed after a reload', [webkit], (engine) =>
  resumeScenario(useGatedSite(engine)),
);

/**
 * The pause and "Try again now" through the service worker and, with WebKit's ServiceWorkers feature
 * off, in memory, and a refusal that fails at once on both paths: written once in scenes-pause.ts
 * (download-outage.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: a download paused by a long outage', [webkit], pausedDownloadScenario);

/**
 * A failed download that goes on after a reload (service worker), or after the page was left and the
 * link opened again (in memory), and a paused one after a reload, each with the ticket the page kept:
 * written once in scenes-reload.ts (download-reload.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: a kept ticket survives a reload', [webkit], keptTicketScenario);

/**
 * The waiting line through an outage, a failed one-download download started again by hand with its
 * kept ticket, and the viewer's preview and Download as one download: written once in
 * scenes-ticket.ts (download-ticket.test.ts runs it in Chromium and Firefox).
 */
eachEngine('site in WebKit: one download per ticket', [webkit], oneTicketScenario);
