import type { PublicTemplate } from './api.ts';

/** Colours are CSS variables (`--theme-<field>`, `--icon-<field>`): a change repaints without a reload. */
export function applyColors(colors: Pick<PublicTemplate, 'theme' | 'iconColor'>): void {
  const style = document.documentElement.style;
  for (const [k, v] of Object.entries(colors.theme)) style.setProperty(`--theme-${k}`, v);
  for (const [k, v] of Object.entries(colors.iconColor)) style.setProperty(`--icon-${k}`, v);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', colors.theme.backgroundColor ?? '#000');
}
