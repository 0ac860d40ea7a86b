import { memo, useState } from 'react';
import { Button, Checkbox, Divider, Group, Menu, Text, Tooltip } from '@mantine/core';
import {
  IconBan,
  IconChevronDown,
  IconDownload,
  IconFileZip,
  IconHeart,
  IconMail,
  IconSquareOff,
  IconTrash,
} from '@tabler/icons-react';
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
  slugDates: string[];
  /** Export-all is refused while an event is live (spec 1 §5). */
  anyLive: boolean;
};

/** Bulk actions on the selected photos of the page (spec 1 §2, §4, §5). */
export const AlbumToolbar = memo(function AlbumToolbar({
  chosen,
  pageCount,
  onSelectAll,
  onClear,
  can,
  slugDates,
  anyLive,
}: Props) {
  const { toggleFavorite, toggleBan, deletePhotos } = useModeration();
  const [emailOpen, setEmailOpen] = useState(false);
  const [exportRequest, setExportRequest] = useState<ExportRequest | null>(null);
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
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconSquareOff size={14} />}
            onClick={onClear}
            disabled={!count}
          >
            Deselect
          </Button>
          <Text size="sm" c="dimmed" miw={80} data-testid="selected-count">
            {count} selected
          </Text>
          <Divider orientation="vertical" />
        </>
      )}
      {can.favorite && (
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconHeart size={14} />}
          disabled={!count}
          onClick={() => toggleFavorite(chosen)}
        >
          Favourite
        </Button>
      )}
      {can.ban && (
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconBan size={14} />}
          disabled={!count}
          onClick={() => void toggleBan(chosen)}
        >
          {count && chosen.every((s) => s.hidden) ? 'Unban' : 'Ban'}
        </Button>
      )}
      {can.remove && (
        <Button
          size="compact-sm"
          variant="default"
          color="red"
          leftSection={<IconTrash size={14} />}
          disabled={!count}
          onClick={() => void deletePhotos(chosen, onClear)}
        >
          Delete
        </Button>
      )}
      {canDownload && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconDownload size={14} />}
              rightSection={<IconChevronDown size={12} />}
              disabled={!count}
            >
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
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconMail size={14} />}
          disabled={!count}
          onClick={() => setEmailOpen(true)}
        >
          E-mail
        </Button>
      )}
      {canDownload && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconFileZip size={14} />}
              rightSection={<IconChevronDown size={12} />}
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
            <Tooltip label="Not while the event is live" disabled={!anyLive} position="right">
              <Menu.Item
                disabled={anyLive || !slugDates.length}
                onClick={() => setExportRequest({ password: randomPassword(), slugDate: slugDates })}
              >
                Export all photos of the event
              </Menu.Item>
            </Tooltip>
          </Menu.Dropdown>
        </Menu>
      )}
      <ShareEmailModal
        opened={emailOpen}
        onClose={() => setEmailOpen(false)}
        links={chosen.map((s) => s.sharedURI || s.rawCroppedURI)}
      />
      <ExportModal request={exportRequest} onClose={() => setExportRequest(null)} />
    </Group>
  );
});
