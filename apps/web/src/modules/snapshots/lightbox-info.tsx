import type { ReactNode } from 'react';
import { Accordion, Anchor, Badge, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconCamera, IconEye, IconInfoCircle, IconUser } from '@tabler/icons-react';
import {
  buildPath,
  MSG,
  FACE_CONFIDENCE_THRESHOLD,
  overlayLabel,
  P,
  snapshotsRoutes,
  type Face,
  type Snapshot,
} from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { CopyLinkButton } from './copy-link-button.tsx';
import { fullTime } from './snapshot-time.ts';
import { isNotFound, useExif, useFacesData, useUserStats } from './snapshots.hooks.ts';
import { isVideo } from './snapshot-tile.tsx';

export type InfoCard = 'image' | 'user' | 'exif' | 'vision';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td c="dimmed" w={110} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Td>
      <Table.Td style={{ wordBreak: 'break-word' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return (
    <Table fz="xs" verticalSpacing={3} horizontalSpacing={4} withRowBorders={false}>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}

/** "02/04/2025 01:58:00 pm CDT" in a narrow column: it wraps after the date, never inside the time. */
function Stamp({ text }: { text: string }) {
  const space = text.indexOf(' ');
  return (
    <>
      {text.slice(0, space + 1)}
      <span style={{ whiteSpace: 'nowrap' }}>{text.slice(space + 1)}</span>
    </>
  );
}

const absolute = (uri: string) => new URL(uri, window.location.origin).href;

function Note({ children, color }: { children: string; color?: string }) {
  return (
    <Text size="sm" c={color ?? 'dimmed'}>
      {children}
    </Text>
  );
}

function ImageCard({
  s,
  timezone,
  eventTitle,
  onShowUser,
}: {
  s: Snapshot;
  timezone: string;
  eventTitle?: string;
  onShowUser: () => void;
}) {
  return (
    <Stack gap="xs">
      <Facts>
        <Row label="Taken">
          {/* In the event's zone with its label and am/pm, as every time of the console. */}
          <span title={timezone} data-testid="info-taken">
            <Stamp text={fullTime(s.date, timezone)} />
          </span>
        </Row>
        <Row label="Event">{eventTitle ? `${eventTitle} (${s.slugDate})` : s.slugDate}</Row>
        <Row label="Camera">{s.camera}</Row>
        <Row label="Seat">
          {s.seatType !== 'section' ? `${s.seatType} · ` : ''}
          {MSG.album.seatWords(s)}
        </Row>
        <Row label="User">
          {/* A fan's id is a long token: one line, whole on hover. */}
          <Anchor
            component="button"
            fz="xs"
            onClick={onShowUser}
            title={s.userId}
            maw={160}
            style={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          >
            {s.userId}
          </Anchor>
        </Row>
        <Row label="Media">{isVideo(s) ? 'Video' : 'Image'}</Row>
        <Row label="Overlay">{s.overlay ? overlayLabel(s.overlay) : 'none'}</Row>
        <Row label="Status">
          <Group gap={4}>
            {s.favorite && (
              <Badge size="xs" color="red">
                Favourite
              </Badge>
            )}
            {s.hidden && (
              <Badge size="xs" color="gray">
                Banned
              </Badge>
            )}
            {s.magicshot && (
              <Badge size="xs" color="grape">
                Magicshot
              </Badge>
            )}
            {!s.favorite && !s.hidden && !s.magicshot && '—'}
          </Group>
        </Row>
        <Row label="Shares">
          {s.postObj.length === 0
            ? 'not shared'
            : s.postObj.map((p, i) => (
                <div key={i}>
                  {p.socialSource} · <Stamp text={fullTime(p.date, timezone)} />
                  {p.userEmail ? ` · ${p.userEmail}` : ''}
                </div>
              ))}
        </Row>
      </Facts>
      <Stack gap={2}>
        {[
          ['Console link', absolute(`/snapshot/${s._id}`)],
          ['Photo link', absolute(s.sharedURI || s.rawCroppedURI)],
          ['Raw photo link', absolute(s.rawCroppedURI)],
        ].map(([label, url]) => (
          <Group key={label} gap={4} wrap="nowrap" justify="space-between">
            <Text size="xs" c="dimmed" w={100} style={{ flex: 'none' }}>
              {label}
            </Text>
            <Text size="xs" truncate style={{ flex: 1 }} title={url}>
              {url}
            </Text>
            <CopyLinkButton value={url} label={`Copy ${label.toLowerCase()}`} />
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

function UserCard({ userId, open }: { userId: string; open: boolean }) {
  const stats = useUserStats(userId, open);
  if (stats.isPending) return <Loader size="sm" />;
  if (stats.isError)
    return (
      <Note color={isNotFound(stats.error) ? undefined : 'red'}>
        {isNotFound(stats.error) ? MSG.album.userHasNoPhotos : MSG.album.exifFailed}
      </Note>
    );
  const u = stats.data;
  return (
    <Stack gap="xs" data-testid="user-info">
      <Text size="sm">
        <b>{u.snapshots}</b> photo(s) by {userId}
      </Text>
      {u.srsList.length > 0 && (
        <Table fz="xs" verticalSpacing={2} horizontalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Section</Table.Th>
              <Table.Th>Row</Table.Th>
              <Table.Th>Seat</Table.Th>
              <Table.Th>Photos</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {u.srsList.map((r, i) => (
              <Table.Tr key={i}>
                <Table.Td>{r.section}</Table.Td>
                <Table.Td>{r.row}</Table.Td>
                <Table.Td>{r.seat}</Table.Td>
                <Table.Td>{r.snapshots}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {u.socialData.length > 0 && (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            Shared via
          </Text>
          {u.socialData.map((d, i) => (
            <Text key={i} size="xs">
              {d.socialSource}
              {d.userName ? ` · ${d.userName}` : ''}
              {d.userEmail ? ` · ${d.userEmail}` : ''}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function ExifCard({ url, open }: { url: string; open: boolean }) {
  const exif = useExif(url, open);
  if (exif.isPending) return <Loader size="sm" />;
  if (exif.isError) return <Note color="red">{MSG.album.exifFailed}</Note>;
  if (!exif.data.length) return <Note>{MSG.album.noData}</Note>;
  return (
    <Facts>
      {exif.data.map((e) => (
        <Row key={e.key} label={e.key}>
          {e.value}
        </Row>
      ))}
    </Facts>
  );
}

const over = (c: number) => c > FACE_CONFIDENCE_THRESHOLD;
const TRAITS = ['Smile', 'Eyeglasses', 'Sunglasses', 'Beard', 'Mustache', 'EyesOpen', 'MouthOpen'] as const;

/** Traits and emotions show only above confidence 60 (spec 1 §5). */
function FaceFacts({ face, n }: { face: Face; n: number }) {
  const traits = TRAITS.filter((t) => face[t].Value && over(face[t].Confidence));
  const emotions = face.Emotions.filter((e) => over(e.Confidence));
  return (
    <Stack gap={4} data-testid="face-facts">
      <Group gap={6}>
        <Badge size="sm" color="yellow" variant="filled" c="dark.9">
          Face {n}
        </Badge>
        <Text size="xs">
          Age {face.AgeRange.Low}–{face.AgeRange.High}
          {over(face.Gender.Confidence) ? ` · ${face.Gender.Value}` : ''}
        </Text>
      </Group>
      <Group gap={4}>
        {traits.map((t) => (
          <Badge key={t} size="xs" variant="light">
            {t}
          </Badge>
        ))}
        {emotions.map((e) => (
          <Badge key={e.Type} size="xs" variant="light" color="grape">
            {e.Type.toLowerCase()} {Math.round(e.Confidence)}%
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

function VisionCard({ faces }: { faces: ReturnType<typeof useFacesData> }) {
  if (faces.isPending) return <Loader size="sm" />;
  if (faces.isError) return <Note color="red">{MSG.album.exifFailed}</Note>;
  if (!faces.data.length) return <Note>{MSG.album.noData}</Note>;
  return (
    <Stack gap="sm">
      {faces.data.map((f, i) => (
        <FaceFacts key={i} face={f} n={i + 1} />
      ))}
    </Stack>
  );
}

type Props = {
  snapshot: Snapshot;
  timezone: string;
  eventTitle?: string;
  open: InfoCard[];
  onOpenChange: (open: InfoCard[]) => void;
  faces: ReturnType<typeof useFacesData>;
  onShowUser: () => void;
};

/** The lightbox's info side panel (spec 1 §2): collapsible cards, gated per spec 1 §6. */
export function LightboxInfo({ snapshot: s, timezone, eventTitle, open, onOpenChange, faces, onShowUser }: Props) {
  const canUser = useCan(P.USER_INFO_ACCORDITION);
  const canExif = useCan(P.EXIF_ACCORDITION);
  const canVision = useCan(P.VISION_ACCORDITION);
  return (
    <Accordion multiple value={open} onChange={(v) => onOpenChange(v as InfoCard[])} variant="separated" radius="md">
      <Accordion.Item value="image">
        <Accordion.Control icon={<IconInfoCircle size={18} />}>Image Information</Accordion.Control>
        <Accordion.Panel>
          <ImageCard s={s} timezone={timezone} eventTitle={eventTitle} onShowUser={onShowUser} />
        </Accordion.Panel>
      </Accordion.Item>
      {canUser && (
        <Accordion.Item value="user">
          <Accordion.Control icon={<IconUser size={18} />}>User Information</Accordion.Control>
          <Accordion.Panel>{open.includes('user') && <UserCard userId={s.userId} open />}</Accordion.Panel>
        </Accordion.Item>
      )}
      {canExif && (
        <Accordion.Item value="exif">
          <Accordion.Control icon={<IconCamera size={18} />}>Exif Data</Accordion.Control>
          <Accordion.Panel>
            {open.includes('exif') && <ExifCard url={buildPath(snapshotsRoutes.original.path, { id: s._id })} open />}
          </Accordion.Panel>
        </Accordion.Item>
      )}
      {canVision && (
        <Accordion.Item value="vision">
          <Accordion.Control icon={<IconEye size={18} />}>Vision</Accordion.Control>
          <Accordion.Panel>{open.includes('vision') && <VisionCard faces={faces} />}</Accordion.Panel>
        </Accordion.Item>
      )}
    </Accordion>
  );
}
