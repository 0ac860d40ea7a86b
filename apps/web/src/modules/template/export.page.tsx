import { useState } from 'react';
import { Alert, Button, Checkbox, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileImport } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { EXPORTABLE_FIELDS, MSG, P, buildPath, exportRoutes, toQueryString } from '@stadiumcam/contract';
import { useCan } from '../auth/session.hooks.ts';
import { showErrorModal, showSuccessModal } from '../../ui/feedback.tsx';
import { EVENTS_KEY, useCurrentEvent, useEventList } from '../events/events.hooks.ts';
import { EventSelector } from '../events/event-selector.tsx';
import { useSelectedEvents } from '../events/selection.store.ts';

type Field = (typeof EXPORTABLE_FIELDS)[number];
const FIELD_LABELS: Record<Field, string> = {
  geofence: 'Geofence',
  overlays: 'Overlays',
  startTime: 'Start time',
  endTime: 'End time',
};
/** Spec 2 / issue 18: trivia, geofence and overlays are exported unless unticked; times too. */
const DEFAULT_FIELDS: Field[] = [...EXPORTABLE_FIELDS];

/** Starts the browser's download of one event's .amp. */
function download(slugDate: string, triviaEnabled: boolean, fields: Field[]) {
  const disabledEventFields = EXPORTABLE_FIELDS.filter((f) => !fields.includes(f));
  const a = document.createElement('a');
  a.href = buildPath(exportRoutes.export.path, { slugDate }) + toQueryString({ triviaEnabled, disabledEventFields });
  a.download = `${slugDate}.amp`;
  document.body.append(a);
  a.click();
  a.remove();
}

/** A file an operator means as an .amp: the name or the type says so (spec 2 §5 Event import). */
const looksLikeAmp = (f: File) => f.name.toLowerCase().endsWith('.amp') || f.type === 'application/octet-stream';

/**
 * Export/Import (spec 2 Export/Import, §5, §7; DESIGN §10): export options, export of the
 * selected events or of all events (not while the current event is live), and an .amp import
 * into the selected events. The page has no permission wrapper (spec 2); the server asks for
 * Template, so without it the page says so and its buttons are disabled.
 */
export function ExportImportPage() {
  const { events } = useSelectedEvents();
  const list = useEventList();
  const current = useCurrentEvent();
  const qc = useQueryClient();
  const [triviaEnabled, setTrivia] = useState(true);
  const [fields, setFields] = useState<Field[]>(DEFAULT_FIELDS);
  const [importing, setImporting] = useState(false);
  const canTemplate = useCan(P.TEMPLATE);
  const live = current.data?.eventStatus === 'live';
  const all = (list.data ?? []).filter((e) => !e.template);

  const handleImport = async (file: File | null) => {
    if (!file) return;
    if (!looksLikeAmp(file)) return showErrorModal(MSG.templateParts.invalidAmp);
    const body = new FormData();
    body.append('eventIds', JSON.stringify(events.map((e) => e._id)));
    body.append('file', file);
    setImporting(true);
    try {
      const res = await fetch(exportRoutes.import.path, { method: 'POST', body, credentials: 'same-origin' });
      const answer = (await res.json().catch(() => ({}))) as { error?: string };
      if (!res.ok) return showErrorModal(answer.error ?? MSG.events.eventUpdateRetry);
      showSuccessModal(MSG.template.eventSuccessfullyUpdated);
      void qc.invalidateQueries({ queryKey: EVENTS_KEY });
    } catch {
      showErrorModal(MSG.events.eventUpdateRetry);
    } finally {
      setImporting(false);
    }
  };

  return (
    <Stack gap="md" p="md" data-testid="template-page">
      <Group gap="md">
        <Title order={3}>Export/Import</Title>
        <EventSelector multiple allowTemplate allowFuture />
      </Group>
      {!canTemplate && (
        <Alert color="yellow" maw={760} data-testid="export-needs-template">
          {MSG.templateParts.exportNeedsTemplate}
        </Alert>
      )}
      <Paper withBorder p="md" radius="md" maw={760}>
        <Stack gap="sm">
          <Title order={5}>Export settings</Title>
          <Checkbox label="Trivia" checked={triviaEnabled} onChange={(e) => setTrivia(e.currentTarget.checked)} />
          <Checkbox.Group value={fields} onChange={(v) => setFields(v)}>
            <Group gap="md">
              {EXPORTABLE_FIELDS.map((f) => (
                <Checkbox key={f} value={f} label={FIELD_LABELS[f]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group gap="sm" mt="xs">
            <Button
              leftSection={<IconDownload size={16} />}
              disabled={!canTemplate || events.length === 0}
              onClick={() => events.forEach((e) => download(e.slugDate, triviaEnabled, fields))}
            >
              Export selected ({events.length})
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              disabled={!canTemplate || live || all.length === 0}
              title={live ? 'Not while the current event is live' : undefined}
              onClick={() => all.forEach((e) => download(e.slugDate, triviaEnabled, fields))}
            >
              Export all events
            </Button>
          </Group>
          {live && (
            <Text size="xs" c="dimmed">
              Exporting every event waits until the current event is no longer live.
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md" maw={760}>
        <Stack gap="sm">
          <Title order={5}>Import Event</Title>
          <Text size="sm">
            An .amp file from an export: its settings, trivia and media replace those of the selected events.
          </Text>
          {events.length === 0 && <Alert color="yellow">{MSG.album.selectEvent}</Alert>}
          <FileButton onChange={(f) => void handleImport(f)} accept=".amp,application/octet-stream">
            {(props) => (
              <Button
                variant="default"
                leftSection={<IconFileImport size={16} />}
                loading={importing}
                disabled={!canTemplate || events.length === 0}
                {...props}
              >
                Import Event
              </Button>
            )}
          </FileButton>
        </Stack>
      </Paper>
    </Stack>
  );
}
