import { useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Collapse,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import {
  IconChevronDown,
  IconChevronRight,
  IconDownload,
  IconFileUpload,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import dayjs from 'dayjs';
import { MSG, MAX_CONFIG_FILE_BYTES, type ConfigFileInfo } from '@stadiumcam/contract';
import { errorText } from '../../ui/api.ts';
import { confirm, toast } from '../../ui/feedback.tsx';
import { CoverageView } from './coverage.tsx';
import {
  useConfigFiles,
  useDeleteConfigFile,
  useMappingStats,
  useQueueEntries,
  useReloadConfig,
  useSeatMap,
  useUploadConfigFiles,
} from './mapping.hooks.ts';

/** spec 3 §9: mapping toasts close after 3 s; tables show 10 per page. */
const TOAST_MS = 3000;
const PAGE = 10;

type Status = 'pending' | 'uploading' | 'uploaded' | 'error';
/** spec 3 §3 Config file item; `refused` = turned away by the uploader itself (never sent). */
type Item = { file: File; stamp: number; status: Status; error?: string; refused?: boolean };
const MAX_MB = MAX_CONFIG_FILE_BYTES / 1024 / 1024;
const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
const retryable = (i: Item) => !i.refused && (i.status === 'pending' || i.status === 'error');
const STATUS_COLOR: Record<Status, string> = { pending: 'gray', uploading: 'blue', uploaded: 'green', error: 'red' };
const sameUpload = (a: Item, b: Item) =>
  a.file.name === b.file.name &&
  a.file.size === b.file.size &&
  a.file.lastModified === b.file.lastModified &&
  a.stamp === b.stamp;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const [open, setOpen] = useState(true);
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Group gap={6} style={{ cursor: 'pointer' }} onClick={() => setOpen((o) => !o)}>
        {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
        <Text fw={600}>{title}</Text>
      </Group>
      <Collapse expanded={open}>
        <Stack mt="sm" gap="xs">
          {children}
        </Stack>
      </Collapse>
    </Paper>
  );
}

function Paged<T>({
  label,
  rows,
  head,
  row,
}: {
  /** Names the scrolling table for the keyboard (it takes focus to scroll sideways). */
  label: string;
  rows: T[];
  head: string[];
  row: (r: T) => ReactNode[];
}) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const shown = rows.slice((Math.min(page, pages) - 1) * PAGE, Math.min(page, pages) * PAGE);
  return (
    <>
      <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': MSG.a11y.scrollRegion(label) }}>
        <Table striped withTableBorder verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              {head.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r, i) => (
              <Table.Tr key={i}>
                {row(r).map((c, j) => (
                  <Table.Td key={j}>{c}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pages > 1 && <Pagination size="sm" total={pages} value={Math.min(page, pages)} onChange={setPage} />}
    </>
  );
}

/** Mapping config page (spec 3 §2.7): Update Config, the uploader, stored files, parsed tables, coverage. */
export function MappingConfigPage() {
  const files = useConfigFiles();
  const upload = useUploadConfigFiles();
  const reload = useReloadConfig();
  const remove = useDeleteConfigFile();
  const queue = useQueueEntries();
  const stats = useMappingStats();
  const seatMap = useSeatMap();
  const [items, setItems] = useState<Item[]>([]);

  const handleReload = (quiet = false) =>
    reload.mutate(undefined, {
      onSuccess: () => toast(MSG.mapping.configUpdated, { color: 'green', autoClose: TOAST_MS }),
      onError: (err) =>
        toast(quiet ? MSG.mapping.configUpdateFailed : errorText(err, MSG.mapping.configUpdateFailed), {
          color: 'red',
          title: MSG.mapping.configUpdateFailed,
          autoClose: TOAST_MS,
        }),
    });

  const addItems = (added: Item[]) =>
    setItems((list) => {
      const next = [...list];
      for (const item of added) if (!next.some((x) => sameUpload(x, item))) next.push(item);
      return next;
    });
  const handleDrop = (dropped: File[]) =>
    addItems(dropped.map((file) => ({ file, stamp: file.lastModified, status: 'pending' })));
  /** Too large or not a map file / row dictionary: listed with the reason, never sent. */
  const handleReject = (rejected: FileRejection[]) => {
    addItems(
      rejected.map(({ file, errors }) => ({
        file,
        stamp: file.lastModified,
        status: 'error',
        refused: true,
        error: errors.some((e) => e.code === 'file-too-large')
          ? `The file is larger than ${MAX_MB} MB`
          : 'Only cam<N>.json map files and row_dict.txt are accepted',
      })),
    );
    toast(MSG.mapping.filesFailed(rejected.length), { color: 'red', autoClose: TOAST_MS });
  };

  const handleUpload = () => {
    const pending = items.filter(retryable);
    if (!pending.length) return;
    setItems((list) => list.map((i) => (pending.includes(i) ? { ...i, status: 'uploading', error: undefined } : i)));
    upload.mutate(
      pending.map((i) => i.file),
      {
        onSuccess: ({ files: results }) => {
          const ok = results.filter((r) => r.success).length;
          const failed = results.length - ok;
          setItems((list) =>
            list.map((i) => {
              if (!pending.includes(i) && i.status !== 'uploading') return i;
              const r = results.find((x) => x.name === i.file.name);
              return r?.success ? { ...i, status: 'uploaded' } : { ...i, status: 'error', error: r?.error };
            }),
          );
          if (ok) toast(MSG.mapping.filesUploaded(ok), { color: 'green', autoClose: TOAST_MS });
          if (failed) toast(MSG.mapping.filesFailed(failed), { color: 'red', autoClose: TOAST_MS });
          // spec 3 §4: after any success the server config is reloaded.
          if (ok) handleReload();
        },
        onError: (err) => {
          const error = errorText(err, MSG.mapping.filesFailed(pending.length));
          setItems((list) => list.map((i) => (i.status === 'uploading' ? { ...i, status: 'error', error } : i)));
          toast(MSG.mapping.filesFailed(pending.length), { color: 'red', autoClose: TOAST_MS });
        },
      },
    );
  };

  const handleDelete = async (f: ConfigFileInfo) => {
    const ok = await confirm({
      title: MSG.mapping.deleteFileTitle,
      text: MSG.mapping.deleteFileConfirm(f.name),
      confirmLabel: MSG.common.deleteLabel,
      danger: true,
    });
    if (!ok) return;
    remove.mutate(f.name, {
      onSuccess: () => toast(MSG.mapping.fileRemoved, { color: 'green', autoClose: TOAST_MS }),
      onError: () => toast(MSG.mapping.fileRemoveFailed, { color: 'red', autoClose: TOAST_MS }),
    });
  };

  const entries = Object.entries(queue.data ?? {}).flatMap(([section, list]) => list.map((e) => ({ section, ...e })));
  const uploading = items.some((i) => i.status === 'uploading');

  return (
    <Stack p="md" gap="md">
      <Group justify="space-between">
        <Title order={3}>Mapping Config</Title>
        <Button leftSection={<IconRefresh size={16} />} loading={reload.isPending} onClick={() => handleReload()}>
          Update Config
        </Button>
      </Group>

      <Paper withBorder p="sm">
        <Dropzone
          onDrop={handleDrop}
          maxSize={MAX_CONFIG_FILE_BYTES}
          accept={{ 'application/json': ['.json'], 'text/plain': ['.txt'] }}
          onReject={handleReject}
          data-testid="config-dropzone"
        >
          <Group justify="center" gap="sm" mih={90} style={{ pointerEvents: 'none' }}>
            <IconFileUpload size={36} stroke={1.5} />
            <div>
              <Text>Drop camera map files (cam&lt;N&gt;.json) and the row dictionary (row_dict.txt) here</Text>
              <Text size="sm" c="dimmed">
                or click to choose them; each file at most {MAX_MB} MB
              </Text>
            </div>
          </Group>
        </Dropzone>
        {items.length > 0 && (
          <Stack gap={4} mt="sm">
            {items.map((i) => (
              <Group key={`${i.file.name}-${i.stamp}`} gap="xs" data-testid="upload-item">
                <Text size="sm" w={220} truncate>
                  {i.file.name}
                </Text>
                <Badge color={STATUS_COLOR[i.status]} variant="light" data-testid="upload-status">
                  {i.status}
                </Badge>
                {i.status === 'uploading' && <Loader size="xs" />}
                {i.error && (
                  <Text size="xs" c="red">
                    {i.error}
                  </Text>
                )}
              </Group>
            ))}
            <Group>
              <Button
                size="xs"
                onClick={handleUpload}
                loading={uploading}
                disabled={uploading || !items.some(retryable)}
              >
                Upload
              </Button>
              <Button size="xs" variant="default" disabled={uploading} onClick={() => setItems([])}>
                Clear list
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>

      <Section title="Files on the server" testId="config-files">
        {files.isPending ? (
          <Loader size="sm" />
        ) : files.isError ? (
          <Text c="red">{MSG.mapping.configFilesLoadFailed}</Text>
        ) : !files.data.files.length ? (
          <Text c="dimmed">No files uploaded yet.</Text>
        ) : (
          <Paged
            label="Files on the server"
            rows={files.data.files}
            head={['File', 'Size', 'Uploaded', 'By', '']}
            row={(f) => [
              f.name,
              sizeText(f.size),
              dayjs(f.uploadedAt).format('YYYY-MM-DD HH:mm'),
              f.uploadedBy,
              <Group gap={4} key="actions" wrap="nowrap">
                <Tooltip label="Download">
                  <ActionIcon
                    component="a"
                    href={f.url}
                    download={f.name.split('/').pop()}
                    variant="subtle"
                    aria-label={`Download ${f.name}`}
                  >
                    <IconDownload size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Delete">
                  <ActionIcon
                    color="red"
                    variant="subtle"
                    aria-label={`Delete ${f.name}`}
                    onClick={() => void handleDelete(f)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>,
            ]}
          />
        )}
      </Section>

      <Section title="Parsed Mapping File" testId="parsed-file">
        {queue.isPending ? (
          <Loader size="sm" />
        ) : queue.isError ? (
          <Text c="red">{MSG.mapping.mappingInfoLoadFailed}</Text>
        ) : !entries.length ? (
          <Text c="dimmed">{MSG.mapping.noMappingInfo}</Text>
        ) : (
          <Paged
            label="Parsed Mapping File"
            rows={entries}
            head={['Section', 'Type', 'Camera', 'Min row', 'Max row', 'Min seat', 'Max seat']}
            row={(e) => [e.section, e.type, e.cam, e.minr, e.maxr, e.mins, e.maxs]}
          />
        )}
      </Section>

      <Section title="Parsed Mapping Info" testId="parsed-info">
        {stats.isPending ? (
          <Loader size="sm" />
        ) : stats.isError ? (
          <Text c="red">{MSG.mapping.mappingInfoLoadFailed}</Text>
        ) : !stats.data.length ? (
          <Text c="dimmed">{MSG.mapping.noMappingInfo}</Text>
        ) : (
          <Paged
            label="Parsed Mapping Info"
            rows={stats.data}
            head={[
              'Camera',
              'Sections',
              'Boxes',
              'Suites',
              'Custom 1/2/3',
              'Regions',
              'Seats',
              'Ref pan',
              'Ref tilt',
              'Zoom min/avg/max',
              'Angle min/avg/max',
              'Pan min/max',
              'Tilt min/max',
            ]}
            row={(s) => [
              s.camera,
              s.numberOfSections,
              s.numberOfBoxes,
              s.numberOfSuites,
              `${s.numberOfCustomType1}/${s.numberOfCustomType2}/${s.numberOfCustomType3}`,
              s.numberOfRegions,
              s.numberOfSeats,
              s.referencePan,
              s.referenceTilt,
              `${s.minZoom}/${s.avgZoom}/${s.maxZoom}`,
              `${s.minAngle}/${s.avgAngle}/${s.maxAngle}`,
              `${s.minPan}/${s.maxPan}`,
              `${s.minTilt}/${s.maxTilt}`,
            ]}
          />
        )}
      </Section>

      <Section title="Coverage" testId="coverage-section">
        {seatMap.isPending ? (
          <Loader size="sm" />
        ) : seatMap.isError ? (
          <Text c="red">{MSG.mapping.mappingInfoLoadFailed}</Text>
        ) : (
          <CoverageView map={seatMap.data} />
        )}
      </Section>
    </Stack>
  );
}
