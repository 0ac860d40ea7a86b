import { useState } from 'react';
import {
  ActionIcon,
  Box,
  Button,
  Center,
  Group,
  Image,
  Loader,
  NavLink,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconCheck, IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import {
  IMAGE_MIME_TYPES,
  IMAGE_MSG,
  IMAGE_SECTIONS,
  MAX_TEMPLATE_IMAGE_PIXELS,
  VENUE_TYPES,
  buildPath,
  checkImageRules,
  templateRoutes,
  type ImageKey,
  type ImageUploadAnswer,
  type Images,
  type VenueType,
} from '@stadiumcam/contract';
import { api, errorText } from '../../ui/api.ts';
import { confirm } from '../../ui/feedback.tsx';
import { TemplatePage } from './template-page.tsx';
import { useSavePart, useTemplatePart } from './template.hooks.ts';

type Section = { uploading: boolean; error: string | null; id?: string };

/**
 * The size a PNG, JPEG or WebP header declares, read from the first bytes: a 30000x30000 file
 * is refused for its pixels before the browser is asked to open it (it would refuse it as
 * "not an image"). Null when the header is not one of these.
 */
async function headerSize(file: File): Promise<{ width: number; height: number } | null> {
  const b = new Uint8Array(await file.slice(0, 64 * 1024).arrayBuffer());
  const v = new DataView(b.buffer);
  const ascii = (at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
  if (b.length >= 24 && b[0] === 0x89 && ascii(1, 3) === 'PNG') {
    return { width: v.getUint32(16), height: v.getUint32(20) };
  }
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const kind = ascii(12, 4);
    if (kind === 'VP8 ') return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    if (kind === 'VP8L') {
      const bits = v.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (kind === 'VP8X') {
      const u24 = (at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
      return { width: u24(24) + 1, height: u24(27) + 1 };
    }
    return null;
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    // Walk the segments to the first start-of-frame (C0-CF but C4, C8, CC).
    for (let at = 2; at + 9 < b.length;) {
      if (b[at] !== 0xff) return null;
      const marker = b[at + 1];
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { width: v.getUint16(at + 7), height: v.getUint16(at + 5) };
      }
      at += 2 + v.getUint16(at + 2);
    }
  }
  return null;
}

/**
 * Real pixel size of a chosen file, read by the browser before anything is sent. An <img> reads
 * the size from the header without decoding the pixels, so a 30000x30000 file costs nothing;
 * anything the browser cannot read as an image (SVG sent as PNG, a text file) answers null.
 */
function dimensions(file: File): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    // window.Image: `Image` here is Mantine's component.
    const img = new window.Image();
    const done = (size: { width: number; height: number } | null) => {
      URL.revokeObjectURL(url);
      resolve(size);
    };
    img.onload = () => done(img.naturalWidth ? { width: img.naturalWidth, height: img.naturalHeight } : null);
    img.onerror = () => done(null);
    img.src = url;
  });
}

/** POST /api/events/{slugDate}/images/{key}, multipart field `image`. */
async function upload(slugDate: string, key: ImageKey, file: File): Promise<ImageUploadAnswer> {
  const body = new FormData();
  body.append('image', file);
  const res = await fetch(buildPath(templateRoutes.uploadImage.path, { slugDate, key }), {
    method: 'POST',
    body,
    credentials: 'same-origin',
  });
  const data = (await res.json().catch(() => ({}))) as ImageUploadAnswer & { error?: string };
  if (!res.ok) throw new Error(data.error ?? IMAGE_MSG.onlyImages);
  return data;
}

/** A preset SVG drawn in white on a coloured disc: the 'SRS Icon' options' pictures. */
const srsSvg = (colour: string, body: string) =>
  `data:image/svg+xml;utf8,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 24 24"><circle cx="12" cy="12" r="12" fill="${colour}"/><g fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${body}</g></svg>`,
  )}`;

/**
 * The 'SRS Icon' section's options (spec 2 §3 Graphics section: options with label and
 * imageSrc): preset icons an operator may use instead of uploading one. A chosen option is drawn
 * to a 256×256 PNG and uploaded like a dropped file, so the server stores and checks it the same way.
 */
const SRS_ICON_OPTIONS: { label: string; imageSrc: string }[] = [
  { label: 'Seat', imageSrc: srsSvg('#1971c2', '<path d="M8 6v7h8M8 13l-1 5M16 13l1 5M8 10h7"/>') },
  { label: 'Ticket', imageSrc: srsSvg('#2f9e44', '<path d="M6 8h12v3a1.5 1.5 0 0 0 0 3v3H6v-3a1.5 1.5 0 0 0 0-3z"/>') },
  {
    label: 'Stadium',
    imageSrc: srsSvg('#e8590c', '<ellipse cx="12" cy="12" rx="7" ry="4.5"/><ellipse cx="12" cy="12" rx="3" ry="1.8"/>'),
  },
];

/** Draws an option's picture to a PNG file. */
async function optionFile(option: { label: string; imageSrc: string }): Promise<File> {
  const img = new window.Image();
  img.src = option.imageSrc;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 256;
  canvas.getContext('2d')!.drawImage(img, 0, 0, 256, 256);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/png'));
  if (!blob) throw new Error(IMAGE_MSG.onlyImages);
  return new File([blob], `srs-${option.label.toLowerCase()}.png`, { type: 'image/png' });
}

/** Graphics (spec 2 §2): six image sections, each checked before upload and again by the server. */
export function GraphicsPage() {
  const part = useTemplatePart('images');
  return <GraphicsEditor key={part.key} part={part} />;
}

function GraphicsEditor({ part }: { part: ReturnType<typeof useTemplatePart<'images'>> }) {
  const [images, setImages] = useState<Images>(() => ({ ...(part.value?.images ?? {}) }));
  const [venueType, setVenueType] = useState<VenueType>((part.value?.venueType as VenueType) ?? 'stadium');
  const [active, setActive] = useState<ImageKey>('frontPage');
  const [state, setState] = useState<Partial<Record<ImageKey, Section>>>({});
  const save = useSavePart('images');
  const slugDate = part.first?.slugDate ?? 'stadiumcam';
  const section = IMAGE_SECTIONS.find((s) => s.key === active)!;
  const current = state[active] ?? { uploading: false, error: null };
  const url = images[`${active}Url`];

  const patch = (key: ImageKey, s: Partial<Section>) =>
    setState((all) => ({ ...all, [key]: { uploading: false, error: null, ...all[key], ...s } }));

  const handleDrop = async (files: File[]) => {
    const key = active;
    const file = files[0];
    if (files.length !== 1 || !file) return patch(key, { error: IMAGE_MSG.onlyImages });
    const declared = await headerSize(file);
    if (declared && declared.width * declared.height > MAX_TEMPLATE_IMAGE_PIXELS) {
      return patch(key, { error: IMAGE_MSG.tooManyPixels });
    }
    const size = await dimensions(file);
    if (!size || !file.size) return patch(key, { error: IMAGE_MSG.onlyImages });
    const broken = checkImageRules(key, { ...size, bytes: file.size });
    if (broken) return patch(key, { error: IMAGE_MSG[broken] });
    patch(key, { uploading: true, error: null });
    try {
      const answer = await upload(slugDate, key, file);
      setImages((all) => ({ ...all, [`${key}Url`]: answer.url, [`${key}RawUrl`]: answer.rawUrl }));
      patch(key, { uploading: false, id: answer.id });
    } catch (err) {
      // An error clears the file (spec 2 §4).
      patch(key, { uploading: false, error: errorText(err, (err as Error).message) });
    }
  };

  const handleDelete = async () => {
    if (!(await confirm({ title: section.label, text: IMAGE_MSG.deleteConfirm, confirmLabel: 'Delete', danger: true })))
      return;
    const key = active;
    const id = state[key]?.id ?? /-([a-f0-9]{8,64})\.\w+$/.exec(images[`${key}Url`] ?? '')?.[1];
    setImages((all) => {
      const next = { ...all };
      delete next[`${key}Url`];
      delete next[`${key}RawUrl`];
      return next;
    });
    setState((all) => ({ ...all, [key]: { uploading: false, error: null } }));
    // The file goes only when no event uses it (the server checks).
    if (id) void api(templateRoutes.deleteImage, { params: { slugDate, id, key } }).catch(() => undefined);
  };

  return (
    <TemplatePage
      title="Graphics"
      loading={part.loading}
      failed={part.event.isError}
      onUpdate={() => save.mutate({ images, venueType })}
      saving={save.isPending}
      actions={
        <SegmentedControl
          aria-label="Venue type"
          data={VENUE_TYPES.map((v) => ({ value: v, label: v[0].toUpperCase() + v.slice(1) }))}
          value={venueType}
          onChange={(v) => setVenueType(v)}
        />
      }
    >
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Paper withBorder w={240} p={4} style={{ flex: 'none' }}>
          {IMAGE_SECTIONS.map((s) => (
            <NavLink
              key={s.key}
              label={s.label}
              active={s.key === active}
              onClick={() => setActive(s.key)}
              leftSection={state[s.key]?.uploading ? <Loader size={14} /> : <IconPhoto size={16} />}
              rightSection={images[`${s.key}Url`] ? <IconCheck size={14} color="var(--mantine-color-green-6)" /> : null}
              data-testid={`section-${s.key}`}
            />
          ))}
        </Paper>
        <Stack style={{ flex: 1 }} gap="sm">
          <Title order={4}>{section.label}</Title>
          <Text size="sm" c="dimmed">
            {section.guideline}
          </Text>
          {url ? (
            <Paper withBorder p="sm" pos="relative">
              <Image src={url} alt={section.label} mah={420} fit="contain" data-testid="graphics-image" />
              <ActionIcon
                pos="absolute"
                top={8}
                right={8}
                color="red"
                variant="filled"
                aria-label="Delete image"
                onClick={() => void handleDelete()}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Paper>
          ) : (
            <Dropzone
              onDrop={(files) => void handleDrop(files)}
              onReject={() => patch(active, { error: IMAGE_MSG.onlyImages })}
              accept={[...IMAGE_MIME_TYPES]}
              multiple={false}
              loading={current.uploading}
              data-testid="graphics-dropzone"
            >
              <Center mih={200}>
                <Stack align="center" gap={4}>
                  <IconUpload size={36} stroke={1.5} />
                  <Text>Drop an image here or click to choose one</Text>
                  <Text size="xs" c="dimmed">
                    JPEG, PNG or WebP, a single file
                  </Text>
                </Stack>
              </Center>
            </Dropzone>
          )}
          {active === 'srsIcon' && !url && (
            <Group gap="xs" data-testid="srs-icon-options">
              <Text size="sm">Or use one of these:</Text>
              {SRS_ICON_OPTIONS.map((o) => (
                <Button
                  key={o.label}
                  variant="default"
                  size="xs"
                  disabled={current.uploading}
                  leftSection={<img src={o.imageSrc} alt="" width={18} height={18} />}
                  onClick={() => void optionFile(o).then((f) => handleDrop([f]))}
                >
                  {o.label}
                </Button>
              ))}
            </Group>
          )}
          {current.error && (
            <Box>
              <Text c="red" size="sm" role="alert" data-testid="graphics-error">
                {current.error}
              </Text>
            </Box>
          )}
        </Stack>
      </Group>
    </TemplatePage>
  );
}
