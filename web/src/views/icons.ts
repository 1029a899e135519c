import { File as FileIcon, FileText, Film, Image, Lock, Music, NotebookPen, Package } from 'lucide-static';
import type { IconName } from '../state/preview.js';

/**
 * File icons from Lucide (lucide-static, ISC), bundled with the site: SVG drawn in the text's
 * colour, where emoji showed as empty boxes on machines without an emoji font. Only these icons
 * are imported, so only they are in the bundle.
 */
const SVG: Record<IconName, string> = {
  image: Image,
  video: Film,
  audio: Music,
  pdf: FileText,
  markdown: NotebookPen,
  text: FileIcon,
  none: Package,
  locked: Lock,
};

/** A decorative icon (hidden from the accessibility tree: the file's name says what it is). */
export function icon(name: IconName): SVGElement {
  const svg = new DOMParser().parseFromString(SVG[name], 'image/svg+xml').documentElement as unknown as SVGElement;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.dataset.icon = name;
  return document.importNode(svg, true);
}
