import { eachEngine } from './driver.js';
import { chromium } from './driver-chromium.js';
import { firefox } from './driver-firefox.js';
import { dropAndGoScenario } from './scenes-drop.js';

/**
 * Drop and go in Chromium and Firefox: the scenario is written once in scenes-drop.ts
 * (webkit-drop.test.ts runs it in WebKit).
 */
eachEngine('site: drop and go', [chromium, firefox], dropAndGoScenario);
