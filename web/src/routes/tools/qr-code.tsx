// A QR code of a link (qrcode-generator, docs/decisions/062): drawn as one SVG path, so it
// scales crisply and prints; the quiet zone of 4 modules is part of the picture. It downloads as
// PNG (for ad platforms and print shops that take pictures only) or SVG (decision 143).
import { Download } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import { Button } from '../../components/button';

const QUIET = 4;
/** Pixels per module of the PNG: a 33-module code becomes 328 x 328 px. */
const PNG_SCALE = 8;
const DARK = '#111827';

type Drawing = { dark: [number, number][]; path: string; extent: number };

function draw(value: string): Drawing {
  const qr = qrcode(0, 'M');
  qr.addData(value);
  qr.make();
  const count = qr.getModuleCount();
  const dark: [number, number][] = [];
  let path = '';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (!qr.isDark(row, col)) continue;
      dark.push([col + QUIET, row + QUIET]);
      path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
    }
  }
  return { dark, path, extent: count + QUIET * 2 };
}

function svgText({ path, extent }: Drawing, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${extent} ${extent}" shape-rendering="crispEdges"><rect width="${extent}" height="${extent}" fill="#fff"/><path d="${path}" fill="${DARK}"/></svg>`;
}

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Drawn module by module on a canvas (no image to load, so the page's CSP is not involved). */
function savePng({ dark, extent }: Drawing, name: string) {
  const canvas = document.createElement('canvas');
  canvas.width = extent * PNG_SCALE;
  canvas.height = extent * PNG_SCALE;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = DARK;
  for (const [x, y] of dark) ctx.fillRect(x * PNG_SCALE, y * PNG_SCALE, PNG_SCALE, PNG_SCALE);
  canvas.toBlob((blob) => blob && save(blob, name), 'image/png');
}

/** 'qr-go-12' for https://t.example.com/go/12?tid={ad_id}: the link's path names the file. */
function qrFileName(value: string): string {
  let path = value;
  try {
    path = new URL(value).pathname;
  } catch {
    // not an absolute URL: its own text names the file
  }
  const slug = path
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `qr-${slug || 'link'}`;
}

export function QrCode({ value, size = 200, label }: { value: string; size?: number; label: string }) {
  const drawing = useMemo(() => (value ? draw(value) : null), [value]);
  if (!drawing) return null;
  const name = qrFileName(value);
  return (
    <div className="tools-qr-box">
      <svg
        className="tools-qr"
        role="img"
        aria-label={label}
        width={size}
        height={size}
        viewBox={`0 0 ${drawing.extent} ${drawing.extent}`}
        shapeRendering="crispEdges"
        data-testid="qr-code"
      >
        <rect width={drawing.extent} height={drawing.extent} fill="#fff" />
        <path d={drawing.path} fill={DARK} />
      </svg>
      <div className="tools-qr-actions">
        <Button
          size="sm"
          variant="secondary"
          icon={<Download size={14} aria-hidden />}
          onClick={() => savePng(drawing, `${name}.png`)}
        >
          Download PNG
        </Button>
        <Button
          size="sm"
          variant="secondary"
          icon={<Download size={14} aria-hidden />}
          onClick={() => save(new Blob([svgText(drawing, 512)], { type: 'image/svg+xml' }), `${name}.svg`)}
        >
          Download SVG
        </Button>
      </div>
    </div>
  );
}
