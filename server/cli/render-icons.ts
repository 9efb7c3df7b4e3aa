/**
 * Renders the PWA icons (public/icons/*.png) from their SVG sources with the machine's Chromium
 * (ImageMagick is not available everywhere): `node --import tsx server/cli/render-icons.ts`.
 * icon-192/icon-512/apple-touch-icon from logo.svg, icon-maskable-512 from maskable.svg (mark in the
 * 80 % safe zone), badge-72 from badge.svg (white mark on transparent).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const dir = path.resolve(import.meta.dirname, "../../public/icons");
const jobs: [svg: string, out: string, size: number][] = [
  ["logo.svg", "icon-192.png", 192],
  ["logo.svg", "icon-512.png", 512],
  ["logo.svg", "apple-touch-icon.png", 180],
  ["maskable.svg", "icon-maskable-512.png", 512],
  ["badge.svg", "badge-72.png", 72],
];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const [svg, out, size] of jobs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = readFileSync(path.join(dir, svg), "utf8").replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
    await page.setContent(`<html><body style="margin:0;background:transparent">${source}</body></html>`);
    await page.screenshot({ path: path.join(dir, out), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`${out} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
