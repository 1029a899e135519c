import { eachEngine } from './driver.js';
import { webkit } from './driver-webkit.js';
import { dropAndGoScenario } from './scenes-drop.js';

/**
 * Drop and go in WebKit, the scenario drop-and-go.test.ts runs in Chromium and Firefox (written once
 * in scenes-drop.ts): files picked on the home page make a folder with the settings on screen and
 * upload at once; the owner can change them after; a visitor gets the bytes. The 24-hour rule of an
 * empty folder is told only to someone who can upload.
 *
 * The files are picked, not dropped: W3C WebDriver cannot drag files from the operating system onto
 * a page (its actions move the pointer inside the page only), so the test sends the files' paths to
 * the home page's file input, the picker a person uses when not dragging. Both end in the same
 * handler (pickerZone in web/src/views/upload.ts). A folder is not picked here: WebKitWebDriver
 * sends a directory's path to the `webkitdirectory` input as that one path, not the files under it
 * (tried: the page got no file), so the folder picker is tested in Chromium only
 * (test/site/modes.test.ts). WebKitWebDriver runs one session at a time: the owner, then the
 * visitor, each in a fresh MiniBrowser profile.
 */
eachEngine('site in WebKit: drop and go', [webkit], dropAndGoScenario);
