import { useEffect, useState } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { MSG, COPIED_MS } from '@stadiumcam/contract';
import { showErrorModal } from '../../ui/feedback.tsx';

/** Writes `value` to the clipboard; "Copied!" for 1.5 s, the "Oops..." modal when refused (spec 1 §4, §8). */
export function CopyLinkButton({ value, label = 'Copy link' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  const handleCopy = () => {
    // Without a clipboard (insecure origin) the call throws: same modal as a refusal.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(
        () => setCopied(true),
        () => showErrorModal(),
      );
  };

  return (
    <Tooltip label={copied ? MSG.album.copied : label} opened={copied || undefined} withArrow>
      <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} aria-label={label} onClick={handleCopy}>
        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}
