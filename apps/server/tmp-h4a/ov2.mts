import sharp from 'sharp';
const S = 2160;
async function t(label: string, svg: string) {
  const t0 = Date.now();
  const b = await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
  console.log(label, Date.now() - t0, b.length);
}
const path = `<path fill-rule="evenodd" fill="#1c7ed6" d="M0 0H${S}V${S}H0Z M120 120H${S - 120}V${S - 300}H120Z"/>`;
await t('path', `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}">${path}</svg>`);
await t('path2', `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}">${path}</svg>`);
await t('text', `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}">${path}<text x="1080" y="2050" font-family="DejaVu Sans" font-size="150" font-weight="bold" fill="#fff" text-anchor="middle">GAME DAY</text></svg>`);
await t('text2', `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}">${path}<text x="1080" y="2050" font-family="DejaVu Sans" font-size="150" font-weight="bold" fill="#fff" text-anchor="middle">GO TEAM</text></svg>`);
