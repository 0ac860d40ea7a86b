import { memo, useState } from 'react';
import { ActionIcon, Button, Checkbox, Divider, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconFileZip, IconSquareOff } from '@tabler/icons-react';
import { buildPath, MSG, P, snapshotsRoutes, toQueryString, type SnapshotListItem } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { showErrorModal } from '../../ui/feedback.tsx';
import { errorText } from '../../ui/api.ts';
import { downloadWithProgress, randomPassword } from './download.ts';
import { ExportModal, type ExportRequest } from './export.modal.tsx';
import { ShareEmailModal } from './share-email.modal.tsx';
import type { TileAbilities } from './snapshot-tile.tsx';
import { useModeration } from './moderation.hooks.tsx';

type Props = {
  /** The selected photos of the page (the same array while none are: a favourite skips this bar). */
  chosen: SnapshotListItem[];
  /** Photos on the page. */
  pageCount: number;
  onSelectAll: () => void;
  onClear: () => void;
  can: TileAbilities;
};

/**
 * Bulk actions on the selected photos of the page (spec 1 §2, §4, §5), on one line at 1280 px
 * (issue 28 point 5): the actions in words without icons, Deselect as an icon, and the export
 * (the event's photos as much as the selection) beside the tabs (AlbumExport).
 */
export const AlbumToolbar = memo(function AlbumToolbar({ chosen, pageCount, onSelectAll, onClear, can }: Props) {
  const { toggleFavorite, toggleBan, deletePhotos } = useModeration();
  const [emailOpen, setEmailOpen] = useState(false);
  // The server refuses these without their permissions (docs/security.md §6, §8).
  const canDownload = useCan(P.PHOTOS_DOWNLOAD);
  const canEmail = useCan(P.PHOTOS_EMAIL);
  const count = chosen.length;
  const all = pageCount > 0 && count === pageCount;

  const handleDownload = (type: 'rawCroppedURI' | 'sharedURI') => {
    const url =
      buildPath(snapshotsRoutes.downloadArchive.path) + toQueryString({ type, snapshots: chosen.map((s) => s._id) });
    downloadWithProgress(url, 'photos.zip', 'Downloading photos').catch((err: unknown) =>
      showErrorModal(errorText(err, MSG.common.genericError)),
    );
  };

  return (
    <Group gap="xs" wrap="wrap" data-testid="album-toolbar">
      {can.select && (
        <>
          <Checkbox
            label="Select all"
            checked={all}
            indeterminate={count > 0 && !all}
            onChange={() => (all ? onClear() : onSelectAll())}
            disabled={!pageCount}
          />
          <ActionIcon variant="subtle" aria-label="Deselect" title="Deselect" onClick={onClear} disabled={!count}>
            <IconSquareOff size={16} />
          </ActionIcon>
          <Text size="sm" c="dimmed" miw={80} data-testid="selected-count">
            {count} selected
          </Text>
          <Divider orientation="vertical" />
        </>
      )}
      {can.favorite && (
        <Button size="compact-sm" variant="default" disabled={!count} onClick={() => toggleFavorite(chosen)}>
          Favourite
        </Button>
      )}
      {can.ban && (
        <Button size="compact-sm" variant="default" disabled={!count} onClick={() => void toggleBan(chosen)}>
          {count && chosen.every((s) => s.hidden) ? 'Unban' : 'Ban'}
        </Button>
      )}
      {can.remove && (
        <Button
          size="compact-sm"
          variant="default"
          color="red"
          disabled={!count}
          onClick={() => void deletePhotos(chosen, onClear)}
        >
          Delete
        </Button>
      )}
      {canDownload && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="compact-sm" variant="default" rightSection={<IconChevronDown size={12} />} disabled={!count}>
              Download
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => handleDownload('rawCroppedURI')}>Raw</Menu.Item>
            <Menu.Item onClick={() => handleDownload('sharedURI')}>Overlayed</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      {canEmail && (
        <Button size="compact-sm" variant="default" disabled={!count} onClick={() => setEmailOpen(true)}>
          E-mail
        </Button>
      )}
      <ShareEmailModal
        opened={emailOpen}
        onClose={() => setEmailOpen(false)}
        links={chosen.map((s) => s.sharedURI || s.rawCroppedURI)}
      />
    </Group>
  );
});

/**
 * Export of the selected photos or of the whole event (spec 1 §5: export-all is refused while an
 * event is live), at the end of the album's tabs row.
 */
export const AlbumExport = memo(function AlbumExport({
  chosen,
  slugDates,
  anyLive,
}: {
  chosen: SnapshotListItem[];
  slugDates: string[];
  anyLive: boolean;
}) {
  const canDownload = useCan(P.PHOTOS_DOWNLOAD);
  const [exportRequest, setExportRequest] = useState<ExportRequest | null>(null);
  const count = chosen.length;
  if (!canDownload) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconFileZip size={14} />}
            rightSection={<IconChevronDown size={12} />}
            data-testid="album-export"
          >
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            disabled={!count}
            onClick={() => setExportRequest({ password: randomPassword(), id: chosen.map((s) => s._id) })}
          >
            Export selected ({count})
          </Menu.Item>
          <Tooltip label="Not while the event is live" disabled={!anyLive} position="left">
            <Menu.Item
              disabled={anyLive || !slugDates.length}
              onClick={() => setExportRequest({ password: randomPassword(), slugDate: slugDates })}
            >
              Export all photos of the event
            </Menu.Item>
          </Tooltip>
        </Menu.Dropdown>
      </Menu>
      <ExportModal request={exportRequest} onClose={() => setExportRequest(null)} />
    </>
  );
});
