import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';
import { ownerGridScenario } from './scenes-grid.js';

/**
 * The owner's grid of images in Chromium, written once in scenes-grid.ts (webkit.test.ts runs it in
 * WebKit): every tile's "Manage" and the controls it opens lie inside the tile and take the click,
 * at a desktop and a phone size, and the keyboard reaches them.
 */
eachEngine("site: the owner's grid", [chromium], (engine) => ownerGridScenario(useSite(engine)));
