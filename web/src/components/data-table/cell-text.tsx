import { useId } from 'react';
import { tooltipParts } from './sorting';

/** A text cell; over 30 characters it is cut with an ellipsis and a tooltip lists its comma-separated parts. */
export function CellText({ text }: { text: string }) {
  const id = useId();
  const parts = tooltipParts(text);
  if (!parts) return <span>{text}</span>;
  return (
    <span className="dt-tip">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can read the whole text */}
      <span className="dt-tip-text" tabIndex={0} aria-describedby={id}>
        {text}
      </span>
      <span className="dt-tip-box" role="tooltip" id={id}>
        {parts.length > 1 ? (
          <ul>
            {parts.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts may repeat
              <li key={i}>{p}</li>
            ))}
          </ul>
        ) : (
          text
        )}
      </span>
    </span>
  );
}
