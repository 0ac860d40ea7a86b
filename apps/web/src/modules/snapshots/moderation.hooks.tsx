import { useCallback } from 'react';
import { Group, Image, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Snapshot } from '@stadiumcam/contract';
import { confirm, showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { useBan, useBanUser, useDeleteSnapshots, useFavorite } from './snapshots.hooks.ts';
import { MSG } from '@stadiumcam/contract';

type Photo = Pick<Snapshot, '_id' | 'userId' | 'hidden' | 'favorite' | 'thumbURI'>;

const DELETE_PREVIEW = 3;

function confirmDelete(photos: Photo[]): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: photos.length > 1 ? MSG.album.deletePhotosConfirm : MSG.album.deletePhotoConfirm,
      centered: true,
      children: (
        <Stack gap="sm">
          <Text size="sm">{MSG.album.deleteIrreversible}</Text>
          <Group gap="xs" data-testid="delete-preview">
            {photos.slice(0, DELETE_PREVIEW).map((p) => (
              <Image key={p._id} src={p.thumbURI} w={96} h={72} radius="sm" fit="cover" alt="" />
            ))}
            {photos.length > DELETE_PREVIEW && (
              <Text size="sm" c="dimmed">
                +{photos.length - DELETE_PREVIEW} more
              </Text>
            )}
          </Group>
        </Stack>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** Favourite, ban and delete with the spec's confirmations, for tiles, the toolbar and the lightbox. */
export function useModeration() {
  // mutate functions are stable, so the callbacks below are too (tiles are memoised).
  const { mutate: setFavorite } = useFavorite();
  const { mutate: setBan } = useBan();
  const { mutate: setUserBan } = useBanUser();
  const { mutate: removeMany, isPending: deleting } = useDeleteSnapshots();

  const toggleFavorite = useCallback(
    (photos: Photo[]) => {
      if (!photos.length) return;
      // One click on a mixed selection makes them all favourites; on all-favourites it clears them.
      const value = !photos.every((p) => p.favorite);
      setFavorite({ ids: photos.map((p) => p._id), favorite: value });
    },
    [setFavorite],
  );

  const toggleBan = useCallback(
    async (photos: Photo[]) => {
      if (!photos.length) return;
      const banStatus = !photos.every((p) => p.hidden);
      if (banStatus && !(await confirm({ title: 'Ban Photo', text: MSG.album.banPhotoWarning, danger: true }))) return;
      setBan({ ids: photos.map((p) => p._id), banStatus });
    },
    [setBan],
  );

  const toggleBanUser = useCallback(
    async (photo: Photo) => {
      const banStatus = !photo.hidden;
      if (banStatus && !(await confirm({ title: 'Ban User', text: MSG.album.banUserWarning, danger: true }))) return;
      setUserBan({ userId: photo.userId, banStatus });
    },
    [setUserBan],
  );

  const deletePhotos = useCallback(
    async (photos: Photo[], onDone?: () => void) => {
      if (!photos.length || !(await confirmDelete(photos))) return;
      removeMany(
        photos.map((p) => p._id),
        {
          onSuccess: () => {
            onDone?.();
            showSuccessModal(MSG.album.snapshotDeleted);
          },
          onError: () => showErrorModal(),
        },
      );
    },
    [removeMany],
  );

  return { toggleFavorite, toggleBan, toggleBanUser, deletePhotos, deleting };
}
