// A QR code of a link (qrcode-generator, docs/decisions/062): drawn as one SVG path, so it
// scales crisply and prints; the quiet zone of 4 modules is part of the picture.
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

const QUIET = 4;

export function QrCode({ value, size = 200, label }: { value: string; size?: number; label: string }) {
  const drawing = useMemo(() => {
    if (!value) return null;
    const qr = qrcode(0, 'M');
    qr.addData(value);
    qr.make();
    const count = qr.getModuleCount();
    let path = '';
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) {
        if (qr.isDark(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`;
      }
    }
    return { path, extent: count + QUIET * 2 };
  }, [value]);
  if (!drawing) return null;
  return (
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
      <path d={drawing.path} fill="#111827" />
    </svg>
  );
}
