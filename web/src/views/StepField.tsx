// A step number field (the toolbar's step, the diff's from/to). What the user has typed is kept as
// a draft until it is committed (Enter or leaving the field): without it, a reply that arrives
// while the user types (a step asked for earlier, the diff's default pair) re-renders the field
// with the shown step, the typed number is lost and Enter commits nothing.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function StepField(p: {
  label: string;
  class?: string;
  children?: ComponentChildren;
  value: number;
  max: number;
  disabled?: boolean;
  onCommit: (k: number) => void;
  testid: string;
  ariaLabel?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <label class={p.class}>
      {p.label}{' '}
      <input
        type="number"
        min={0}
        max={p.max}
        value={draft ?? p.value}
        disabled={p.disabled}
        onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
        onChange={(e) => {
          setDraft(null);
          p.onCommit(Number((e.target as HTMLInputElement).value));
        }}
        data-testid={p.testid}
        aria-label={p.ariaLabel}
      />
      {p.children}
    </label>
  );
}
