import { eachEngine, useGatedSite, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { firstMinuteScenario } from './scenes-first.js';
import { resumeScenario } from './scenes-resume.js';

/**
 * A person's first minute and messages that stay true, in Chromium and Firefox, written once in
 * scenes-first.ts (webkit.test.ts runs it in WebKit): the home form's counters, its own limit
 * message and the focus after Create, 44 px preview names, sizes as the CLI says them, a folder
 * deleted while a visitor's page is open, no e-mail without SMTP_URL, the named PDF viewer, mode
 * texts on a phone.
 */
eachEngine('site: the first minute and true messages', [chromium, firefox], (engine) =>
  firstMinuteScenario(useSite(engine)),
);

/**
 * Through the gate in front of the server: an upload a reload cut off is said not to have finished,
 * the note goes as soon as it resumes, and only the missing chunks are sent; written once in
 * scenes-resume.ts (webkit-downloads.test.ts runs it in WebKit).
 */
eachEngine('site: an upload resumed after a reload', [chromium, firefox], (engine) =>
  resumeScenario(useGatedSite(engine)),
);
