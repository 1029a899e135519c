import { savedLanguage, saveLanguage } from '../adapters/storage.js';
import {
  isLanguage,
  isRightToLeft,
  LANGUAGES,
  type Language,
  language,
  pickLanguage,
  setLanguage,
  t,
} from './index.js';

/**
 * The page's language: the one chosen with the switch (kept in localStorage), else the first of
 * the browser's languages (`navigator.languages`) the site speaks, else English. `<html lang>`
 * follows, so screen readers and hyphenation use the right language, and `<html dir>`: "rtl" for a
 * language written right to left, which mirrors the layout (web/src/style.css uses logical properties).
 */
export async function chooseLanguage(): Promise<Language> {
  const saved = savedLanguage();
  const lang = isLanguage(saved) ? saved : pickLanguage(navigator.languages ?? [navigator.language]);
  await applyLanguage(lang);
  return lang;
}

/** Loads the language's catalog and uses it; should that fail (the server went away), English stays. */
async function applyLanguage(lang: Language): Promise<void> {
  try {
    await setLanguage(lang);
  } catch {
    await setLanguage('en');
  }
  document.documentElement.lang = language();
  document.documentElement.dir = isRightToLeft(language()) ? 'rtl' : 'ltr';
}

/**
 * The language switch in the page's header. Choosing redraws the page (`redraw`: the router runs
 * again) so that every view speaks the new language; while an upload runs, redrawing would hide
 * its progress, so the new words apply to what is drawn next and the page says so.
 */
export function languageSwitch(redraw: () => void): HTMLElement {
  const select = document.createElement('select');
  select.id = 'language';
  select.setAttribute('aria-label', t('site.language'));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === language();
    select.append(option);
  }
  select.addEventListener('change', async () => {
    if (!isLanguage(select.value)) return;
    saveLanguage(select.value);
    await applyLanguage(select.value);
    select.setAttribute('aria-label', t('site.language'));
    redraw();
  });
  return select;
}
