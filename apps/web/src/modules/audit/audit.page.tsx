import { useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { AUDIT_ACTIONS, MSG, type AuditEntry, type AuditFilter } from '@stadiumcam/contract';
import { errorText } from '../../ui/api.ts';
import { dayjs, eventDateTime } from '../events/event-time.ts';
import { useEventList } from '../events/events.hooks.ts';
import { auditCsvUrl, useAuditPage } from './audit.hooks.ts';

const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: MSG.auditActions[a] }));
const actionLabel = (a: string) => MSG.auditActions[a as keyof typeof MSG.auditActions] ?? a;

/** A value as one short line. */
function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** "field: before → after" per changed field, else what was asked; one line each. */
export function readableDetail(detail: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const before = (detail.before ?? {}) as Record<string, unknown>;
  const after = (detail.after ?? {}) as Record<string, unknown>;
  const changed = detail.before !== undefined || detail.after !== undefined;
  if (changed) {
    for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
      lines.push(`${key}: ${short(before?.[key])} → ${short(after?.[key])}`);
    }
  }
  for (const [key, value] of Object.entries(detail)) {
    if (key === 'before' || key === 'after') continue;
    if (key === 'request' && value && typeof value === 'object') {
      // What was asked, unless the before/after already says it (jsonb orders keys by length).
      if (changed) continue;
      for (const [k, v] of Object.entries(value)) lines.push(`${k}: ${short(v)}`);
    } else lines.push(`${key}: ${short(value)}`);
  }
  return lines.slice(0, 6);
}

const targetText = (entry: AuditEntry) =>
  Object.entries(entry.targets)
    .filter(([k]) => k !== 'slugDate' && k !== 'eventIds')
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : short(v)}`)
    .join(' · ');

/**
 * The operator's record (issue 32 §1, docs/audit.md): newest first, filters (user, action,
 * event, time range in the event's zone or the browser's), keyset pages, CSV export.
 */
export function AuditPage() {
  const events = useEventList();
  const [user, setUser] = useState('');
  const [action, setAction] = useState<string | null>(null);
  const [slugDate, setSlugDate] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [applied, setApplied] = useState<AuditFilter>({});
  // The cursors of the pages seen: back is the previous one, forward the page's `next`.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = useAuditPage(applied, cursors.at(-1));

  const zoneOf = useMemo(() => {
    const zones = new Map((events.data ?? []).map((e) => [e.slugDate, e.timezone]));
    return (slug: string | null) => (slug && zones.get(slug)) || LOCAL_ZONE;
  }, [events.data]);
  const filterZone = zoneOf(slugDate);

  const apply = (over: Partial<{ action: string | null; slugDate: string | null }> = {}) => {
    const a = over.action !== undefined ? over.action : action;
    const s = over.slugDate !== undefined ? over.slugDate : slugDate;
    const zone = zoneOf(s);
    const instant = (local: string) => (local ? dayjs.tz(local, zone).toISOString() : undefined);
    setApplied({
      user: user.trim() || undefined,
      action: (a ?? undefined) as AuditFilter['action'],
      slugDate: s ?? undefined,
      from: instant(from),
      to: instant(to),
    });
    setCursors([undefined]);
  };

  const eventOptions = (events.data ?? [])
    .filter((e) => !e.template)
    .map((e) => ({ value: e.slugDate, label: `${e.title} (${e.slugDate})` }));
  const entries = page.data?.entries ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{MSG.audit.title}</Title>
        <Button
          variant="default"
          component="a"
          href={auditCsvUrl(applied)}
          download
          leftSection={<IconDownload size={16} />}
        >
          {MSG.audit.exportCsv}
        </Button>
      </Group>

      <Paper withBorder radius="sm" p="sm">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="User"
              placeholder="user name"
              value={user}
              onChange={(e) => setUser(e.currentTarget.value)}
              w={130}
            />
            <Select
              label="Action"
              placeholder="All actions"
              data={ACTION_OPTIONS}
              value={action}
              onChange={(v) => {
                setAction(v);
                apply({ action: v });
              }}
              clearable
              searchable
              w={190}
            />
            <Select
              label="Event"
              placeholder="All events"
              data={eventOptions}
              value={slugDate}
              onChange={(v) => {
                setSlugDate(v);
                apply({ slugDate: v });
              }}
              clearable
              searchable
              w={190}
            />
            <TextInput
              type="datetime-local"
              label={`From (${filterZone})`}
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              w={175}
            />
            <TextInput
              type="datetime-local"
              label={`To (${filterZone})`}
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              w={175}
            />
            <Button type="submit">Apply</Button>
          </Group>
        </form>
      </Paper>

      {page.isError && (
        <Alert color="red" role="alert" data-testid="audit-error">
          {errorText(page.error, MSG.common.genericError)}
        </Alert>
      )}

      <Paper withBorder radius="sm">
        {page.isPending ? (
          <Center p="xl">
            <Loader />
          </Center>
        ) : entries.length === 0 ? (
          <Center p="xl">
            <Text c="dimmed">{MSG.audit.noEntries}</Text>
          </Center>
        ) : (
          <ScrollArea type="auto">
            <AuditTable entries={entries} zoneOf={zoneOf} />
          </ScrollArea>
        )}
      </Paper>

      <Group justify="flex-end" gap="xs">
        <Text size="sm" c="dimmed">
          Page {cursors.length}
        </Text>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} />}
          disabled={cursors.length < 2}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          Newer
        </Button>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} />}
          disabled={!page.data?.next}
          onClick={() => page.data?.next && setCursors((c) => [...c, page.data.next ?? undefined])}
        >
          Older
        </Button>
      </Group>
    </Stack>
  );
}

function AuditTable({ entries, zoneOf }: { entries: AuditEntry[]; zoneOf: (slug: string | null) => string }) {
  return (
    <Table striped verticalSpacing={6} horizontalSpacing="sm" miw={960} data-testid="audit-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={150}>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>Action</Table.Th>
          <Table.Th>Event</Table.Th>
          <Table.Th>Target</Table.Th>
          <Table.Th>Result</Table.Th>
          <Table.Th>Address</Table.Th>
          <Table.Th>Detail</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((e) => (
          <Table.Tr key={e.id} data-action={e.action}>
            <Table.Td ff="monospace" fz="xs">
              {eventDateTime(e.at, zoneOf(e.slugDate))}
            </Table.Td>
            <Table.Td fz="sm">
              {e.username ?? (
                <Text span size="sm" c="dimmed">
                  {MSG.audit.anonymous}
                </Text>
              )}
            </Table.Td>
            <Table.Td fz="sm">{actionLabel(e.action)}</Table.Td>
            <Table.Td fz="sm">{e.slugDate ?? ''}</Table.Td>
            <Table.Td fz="xs" maw={180} style={{ wordBreak: 'break-word' }}>
              {targetText(e)}
            </Table.Td>
            <Table.Td>
              <Badge color={e.result === 'done' ? 'teal' : 'red'} variant="light" size="sm" tt="none">
                {e.result === 'done' ? MSG.audit.done : MSG.audit.refused}
              </Badge>
              {e.reason && (
                <Text size="xs" c="red.8" maw={200}>
                  {e.reason}
                </Text>
              )}
            </Table.Td>
            <Table.Td ff="monospace" fz="xs">
              {e.address ?? ''}
            </Table.Td>
            <Table.Td fz="xs" maw={260} style={{ wordBreak: 'break-word' }}>
              {readableDetail(e.detail).map((line, i) => (
                <div key={i}>{line}</div>
              ))}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
