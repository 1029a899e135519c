/**
 * The web app manifest that makes the site installable (Android, desktop Chromium, a home-screen
 * icon elsewhere): the instance's name (SITE_NAME), its path, its icon and the light theme's
 * colours (the page's dark colours are its <meta name="theme-color" media=…> tags). Rendered per
 * instance like the page's shell, from a name and a path only: it carries no code, so the site
 * manifest lists its icon (a file of the build) but not this text.
 */
export const WEB_APP_MANIFEST_PATH = '/app.webmanifest';
/** The icon the build copies from web/src/favicon.svg to the site's root (web/vite.config.ts). */
export const APP_ICON_PATH = '/icon.svg';
/** The page's light background (web/src/style.css: --bg), so that an app window's title bar is the page's. */
export const APP_COLOURS = { background: '#fafaf7', theme: '#fafaf7' } as const;

export interface WebAppManifest {
  readonly id: string;
  readonly name: string;
  readonly short_name: string;
  readonly start_url: string;
  readonly scope: string;
  readonly display: 'standalone';
  readonly background_color: string;
  readonly theme_color: string;
  readonly icons: readonly {
    readonly src: string;
    readonly sizes: string;
    readonly type: string;
    readonly purpose: string;
  }[];
}

/** `base`: the site's path with its trailing slash ('/' at the root). */
export function webAppManifest(name: string, base: string): WebAppManifest {
  return {
    id: base,
    name,
    // Under a launcher icon there is room for about 12 characters.
    short_name: name.length <= 12 ? name : `${name.slice(0, 11)}…`,
    start_url: base,
    scope: base,
    display: 'standalone',
    background_color: APP_COLOURS.background,
    theme_color: APP_COLOURS.theme,
    // One vector icon for every size a platform asks for (no rasteriser is part of the build).
    icons: [{ src: `${base}${APP_ICON_PATH.slice(1)}`, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  };
}
